import type { BlackjackRules } from './rules.js';
import { ANY_PAIR_PAYS, PERFECT_PAIRS_PAYS, SEVENS_PAYS } from './side-bets.js';

/**
 * The simulator's cards are integers 0..51, rank * 4 + suit (ranks A, 2 … K as 0 … 12; suits in
 * `SUITS` order, so 1 and 2 are the red ones). This file holds what the simulator reads from a
 * card id: its blackjack value, and the side bets settled by the first two cards, as tables.
 */

/** Blackjack value by card id, the ace as 1. */
export const CARD_VALUE: Uint8Array = Uint8Array.from({ length: 52 }, (_, id) => {
  const rank = id >> 2;
  return rank === 0 ? 1 : rank >= 9 ? 10 : rank + 1;
});

export const SEVEN_RANK = 6;

/** The side bets settled by the player's first two cards, in `SIM_SIDE_BETS` order. */
export const FIRST_TWO_BETS = 5;

/**
 * Result per unit of each first-two-card side bet, by `(first * 52 + second) * FIRST_TWO_BETS + bet`:
 * any pair (Art. 13 1)), sevens with two cards (13 2); a third seven after a split is added later),
 * over 13, under 13 (13 3)), perfect pairs (13 4)). Bets the rules do not offer stay 0.
 */
export function firstTwoCardTable(rules: BlackjackRules): Int16Array {
  // Whole-number results: 16-bit entries keep the table (27 kB) within the first-level cache.
  const out = new Int16Array(52 * 52 * FIRST_TWO_BETS);
  const put = (at: number, pays: number): void => {
    if (!Number.isInteger(pays) || Math.abs(pays) > 0x7fff) throw new RangeError(`side-bet result ${pays} does not fit the 16-bit table`);
    out[at] = pays;
  };
  const red = (id: number): boolean => (id & 3) === 1 || (id & 3) === 2;
  const aceAs = (id: number): number => (id >> 2 === 0 ? rules.overUnderAceValue : (CARD_VALUE[id] as number));
  for (let a = 0; a < 52; a++) {
    for (let b = 0; b < 52; b++) {
      const at = (a * 52 + b) * FIRST_TWO_BETS;
      const sameRank = a >> 2 === b >> 2;
      const sameSuit = (a & 3) === (b & 3);
      if (rules.anyPair) put(at, sameRank ? ANY_PAIR_PAYS : -1);
      if (rules.sevens) put(at + 1, a >> 2 === SEVEN_RANK && b >> 2 === SEVEN_RANK ? (sameSuit ? SEVENS_PAYS.twoSuited : SEVENS_PAYS.two) : -1);
      if (rules.overUnder13) {
        const t = aceAs(a) + aceAs(b);
        put(at + 2, t > 13 ? 1 : -1);
        put(at + 3, t < 13 ? 1 : -1);
      }
      if (rules.perfectPairs) {
        put(at + 4, !sameRank ? -1 : sameSuit ? PERFECT_PAIRS_PAYS.perfect : red(a) === red(b) ? PERFECT_PAIRS_PAYS.coloured : PERFECT_PAIRS_PAYS.mixed);
      }
    }
  }
  return out;
}

/** 6-7-8 of one suit or three 7s (Macau Art. 15; rule 35), as the ids of a three-card hand. */
export function isSpecial678Ids(a: number, b: number, c: number): boolean {
  // The ranks as a bit set (ranks 5, 6, 7 are the 6, 7, 8): few branches, none rarely taken.
  const ranks = (1 << (a >> 2)) | (1 << (b >> 2)) | (1 << (c >> 2));
  if (ranks === 1 << SEVEN_RANK) return true;
  return ranks === 0b11100000 && ((a ^ b) & 3) === 0 && ((b ^ c) & 3) === 0;
}
