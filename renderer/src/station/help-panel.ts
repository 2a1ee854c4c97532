import type { TFunction } from 'i18next';
import type { StationState } from '../../../protocol/index.js';
import type { Rect } from '../felt/felt-layout.js';
import { Button } from '../ui/button.js';
import { Panel } from './panel.js';

/** Help: the game's rules and its pay table in the player's language, with the table's limits. */
export class HelpPanel extends Panel {
  private page: 'rules' | 'pays' = 'rules';
  private readonly body: ReturnType<Panel['block']>;
  private readonly rules: Button;
  private readonly pays: Button;
  private state: StationState | null = null;
  private t: TFunction | null = null;

  constructor(area: Rect, onClose: () => void) {
    super(area, 'help-close', onClose);
    this.body = this.block(area.x + 30, area.y + 90, area.width - 60, 27);
    const y = area.y + area.height - 124;
    this.rules = new Button('help-rules', 260, 100, () => this.show('rules'));
    this.pays = new Button('help-pays', 260, 100, () => this.show('pays'));
    this.rules.position.set(area.x + 30, y);
    this.pays.position.set(area.x + 310, y);
    this.addChild(this.rules, this.pays);
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

  private show(page: 'rules' | 'pays'): void {
    this.page = page;
    this.draw();
  }

  private draw(): void {
    const s = this.state;
    const t = this.t;
    if (!s || !t) return;
    this.heading.text = `${t('help.title')} · ${t(`game.${s.game}`)}`;
    this.closeButton.setLabel(t('recall.close'));
    this.rules.setLabel(t('help.rules'));
    this.pays.setLabel(t('help.pays'));
    this.rules.setActive(this.page === 'rules');
    this.pays.setActive(this.page === 'pays');
    const limits = t('table.limits', { min: s.limits.min, max: s.limits.max, currency: s.currency });
    // The pay table is the active profile's own (host/screens/pay-table.ts), each line with its rule.
    const pays = this.page === 'pays' && s.payTable?.length
      ? s.payTable.map((l) => t('help.line', { item: t(`help.item.${l.item}`), pays: l.pays, rule: l.rule })).join('\n')
      : t(`help.${s.game}.${this.page}`);
    this.body.text = `${pays}\n\n${limits}`;
  }
}
