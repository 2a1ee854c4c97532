import type { LimitRules } from './game.js';
import type { Limits, TableParams } from './state.js';

/** What the table's limits and seats are checked against: the configuration, as the table params carry it, and the seats. */
export interface LimitsToCheck {
  readonly limits: Limits;
  readonly betLimits: TableParams['betLimits'];
  readonly seats: number;
  readonly roundMax?: number | undefined;
}

/**
 * Why a table's limits or seats break what its text fixes, one sentence each naming the rule;
 * empty when they keep to it. Checked at start and on every configuration change, so that a
 * table never plays under limits the text forbids.
 */
export function limitProblems(rules: LimitRules, c: LimitsToCheck): string[] {
  const out: string[] = [];
  if (rules.minSeats && c.seats < rules.minSeats.seats) {
    out.push(`the table needs ${rules.minSeats.seats} or more seats (${rules.minSeats.rule}); it has ${c.seats}`);
  }
  const spread = rules.maxTimesMinimum;
  if (spread) {
    const named: [string, Limits | undefined][] = [
      ['the table', c.limits],
      ['the main bet', c.betLimits.main],
      ['a bet behind', c.betLimits.behind],
    ];
    for (const [what, l] of named) {
      if (l && l.max > spread.times * l.min) {
        out.push(`the maximum of ${what} (${l.max}) is more than ${spread.times} times its minimum (${l.min}) (${spread.rule})`);
      }
    }
  }
  // A cap on the table's total per round is the operator's (Macau 2009 names it, Art. 5 n.2 (3)(8)); it must admit one minimum bet.
  if (c.roundMax !== undefined && c.roundMax < c.limits.min) {
    out.push(`the table maximum per round (${c.roundMax}) is below the table minimum (${c.limits.min})`);
  }
  return out;
}

/**
 * The table's parameters with a one-chip bet's limits set to the chip (Portugal rule 47), whatever
 * the configuration gave: a table configured without that line (or with another) would otherwise
 * take any amount the table's limits allow, which the round then refuses at the close of betting.
 */
export function withChipLimits(params: TableParams, rules: LimitRules): TableParams {
  const chip = rules.oneChip;
  if (!chip) return params;
  const l = params.betLimits[chip.bet];
  if (l && l.min === chip.amount && l.max === chip.amount) return params;
  return { ...params, betLimits: { ...params.betLimits, [chip.bet]: { min: chip.amount, max: chip.amount } } };
}
