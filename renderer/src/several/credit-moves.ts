import type { TFunction } from 'i18next';
import { Container } from 'pixi.js';
import type { CommandBody, StationState } from '../../../protocol/index.js';
import { formatMoney } from '../../../locales/money.js';
import { SIDE, SIDE_THIRD } from '../station/station-screen.js';
import { Button } from '../ui/button.js';
import { TOUCH } from '../ui/theme.js';
import { defaultMove, moveAmounts, stepMove } from './move-amounts.js';
import { MoveConfirm, type MoveCommand } from './move-confirm.js';

/** What the screen of several tables does for the moves: the time, and the question said where the player pressed. */
export interface MoveAsk {
  now(): number;
  /** A winning-streak stake `amount` stays held at the table the credit leaves: said for the confirmation's window. */
  ask(via: MoveCommand['name'], amount: number): void;
}

/**
 * At a focus table that is not the station's home, in the cash-out's row of its screen: leave
 * the table (`leave-table` to its host, which sends what is left here home) where the cash-out
 * is at home, and move credit here from home (`move-credit` to the home host, which journals the
 * debit before it answers; the credit shows here only when this table's host says it has it).
 * The player chooses how much with − and + (between the two): the table's chips
 * in their 1-2-5 steps, up to what home holds (move-amounts.ts). What home holds is what the home
 * host last said. Nothing is shown moved before a host says so; a refusal is the host's, worded
 * in the player's language where the player pressed. With a winning-streak stake held at the
 * table the credit leaves, the press first says so and the second sends it acknowledged
 * (move-confirm.ts, as the cash-out: docs/rules/blackjack.md).
 */
export class CreditMoves extends Container {
  private readonly move: Button;
  private readonly leave: Button;
  private readonly less: Button;
  private readonly more: Button;
  private amounts: number[] = [];
  private amount = 0;
  private to = '';
  private redraw: () => void = () => undefined;
  private confirm = new MoveConfirm();
  /** The focus table `confirm` was made at: its question is that table's. */
  private confirmAt = '';
  private views: { home: StationState | null; focus: StationState | null } = { home: null, focus: null };

  constructor(
    toHome: (c: CommandBody) => void,
    toFocus: (c: CommandBody) => void,
    private readonly asks: MoveAsk,
  ) {
    super();
    const press = (command: MoveCommand, to: (c: CommandBody) => void) => {
      const r = this.confirm.press(command, this.views, asks.now());
      if (r.kind === 'send') to(r.command);
      else asks.ask(r.via, r.amount);
      this.redraw();
    };
    this.leave = new Button('leave-table', SIDE_THIRD, 108, () => press({ name: 'leave-table' }, toFocus));
    this.leave.position.set(SIDE.x, SIDE.row2);
    // In the cash-out's row: leave, − and + (touch-sized), then the move with its amount to the row's end.
    const stepX = SIDE.x + SIDE_THIRD + 16;
    const moveX = stepX + 2 * (TOUCH.min + 8);
    this.move = new Button('move-credit', SIDE.x + SIDE.width - moveX, 108, () => {
      if (this.amount > 0) press({ name: 'move-credit', to: this.to, amount: this.amount }, toHome);
    });
    this.move.position.set(moveX, SIDE.row2);
    const step = (by: -1 | 1) => () => {
      this.amount = stepMove(this.amounts, this.amount, by);
      this.redraw();
    };
    this.less = new Button('move-less', TOUCH.min, TOUCH.min, step(-1));
    this.more = new Button('move-more', TOUCH.min, TOUCH.min, step(1));
    this.less.position.set(stepX, SIDE.row2 + 2);
    this.more.position.set(stepX + TOUCH.min + 8, SIDE.row2 + 2);
    this.addChild(this.leave, this.move, this.less, this.more);
  }

  show(focusIsHome: boolean, focusTable: string, focus: StationState | null, home: StationState | null, t: TFunction): void {
    this.visible = !focusIsHome && focus !== null;
    this.views = { home, focus };
    // What was said was about the table then in focus (its leaving, the move to it): at every
    // change of focus, home's included, the question is let go before the label reads it, so the
    // button says "press again" only where the press sends (a review of 1 December: it read the
    // previous table's question, and the press there asked afresh).
    if (this.confirmAt !== focusTable) {
      this.confirm = new MoveConfirm();
      this.confirmAt = focusTable;
    }
    // Asked before the early return: a window over is let go even while the moves are not shown.
    const armed = this.confirm.armed(this.views, this.asks.now());
    if (!focus || focusIsHome) return;
    if (this.to !== focusTable) this.amount = 0;
    this.to = focusTable;
    this.redraw = () => this.show(focusIsHome, focusTable, focus, home, t);
    this.amounts = home === null ? [] : moveAmounts(focus.limits.min, home.credit);
    // The amount chosen stays while home holds it; else (first shown, or home's credit changed) the nearest step.
    if (!this.amounts.includes(this.amount))
      this.amount = (this.amount > 0 ? this.amounts.filter((a) => a <= this.amount).at(-1) : undefined) ?? defaultMove(this.amounts, focus.limits.min);
    const shown = this.amount > 0 ? this.amount : focus.limits.min;
    this.move.setLabel(t('several.move'), formatMoney(shown, focus.currency, focus.language));
    // The home host decides; this only spares a press it would refuse (under the table's minimum, or nothing at home).
    this.move.setEnabled(this.amount >= focus.limits.min);
    // Baccarat's screen has its roads button where − and + go: there the move is the amount first offered.
    this.less.visible = this.more.visible = focus.game !== 'baccarat';
    this.less.setLabel(t('several.less'));
    this.more.setLabel(t('several.more'));
    this.less.setEnabled(this.amounts.indexOf(this.amount) > 0);
    this.more.setEnabled(this.amounts.indexOf(this.amount) < this.amounts.length - 1);
    this.leave.setLabel(t('several.leave'));
    this.leave.setEnabled(focus.betting.bets.length === 0 && focus.decision === null);
    if (armed) (armed === 'leave-table' ? this.leave : this.move).setLabel(t('several.again'));
  }

  /** When the confirming press is no longer taken (−Infinity: none awaited): the screen redraws the buttons then. */
  get confirmEndsAt(): number {
    return this.confirm.endsAt;
  }
}
