import type { BetId } from '../../table/vocabulary.js';
import type { BlackjackRules } from '../rules.js';
import { anyPair } from './any-pair.js';
import type { BlackjackBetEntry, FirstCardsBet } from './entry.js';
import { jackpot } from './jackpot.js';
import { main } from './main.js';
import { over13, under13 } from './over-under.js';
import { perfectPairs } from './perfect-pairs.js';
import { sevens } from './sevens.js';
import { streak2, streak3, streak4, streak5 } from './streak.js';

/**
 * Blackjack's bets, one entry each (engine/blackjack/bets/entry.ts), in the order their spots
 * are shown. Everything that knows a bet reads it here: the spots a table offers, the help's pay
 * table, which bets a station may place on another seat's hand, the one-additional-bet rule, what
 * a win celebrates, the round's validation, settlement and void, the simulator and the exact
 * calculator. A new bet is one module and one line here (docs/architecture.md, "Adding a bet type").
 */
export const BLACKJACK_CATALOGUE = [main, anyPair, perfectPairs, sevens, over13, under13, streak2, streak3, streak4, streak5, jackpot] as const;

/** Every blackjack bet id. */
export type BlackjackBet = (typeof BLACKJACK_CATALOGUE)[number]['id'];
/** The bets decided by the first cards (settled from `FirstCardsBet.settle`). */
export type FirstCardsBetId = Extract<(typeof BLACKJACK_CATALOGUE)[number], { readonly family: 'first-cards' }>['id'];

/** A catalogue's bets of the first cards, in the order they are settled and journalled. */
export function firstCardsBets(catalogue: readonly BlackjackBetEntry[]): FirstCardsBet[] {
  return catalogue.flatMap((b) => (b.family === 'first-cards' ? [b] : [])).sort((a, b) => a.settleOrder - b.settleOrder);
}

/** The additional bets a station may place on another seat's hand under these rules, and the subparagraphs of Art. 13 that let it. */
export function onOtherSeatsOf(
  catalogue: readonly BlackjackBetEntry[],
  rules: BlackjackRules,
): { bets: BetId[]; subparagraphs: string[]; byReading: string[] } {
  const offered = catalogue.filter((b) => b.onOtherSeats !== undefined && b.offered(rules));
  const of = (reading: boolean) => [
    ...new Set(offered.flatMap((b) => (b.onOtherSeats !== undefined && (b.onOtherSeatsByReading === true) === reading ? [b.onOtherSeats] : []))),
  ];
  return { bets: offered.map((b) => b.id), subparagraphs: of(false), byReading: of(true) };
}
