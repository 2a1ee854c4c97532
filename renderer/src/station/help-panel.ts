import type { TFunction } from 'i18next';
import type { StationState } from '../../../protocol/index.js';
import type { Rect } from '../felt/felt-layout.js';
import { Button } from '../ui/button.js';
import { TOUCH } from '../ui/theme.js';
import { payLineText } from './help-text.js';
import { Panel } from './panel.js';

type HelpPage = 'rules' | 'pays' | 'side';

/**
 * Help: the game's rules, its pay table and, where the table offers them, the additional bets
 * (額外投注) on a page of their own, in the player's language, with the table's limits.
 */
export class HelpPanel extends Panel {
  private page: HelpPage = 'rules';
  private readonly body: ReturnType<Panel['block']>;
  private readonly rules: Button;
  private readonly pays: Button;
  private readonly side: Button;
  private state: StationState | null = null;
  private t: TFunction | null = null;

  constructor(area: Rect, onClose: () => void) {
    super(area, 'help-close', onClose);
    this.body = this.block(area.x + 30, area.y + 90, area.width - 60, 27);
    const y = area.y + area.height - TOUCH.min - 24;
    this.rules = new Button('help-rules', 260, TOUCH.min, () => this.show('rules'));
    this.pays = new Button('help-pays', 260, TOUCH.min, () => this.show('pays'));
    this.side = new Button('help-side', 260, TOUCH.min, () => this.show('side'));
    this.rules.position.set(area.x + 30, y);
    this.pays.position.set(area.x + 310, y);
    this.side.position.set(area.x + 590, y);
    this.addChild(this.rules, this.pays, this.side);
  }

  open(): void {
    this.page = 'rules';
    this.visible = true;
    this.draw();
  }

  update(state: StationState, t: TFunction): void {
    this.state = state;
    this.t = t;
    if (this.visible) this.draw();
  }

  private show(page: HelpPage): void {
    this.page = page;
    this.draw();
  }

  private draw(): void {
    const s = this.state;
    const t = this.t;
    if (!s || !t) return;
    this.heading.text = t('punctuation.joined', { first: t('help.title'), second: t(`game.${s.game}`) });
    this.closeButton.setLabel(t('recall.close'));
    this.rules.setLabel(t('help.rules'));
    this.pays.setLabel(t('help.pays'));
    this.side.setLabel(t('help.side'));
    const table = s.payTable ?? [];
    const sideLines = table.filter((l) => l.side);
    // A table without additional bets has no third page (and a stale one falls back to the rules).
    this.side.visible = sideLines.length > 0;
    if (this.page === 'side' && !sideLines.length) this.page = 'rules';
    this.rules.setActive(this.page === 'rules');
    this.pays.setActive(this.page === 'pays');
    this.side.setActive(this.page === 'side');
    const limits = t('table.limits', { min: s.limits.min, max: s.limits.max, currency: s.currency });
    // The pay table is the active profile's own (host/screens/pay-table.ts): odds as players read
    // them and the article a player can look up, never the settlement's rule id.
    const lines = this.page === 'side' ? sideLines : this.page === 'pays' ? table.filter((l) => !l.side) : [];
    const text = lines.length ? lines.map((l) => payLineText(t, l, s.language)).join('\n') : t(`help.${s.game}.${this.page === 'side' ? 'rules' : this.page}`);
    this.body.text = `${text}\n\n${limits}`;
  }
}
