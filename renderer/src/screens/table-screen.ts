import { Container, Graphics, Text } from 'pixi.js';
import type { TableState, ViewState } from '../../../protocol/index.js';
import { LanguageSwitch } from '../ui/language-switch.js';
import { StatusBanner } from '../ui/status-banner.js';
import { COLORS, DESIGN, textStyle } from '../ui/theme.js';
import type { Screen, ScreenContext } from './screen.js';
import { drawFelt, FELT, seatPosition } from './table-felt.js';
import { TableRound } from './table-round.js';

interface SeatSprite {
  spot: Graphics;
  label: Text;
}

/** The big screen facing the seats: felt, dealer area, seats, the game's name and limits. */
export class TableScreen implements Screen {
  readonly root = new Container();
  private readonly seats: SeatSprite[] = [];
  private readonly seatLayer = new Container();
  private readonly dealerLabel = new Text({ text: '', style: textStyle({ fontSize: 40, fill: COLORS.goldText, fontWeight: '700' }) });
  private readonly shoeLabel = new Text({ text: '', style: textStyle({ fontSize: 26, fill: COLORS.muted }) });
  private readonly discardLabel = new Text({ text: '', style: textStyle({ fontSize: 26, fill: COLORS.muted }) });
  private readonly nameZh = new Text({ text: '', style: textStyle({ fontSize: 64, fill: COLORS.goldText, fontWeight: '700' }) });
  private readonly namePt = new Text({ text: '', style: textStyle({ fontSize: 38, fill: COLORS.goldText }) });
  private readonly limits = new Text({ text: '', style: textStyle({ fontSize: 32, fill: COLORS.ivory }) });
  private readonly status = new StatusBanner();
  private readonly round = new TableRound();
  private readonly languages: LanguageSwitch;

  constructor(private readonly ctx: ScreenContext) {
    const felt = drawFelt();
    const tray = new Graphics()
      .roundRect(FELT.cx - 300, FELT.top + 18, 600, 86, 14)
      .fill({ color: 0x1a1a1a, alpha: 0.55 })
      .stroke({ width: 3, color: COLORS.gold });
    const shoe = new Graphics().roundRect(FELT.cx + 470, FELT.top + 24, 150, 100, 12).fill({ color: 0x2a1a0e }).stroke({ width: 3, color: COLORS.railEdge });
    const discard = new Graphics().roundRect(FELT.cx - 620, FELT.top + 24, 150, 100, 12).fill({ color: 0x10261c }).stroke({ width: 3, color: COLORS.railEdge });
    this.dealerLabel.anchor.set(0.5, 0);
    this.dealerLabel.position.set(FELT.cx, FELT.top + 118);
    this.shoeLabel.anchor.set(0.5, 0);
    this.shoeLabel.position.set(FELT.cx + 545, FELT.top + 132);
    this.discardLabel.anchor.set(0.5, 0);
    this.discardLabel.position.set(FELT.cx - 545, FELT.top + 132);
    for (const t of [this.nameZh, this.namePt, this.limits]) t.anchor.set(0.5);
    this.nameZh.position.set(FELT.cx, 440);
    this.namePt.position.set(FELT.cx, 500);
    this.limits.position.set(FELT.cx, 552);

    this.languages = new LanguageSwitch(ctx, 180);
    this.languages.position.set(30, DESIGN.height - 120);

    this.root.addChild(felt, tray, shoe, discard, this.dealerLabel, this.shoeLabel, this.discardLabel);
    this.root.addChild(this.nameZh, this.namePt, this.limits, this.seatLayer, this.round, this.languages, this.status);
  }

  render(state: ViewState): void {
    if (state.kind !== 'table') return;
    const { i18n } = this.ctx;
    const t = i18n.getFixedT(state.language);
    // The game's name is printed on the felt in both official languages, whatever the screen language.
    this.nameZh.text = i18n.getFixedT('zh-Hant')(`game.${state.game}`);
    this.namePt.text = i18n.getFixedT('pt')(`game.${state.game}`);
    this.limits.text = t('table.limits', { min: state.limits.min, max: state.limits.max, currency: state.currency });
    this.dealerLabel.text = t('table.dealer');
    this.shoeLabel.text = t('table.shoe');
    this.discardLabel.text = t('table.discard');
    this.syncSeats(state);
    this.seats.forEach((s, i) => (s.label.text = t('table.seat', { n: i + 1 })));
    this.languages.setCurrent(state.language);
    this.round.show(state.round, state.seats.length, t, state.currency, state.language, Date.now());
  }

  tick(nowMs: number): void {
    this.round.tick(nowMs);
  }

  cardCodes(): string[] {
    return this.round.cardCodes();
  }

  setStatus(messageKey: string | null): void {
    this.status.show(messageKey === null ? null : this.ctx.i18n.t(messageKey));
  }

  private syncSeats(state: TableState): void {
    if (this.seats.length === state.seats.length) return;
    this.seatLayer.removeChildren();
    this.seats.length = 0;
    for (const seat of state.seats) {
      const p = seatPosition(seat.seat, state.seats.length);
      const spot = new Graphics()
        .circle(p.x, p.y, 64)
        .fill({ color: 0x000000, alpha: 0.12 })
        .stroke({ width: 4, color: COLORS.gold });
      const label = new Text({ text: '', style: textStyle({ fontSize: 30, fill: COLORS.ivory, fontWeight: '600' }) });
      label.anchor.set(0.5, 0);
      label.position.set(p.x, p.y + 76);
      this.seatLayer.addChild(spot, label);
      this.seats.push({ spot, label });
    }
  }
}
