/**
 * One line of a settlement: who, which bet, how much was staked, the player's net result in
 * minor units (+ win, − loss, 0 push) and the rule that decided it, e.g. `macau-2009 art.10 n.5`,
 * so a dispute can be answered from the record.
 */
export interface SettlementLine {
  readonly seat: number;
  /** The bet's name: `main`, `insurance`, `perfectPairs`, `banker`, `tie`, … */
  readonly bet: string;
  /** The hand within the seat (blackjack splits); absent where a game has one hand per seat. */
  readonly hand?: number;
  readonly stake: number;
  readonly net: number;
  readonly rule: string;
  /**
   * The non-default choices the line was settled under, `option=value` (an authorised alternative,
   * a waiver, a reading awaiting the regulator): absent when the line is the text's own default.
   */
  readonly choices?: readonly string[];
  /** The authorisation reference of those choices, when the table has one. */
  readonly authorisation?: string;
}

/** Integer minor units only: a fractional or unsafe amount is a bug, never rounded silently. */
export function assertMinorUnits(amount: number, what: string): void {
  if (!Number.isSafeInteger(amount)) throw new RangeError(`${what} must be whole minor units, got ${amount}`);
}
