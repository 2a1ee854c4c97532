import { Container, Graphics, Text } from 'pixi.js';
import type { ViewState } from '../../../protocol/index.js';
import { formatMoney } from '../i18n/money.js';
import { LanguageSwitch } from '../ui/language-switch.js';
import { SessionClock } from '../ui/session-clock.js';
import { StatusBanner } from '../ui/status-banner.js';
import { COLORS, DESIGN, textStyle } from '../ui/theme.js';
import type { Screen, ScreenContext } from './screen.js';
import { StationPlay } from './station-play.js';

/** A player's own touch screen: seat, credit meter, limits, language. */
export class StationScreen implements Screen {
  readonly root = new Container();
  private readonly title = new Text({ text: '', style: textStyle({ fontSize: 56, fill: COLORS.goldText, fontWeight: '700' }) });
  private readonly seat = new Text({ text: '', style: textStyle({ fontSize: 40 }) });
  private readonly creditLabel = new Text({ text: '', style: textStyle({ fontSize: 40, fill: COLORS.muted }) });
  private readonly credit = new Text({ text: '', style: textStyle({ fontSize: 96, fill: COLORS.ivory, fontWeight: '700' }) });
  private readonly limits = new Text({ text: '', style: textStyle({ fontSize: 34, fill: COLORS.muted }) });
  private readonly status = new StatusBanner();
  private readonly languages: LanguageSwitch;
  private readonly clock: SessionClock;
  private readonly play: StationPlay;

  constructor(private readonly ctx: ScreenContext) {
    const bg = new Graphics().rect(0, 0, DESIGN.width, DESIGN.height).fill({ color: 0x0a2219 });
    const header = new Graphics().rect(0, 0, DESIGN.width, 150).fill({ color: COLORS.panel }).rect(0, 148, DESIGN.width, 4).fill({ color: COLORS.gold });
    const meter = new Graphics()
      .roundRect(DESIGN.width - 760, 210, 700, 260, 24)
      .fill({ color: COLORS.panel })
      .stroke({ width: 4, color: COLORS.gold });
    this.title.position.set(60, 40);
    this.seat.anchor.set(1, 0);
    this.seat.position.set(DESIGN.width - 60, 50);
    this.creditLabel.position.set(DESIGN.width - 720, 236);
    this.credit.anchor.set(1, 0);
    this.credit.position.set(DESIGN.width - 100, 320);
    this.limits.position.set(60, 220);

    this.languages = new LanguageSwitch(ctx);
    this.languages.position.set(60, DESIGN.height - 140);
    this.play = new StationPlay(ctx);
    this.clock = new SessionClock(ctx.sessionStartMs);
    this.clock.position.set(DESIGN.width - 40, DESIGN.height - 30);
    this.root.addChild(bg, header, meter, this.title, this.seat, this.creditLabel, this.credit, this.limits, this.play, this.languages, this.clock, this.status);
  }

  render(state: ViewState): void {
    if (state.kind !== 'station') return;
    const t = this.ctx.i18n.getFixedT(state.language);
    this.title.text = t(`game.${state.game}`);
    this.seat.text = t('station.yourSeat', { n: state.seat });
    this.creditLabel.text = t('station.credit');
    this.credit.text = formatMoney(state.credit, state.currency, state.language);
    this.limits.text = t('table.limits', { min: state.limits.min, max: state.limits.max, currency: state.currency });
    this.languages.setCurrent(state.language);
    this.clock.setLanguage(state.language);
    this.play.show(state, t, Date.now());
  }

  tick(nowMs: number): void {
    this.clock.update(nowMs);
    this.play.tick(nowMs, this.ctx.i18n.t);
  }

  setStatus(messageKey: string | null): void {
    this.status.show(messageKey === null ? null : this.ctx.i18n.t(messageKey));
  }
}
