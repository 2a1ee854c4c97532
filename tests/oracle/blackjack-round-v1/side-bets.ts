import { isRed, type Card } from '../../../engine/cards/card.js';
import { rankValue } from '../../../engine/blackjack/hand.js';

/**
 * Pay tables of the additional bets (Macau 2009 Art. 14; 2004 Art. 14 n.1–3), as "X to 1":
 * a winning bet of stake s nets s × X.
 */
export const ANY_PAIR_PAYS = 11;
export const SEVENS_PAYS = { two: 50, twoSuited: 150, three: 500, threeSuited: 5000 } as const;
export const OVER_UNDER_PAYS = 1;
export const PERFECT_PAIRS_PAYS = { mixed: 5, coloured: 12, perfect: 25 } as const;
/** Winning streak of 2, 3, 4, 5 rounds pays 3, 8, 18, 38 to 1 (Art. 14 n.5). */
export const STREAK_PAYS: Readonly<Record<StreakLevel, number>> = { 2: 3, 3: 8, 4: 18, 5: 38 };
export const STREAK_LEVELS = [2, 3, 4, 5] as const;
export type StreakLevel = (typeof STREAK_LEVELS)[number];

/** A pair for the any-pair and perfect-pairs bets is two cards of the same rank: J-J yes, J-Q no (Art. 13 1)(1)). */
export function isRankPair(a: Card, b: Card): boolean {
  return a.rank === b.rank;
}

export type PerfectPairKind = 'mixed' | 'coloured' | 'perfect';

/** Art. 13 4): mixed (any colours), coloured (same colour, other suit), perfect (same suit). */
export function perfectPairKind(a: Card, b: Card): PerfectPairKind | undefined {
  if (a.rank !== b.rank) return undefined;
  if (a.suit === b.suit) return 'perfect';
  if (isRed(a) === isRed(b)) return 'coloured';
  return 'mixed';
}

export type SevensKind = keyof typeof SEVENS_PAYS;

/**
 * Art. 13 2), Art. 14 n.2: two 7s as the first two cards, and a third 7 as the next card dealt
 * after those two are split; only the biggest combination pays. "Suited" means every 7 of one suit.
 */
export function sevensKind(first: Card, second: Card, third?: Card): SevensKind | undefined {
  if (first.rank !== '7' || second.rank !== '7') return undefined;
  const twoSuited = first.suit === second.suit;
  if (third?.rank === '7') return twoSuited && third.suit === first.suit ? 'threeSuited' : 'three';
  return twoSuited ? 'twoSuited' : 'two';
}

/** Art. 13 3): the first two cards' total; 13 loses both sides. */
export function overUnderTotal(a: Card, b: Card, aceValue: number): number {
  const v = (c: Card): number => (c.rank === 'A' ? aceValue : rankValue(c.rank));
  return v(a) + v(b);
}
