import type { RefKey } from './refs.js';
import type { BlackjackRules, OptionKey } from '../../../engine/blackjack/rules.js';

/** The options that shape the dealer's final hand, which every line settled against it depends on. */
const DEALER: readonly OptionKey[] = ['dealerSoft17', 'dealProcedure', 'holeCard'];

/**
 * The options that decide a line of each kind: the rule the line quotes, and what made the hand
 * it is settled against. A line made while one of them is not the profile's default carries it.
 */
const BY_KEY: Readonly<Record<RefKey, readonly OptionKey[]>> = {
  bust: [],
  dealerDraws: [],
  win: DEALER,
  lose: DEALER,
  dealerBust: DEALER,
  win21DealerBust: DEALER,
  push: DEALER,
  blackjackPush: DEALER,
  blackjack: ['blackjackPays', ...DEALER],
  blackjackVs21: ['blackjackPays', ...DEALER],
  win21: DEALER,
  split21: DEALER,
  split21DealerBust: DEALER,
  dealerBlackjackBeats21: DEALER,
  dealerBlackjack: DEALER,
  dealerBlackjackAtPeek: DEALER,
  splitOriginalOnly: ['dealerBlackjackTakes', ...DEALER],
  doubleOriginalOnly: ['dealerBlackjackTakes', 'doubleOn', ...DEALER],
  doubleOnElevenOriginalOnly: ['dealerBlackjackTakes', 'doubleOn', 'elevenDoubleOriginalOnly', ...DEALER],
  evenMoney: ['evenMoney'],
  insuranceWin: ['insuranceMax', 'insuranceMin', ...DEALER],
  insuranceWinAtPeek: ['insuranceMax', 'insuranceMin', ...DEALER],
  insuranceLose: ['insuranceMax', 'insuranceMin', ...DEALER],
  surrender: ['surrender', 'surrenderMoment'],
  fiveCard: ['fiveCardHalfPay'],
  special678: ['bonus678'],
  anyPair: ['anyPair', 'oneSideBetPerPlayer'],
  anyPairSplit: ['anyPair', 'oneSideBetPerPlayer', 'splitPairsBy'],
  sevens: ['sevens', 'oneSideBetPerPlayer'],
  overUnder: ['overUnder13', 'overUnderAceValue', 'oneSideBetPerPlayer'],
  perfectPairs: ['perfectPairs', 'oneSideBetPerPlayer'],
  streakWin: ['winningStreak'],
  streakSplitWin: ['winningStreak'],
  streakSplitWinByReading: ['winningStreak'],
  streakLose: ['winningStreak'],
  streakSurrender: ['winningStreak', 'surrender', 'surrenderMoment'],
  streakSplitLose: ['winningStreak'],
  streakAbsent: ['winningStreak'],
  jackpot: ['jackpot', 'jackpotCards', 'jackpotSplitCards'],
  jackpotAward: ['jackpot', 'jackpotCards', 'jackpotSplitCards'],
  jackpotShared: ['jackpot', 'jackpotCards', 'jackpotSplitCards'],
};

/** What else the line's hand went through: a double, a split, a bet behind, one that stayed out of a double or split. */
export interface LineContext {
  readonly doubled?: boolean;
  readonly fromSplit?: boolean;
  readonly behind?: boolean;
  readonly stayedOut?: boolean;
}

/** The marks a settlement line carries: its non-default choices and the table's authorisation reference. */
export interface LineMarks {
  readonly choices?: readonly string[];
  readonly authorisation?: string;
}

/**
 * The non-default choices a line of kind `key` was settled under (`option=value`, in the option
 * table's order), with the authorisation reference; nothing for a line the text's defaults decided.
 */
export function lineChoices(rules: BlackjackRules, key: RefKey, ctx: LineContext = {}): LineMarks {
  const keys = new Set<OptionKey>(BY_KEY[key]);
  if (ctx.doubled) for (const k of ['doubleOn', 'softDoubleAceLocked'] as const) keys.add(k);
  if (ctx.doubled && ctx.fromSplit) keys.add('doubleAfterSplit');
  if (ctx.fromSplit) for (const k of ['maxHands', 'resplit', 'resplitAces', 'splitPairsBy'] as const) keys.add(k);
  if (ctx.behind) for (const k of ['betBehind', 'behindFollows', 'maxBettorsPerSeat'] as const) keys.add(k);
  if (ctx.stayedOut) keys.add('behindShortOfCredit');
  const choices = Object.entries(rules.choices)
    .filter(([k]) => keys.has(k as OptionKey))
    .map(([, marker]) => marker)
    .filter((m): m is string => typeof m === 'string');
  if (choices.length === 0) return {};
  return { choices, ...(rules.authorisation ? { authorisation: rules.authorisation } : {}) };
}
