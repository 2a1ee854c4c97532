import { RANKS, SUITS, type Card } from '../cards/card.js';
import { BLACKJACK_CATALOGUE, firstCardsBets } from './bets/catalogue.js';
import type { FirstCardsBet } from './bets/entry.js';
import type { BlackjackRules } from './rules.js';

/**
 * The simulator's cards are integers 0..51, rank * 4 + suit (ranks A, 2 … K as 0 … 12; suits in
 * `SUITS` order, so 1 and 2 are the red ones). This file holds what the simulator reads from a
 * card id: its blackjack value, its card, and the side bets settled by the first two cards, as tables.
 */

/** Blackjack value by card id, the ace as 1. */
export const CARD_VALUE: Uint8Array = Uint8Array.from({ length: 52 }, (_, id) => {
  const rank = id >> 2;
  return rank === 0 ? 1 : rank >= 9 ? 10 : rank + 1;
});

/** Value and ace by card id, for adding a card without a branch: the value in the low 4 bits, 16 for an ace. */
export const CARD_CODE: Uint8Array = Uint8Array.from(CARD_VALUE, (v) => v | (v === 1 ? 16 : 0));

/** 1 where two cards of these values (`a * 16 + b`, the ace as 1) are a Black Jack: an ace and a ten-value. */
export const NATURAL: Uint8Array = Uint8Array.from({ length: 11 * 16 }, (_, i) => {
  const a = i >> 4;
  const b = i & 15;
  return (a === 1 && b === 10) || (a === 10 && b === 1) ? 1 : 0;
});

/** A hand's total by `hard * 2 + ace` (hard sums up to 31): an ace counts 11 while that does not pass 21. */
export const SOFT_TOTAL: Uint8Array = Uint8Array.from({ length: 64 }, (_, i) => {
  const hard = i >> 1;
  return (i & 1) === 1 && hard + 10 <= 21 ? hard + 10 : hard;
});

/**
 * A standing hand's result against the dealer's, by `player total * 32 + dealer total`: 1 won
 * (the dealer busted, or the higher total), 0 tied, -1 lost.
 */
export const OUTCOME: Int8Array = Int8Array.from({ length: 32 * 32 }, (_, i) => {
  const p = i >> 5;
  const d = i & 31;
  return d > 21 || p > d ? 1 : p < d ? -1 : 0;
});

export const SEVEN_RANK = 6;

/** The catalogue's bets of the first cards, in the order they are settled: the simulator's first side bets. */
export const FIRST_TWO: readonly FirstCardsBet[] = firstCardsBets(BLACKJACK_CATALOGUE);
export const FIRST_TWO_BETS = FIRST_TWO.length;

/** The card of each id, for a bet's own settlement. */
export const CARD_OF_ID: readonly Card[] = Array.from({ length: 52 }, (_, id) => ({ rank: RANKS[id >> 2] ?? 'A', suit: SUITS[id & 3] ?? 'S' }));

/**
 * Result per unit of each first-two-card side bet, by `(first * 52 + second) * FIRST_TWO_BETS + bet`,
 * from each bet's own settlement (engine/blackjack/bets/) with no split: a third seven or a pair
 * formed again after a split is settled when the round splits (`FastBlackjack`). Bets the rules do
 * not offer stay 0.
 */
export function firstTwoCardTable(rules: BlackjackRules): Int16Array {
  // Whole-number results: 16-bit entries keep the table (27 kB) within the first-level cache.
  const out = new Int16Array(52 * 52 * FIRST_TWO_BETS);
  FIRST_TWO.forEach((bet, k) => {
    if (!bet.offered(rules)) return;
    for (let a = 0; a < 52; a++) {
      for (let b = 0; b < 52; b++) {
        const cards = { first: CARD_OF_ID[a] as Card, second: CARD_OF_ID[b] as Card, splitPairs: [] };
        const pays = bet.settle(cards, 1, rules).reduce((t, l) => t + l.net, 0);
        if (!Number.isInteger(pays) || Math.abs(pays) > 0x7fff) throw new RangeError(`side-bet result ${pays} does not fit the 16-bit table`);
        out[(a * 52 + b) * FIRST_TWO_BETS + k] = pays;
      }
    }
  });
  return out;
}

/** 6-7-8 of one suit or three 7s (Macau Art. 15; rule 35), as the ids of a three-card hand. */
export function isSpecial678Ids(a: number, b: number, c: number): boolean {
  // The ranks as a bit set (ranks 5, 6, 7 are the 6, 7, 8): few branches, none rarely taken.
  const ranks = (1 << (a >> 2)) | (1 << (b >> 2)) | (1 << (c >> 2));
  if (ranks === 1 << SEVEN_RANK) return true;
  return ranks === 0b11100000 && ((a ^ b) & 3) === 0 && ((b ^ c) & 3) === 0;
}
