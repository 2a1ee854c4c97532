import { Container, Graphics, Text } from 'pixi.js';
import type { ViewState } from '../../../protocol/index.js';
import { LanguageSwitch } from '../ui/language-switch.js';
import { StatusBanner } from '../ui/status-banner.js';
import { COLORS, DESIGN, textStyle } from '../ui/theme.js';
import type { Screen, ScreenContext } from './screen.js';

/** Service mode before sign-in: what the cabinet label shows and the sign-in prompt. */
export class ServiceScreen implements Screen {
  readonly root = new Container();
  private readonly title = new Text({ text: '', style: textStyle({ fontSize: 56, fill: COLORS.goldText, fontWeight: '700' }) });
  private readonly table = new Text({ text: '', style: textStyle({ fontSize: 36 }) });
  private readonly version = new Text({ text: '', style: textStyle({ fontSize: 36, fill: COLORS.muted }) });
  private readonly prompt = new Text({ text: '', style: textStyle({ fontSize: 40, fill: COLORS.warning }) });
  private readonly status = new StatusBanner();
  private readonly languages: LanguageSwitch;

  constructor(private readonly ctx: ScreenContext) {
    const bg = new Graphics().rect(0, 0, DESIGN.width, DESIGN.height).fill({ color: 0x14161a });
    this.title.position.set(60, 50);
    this.table.position.set(60, 170);
    this.version.position.set(60, 230);
    this.prompt.position.set(60, 330);
    this.languages = new LanguageSwitch(ctx);
    this.languages.position.set(60, DESIGN.height - 140);
    this.root.addChild(bg, this.title, this.table, this.version, this.prompt, this.languages, this.status);
  }

  render(state: ViewState): void {
    if (state.kind !== 'service') return;
    const t = this.ctx.i18n.getFixedT(state.language);
    this.title.text = t('service.title');
    this.table.text = t('service.table', { id: state.tableId });
    this.version.text = t('service.version', { version: state.softwareVersion });
    this.prompt.text = state.signedIn ? '' : t('service.signInRequired');
    this.languages.setCurrent(state.language);
  }

  setStatus(messageKey: string | null): void {
    this.status.show(messageKey === null ? null : this.ctx.i18n.t(messageKey));
  }
}
