import { RANKS, SUITS, type Card } from '../cards/card.js';
import { BLACKJACK_CATALOGUE } from './bets/catalogue.js';
import type { BlackjackBetEntry, FirstCardsBet } from './bets/entry.js';
import { sevensMoments, sevensNoSplitEdge } from './bets/sevens.js';
import { resolveRules, type BlackjackRules } from './rules.js';

/**
 * Exact expected values of the additional bets decided by a hand's first two cards (Macau 2009
 * Art. 13–14), for a full shoe of `decks` decks, from the bet catalogue. Results are the house
 * edge in percent of the stake (positive = house advantage). Each bet's published closed form
 * where it states one (engine/blackjack/bets/), else every first two cards enumerated through its
 * own settlement (`enumeratedEdge`), so a new bet has its figure with no code of its own:
 *
 * - any pair: the first two cards only (pairs formed later by splits, Art. 13 1)(2), pay more
 *   and are not in this figure; the simulator counts them);
 * - sevens: with the third 7 (Art. 13 2)(2)) counted as if the player always splits 7-7, the
 *   bettor's best play for this bet; `sevensNoSplit` counts two 7s only;
 * - over/under 13 with the ace counted `aceValue` (1 by default).
 */
export type ExactSideBets = Readonly<Record<string, number>>;

export function exactSideBetEdges(decks: number, aceValue = 1, catalogue: readonly BlackjackBetEntry[] = BLACKJACK_CATALOGUE): ExactSideBets {
  if (!Number.isInteger(decks) || decks < 1) throw new RangeError(`decks must be a positive integer, got ${decks}`);
  // The analysis profile with the shoe's decks and the ace's value: all a bet of the first cards reads.
  const rules: BlackjackRules = { ...resolveRules('generic'), decks, overUnderAceValue: aceValue };
  const out: Record<string, number> = {};
  // In the catalogue's (the spots') order, as the figures are printed.
  for (const bet of catalogue) {
    if (bet.family !== 'first-cards') continue;
    out[bet.id] = bet.exact ? bet.exact(decks, rules) : enumeratedEdge(bet, decks, rules);
    if (bet.id === 'sevens') out.sevensNoSplit = sevensNoSplitEdge(decks);
  }
  return out;
}

const DECK: readonly Card[] = RANKS.flatMap((rank) => SUITS.map((suit) => ({ rank, suit })));

/**
 * A bet of the first cards' house edge by enumeration: every ordered pair of cards off a full shoe
 * (each card `decks` times, the second drawn from the rest), settled for a stake of one unit with
 * no split. Exact up to floating-point addition.
 */
export function enumeratedEdge(bet: FirstCardsBet, decks: number, rules: BlackjackRules): number {
  return -enumeratedMoments(bet, decks, rules).ev * 100;
}

/** A bet of the first cards' expected result per unit staked and its second moment E[X²], by the same enumeration. */
export function enumeratedMoments(bet: FirstCardsBet, decks: number, rules: BlackjackRules): { ev: number; square: number } {
  const n = 52 * decks;
  let ev = 0;
  let square = 0;
  for (const a of DECK) {
    for (const b of DECK) {
      const p = (decks / n) * ((decks - (a === b ? 1 : 0)) / (n - 1));
      if (p === 0) continue;
      const net = bet.settle({ first: a, second: b, splitPairs: [] }, 1, rules).reduce((t, l) => t + l.net, 0);
      ev += p * net;
      square += p * net * net;
    }
  }
  return { ev, square };
}

/**
 * The variance per unit staked (E[X²] − E[X]²) of each bet of the first cards, off a full shoe, over
 * the outcome distribution its edge is figured on (`exactSideBetEdges`): the sevens by its closed
 * form (the third 7 as if 7-7 is split), the others by enumerating every first two cards.
 */
export function exactSideBetVariances(decks: number, aceValue = 1, catalogue: readonly BlackjackBetEntry[] = BLACKJACK_CATALOGUE): ExactSideBets {
  if (!Number.isInteger(decks) || decks < 1) throw new RangeError(`decks must be a positive integer, got ${decks}`);
  const rules: BlackjackRules = { ...resolveRules('generic'), decks, overUnderAceValue: aceValue };
  const out: Record<string, number> = {};
  for (const bet of catalogue) {
    if (bet.family !== 'first-cards') continue;
    const m = bet.id === 'sevens' ? sevensMoments(decks) : enumeratedMoments(bet, decks, rules);
    out[bet.id] = m.square - m.ev * m.ev;
  }
  return out;
}
