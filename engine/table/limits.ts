import type { LimitRules } from './game.js';
import type { Limits, TableParams } from './state.js';

/** What the table's limits and seats are checked against: the configuration, as the table params carry it, and the seats. */
export interface LimitsToCheck {
  readonly limits: Limits;
  readonly betLimits: TableParams['betLimits'];
  readonly seats: number;
  readonly roundMax?: number | undefined;
}

/** One way a table's limits or seats break what its text fixes: which, the rule, and the figures (amounts in minor units). */
export type LimitBreak =
  | { readonly kind: 'seats'; readonly rule: string; readonly seats: number; readonly has: number }
  | {
      readonly kind: 'spread';
      readonly what: 'table' | 'main' | 'behind';
      readonly rule: string;
      readonly max: number;
      readonly min: number;
      readonly times: number;
    }
  | { readonly kind: 'round-max'; readonly roundMax: number; readonly min: number };

/**
 * How a table's limits or seats break what its text fixes, each naming the rule; empty when they
 * keep to it. Checked at start and on every configuration change, so that a table never plays
 * under limits the text forbids.
 */
export function limitBreaks(rules: LimitRules, c: LimitsToCheck): LimitBreak[] {
  const out: LimitBreak[] = [];
  if (rules.minSeats && c.seats < rules.minSeats.seats) out.push({ kind: 'seats', rule: rules.minSeats.rule, seats: rules.minSeats.seats, has: c.seats });
  const spread = rules.maxTimesMinimum;
  if (spread) {
    const named: ['table' | 'main' | 'behind', Limits | undefined][] = [
      ['table', c.limits],
      ['main', c.betLimits.main],
      ['behind', c.betLimits.behind],
    ];
    for (const [what, l] of named) {
      if (l && l.max > spread.times * l.min) out.push({ kind: 'spread', what, rule: spread.rule, max: l.max, min: l.min, times: spread.times });
    }
  }
  // A cap on the table's total per round is the operator's (Macau 2009 names it, Art. 5 n.2 3)(8)); it must admit one minimum bet.
  if (c.roundMax !== undefined && c.roundMax < c.limits.min) out.push({ kind: 'round-max', roundMax: c.roundMax, min: c.limits.min });
  return out;
}

const SPREAD_WHAT = { table: 'the table', main: 'the main bet', behind: 'a bet behind' } as const;

/**
 * `limitBreaks` one sentence each, in English: what the configuration file's check and the start
 * say to the technician who wrote the file (a screen says a break by its key: host/config/refusal-words.ts).
 */
export function limitProblems(rules: LimitRules, c: LimitsToCheck): string[] {
  return limitBreaks(rules, c).map((b) =>
    b.kind === 'seats'
      ? `the table needs ${b.seats} or more seats (${b.rule}); it has ${b.has}`
      : b.kind === 'spread'
        ? `the maximum of ${SPREAD_WHAT[b.what]} (${b.max}) is more than ${b.times} times its minimum (${b.min}) (${b.rule})`
        : `the table maximum per round (${b.roundMax}) is below the table minimum (${b.min})`,
  );
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
