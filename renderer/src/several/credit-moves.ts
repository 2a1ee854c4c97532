import type { TFunction } from 'i18next';
import { Container } from 'pixi.js';
import type { CommandBody, StationState } from '../../../protocol/index.js';
import { formatMoney } from '../../../locales/money.js';
import { SIDE, SIDE_THIRD } from '../screens/station-screen.js';
import { Button } from '../ui/button.js';

/** How much one press moves: this many of the focus table's minimum bets (or what home holds, if less). */
const MINIMUMS_PER_MOVE = 5;

/**
 * At a focus table that is not the station's home, in the cash-out's row of its screen: leave
 * the table (`leave-table` to its host, which sends what is left here home) where the cash-out
 * is at home, and move credit here from home (`move-credit` to the home host, which journals the
 * debit before it answers; the credit shows here only when this table's host says it has it).
 * What home holds is what the home host last said. Nothing is shown moved before a host says so.
 */
export class CreditMoves extends Container {
  private readonly move: Button;
  private readonly leave: Button;
  private amount = 0;
  private to = '';

  constructor(toHome: (c: CommandBody) => void, toFocus: (c: CommandBody) => void) {
    super();
    this.leave = new Button('leave-table', SIDE_THIRD, 108, () => toFocus({ name: 'leave-table' }));
    this.leave.position.set(SIDE.x, SIDE.row2);
    this.move = new Button('move-credit', SIDE_THIRD, 108, () => {
      if (this.amount > 0) toHome({ name: 'move-credit', to: this.to, amount: this.amount });
    });
    this.move.position.set(SIDE.x + 2 * (SIDE_THIRD + 16), SIDE.row2);
    this.addChild(this.leave, this.move);
  }

  show(focusIsHome: boolean, focusTable: string, focus: StationState | null, home: StationState | null, t: TFunction): void {
    this.visible = !focusIsHome && focus !== null;
    if (!focus || focusIsHome) return;
    this.to = focusTable;
    const wanted = MINIMUMS_PER_MOVE * focus.limits.min;
    this.amount = home === null ? 0 : Math.min(wanted, home.credit);
    this.move.setLabel(t('several.move'), formatMoney(this.amount > 0 ? this.amount : wanted, focus.currency, focus.language));
    // The home host decides; this only spares a press it would refuse (under the table's minimum, or nothing at home).
    this.move.setEnabled(this.amount >= focus.limits.min);
    this.leave.setLabel(t('several.leave'));
    this.leave.setEnabled(focus.betting.bets.length === 0 && focus.decision === null);
  }
}
