import type { Card } from '../../cards/card.js';
import { odds, payLine } from '../../table/pay-line.js';
import { articleOf, type Citation } from './citation.js';
import { firstCardsBet } from './entry.js';

/** «Setes» pays 50, 150, 500, 5000 to 1 (Art. 14 n.2). */
export const SEVENS_PAYS = { two: 50, twoSuited: 150, three: 500, threeSuited: 5000 } as const;
export type SevensKind = keyof typeof SEVENS_PAYS;

const SEVENS: Citation = { articles: ['art.13 2), art.14 n.2', 'art.13 2), art.14 n.2', null], options: ['sevens', 'oneSideBetPerPlayer'] };

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

/** Sevens (Macau 2009 and 2004 Art. 13 2)); a station may place it on any seat's hand. */
export const sevens = firstCardsBet({
  id: 'sevens',
  kind: 'additional',
  onVoid: 'returned',
  family: 'first-cards',
  settleOrder: 2,
  onOtherSeats: '2)',
  onOtherSeatsByReading: true,
  offered: (r) => r.sevens,
  payLines: (r) => {
    const rule = articleOf(r.profile, SEVENS.articles);
    return [
      payLine('sevensTwo', odds(SEVENS_PAYS.two, 1), rule, true),
      payLine('sevensTwoSuited', odds(SEVENS_PAYS.twoSuited, 1), rule, true),
      payLine('sevensThree', odds(SEVENS_PAYS.three, 1), rule, true),
      payLine('sevensThreeSuited', odds(SEVENS_PAYS.threeSuited, 1), rule, true),
    ];
  },
  settle: (c, stake) => {
    const kind = sevensKind(c.first, c.second, c.afterSplit);
    return [{ hand: 0, stake, net: kind ? SEVENS_PAYS[kind] * stake : -stake, citation: SEVENS }];
  },
  // With the third 7 counted as if the player always splits 7-7, the bettor's best play for this
  // bet (`sevensNoSplitEdge`: two 7s only). The third seven is the next card of the shoe we know
  // nothing else about (the dealer's cards in between are unseen): by exchangeability any of the N-2.
  exact: (decks) => -sevensMoments(decks).ev * 100,
});

/**
 * The sevens' outcome distribution as its figure counts it (the third 7 as if the player always
 * splits 7-7): the expected result per unit staked and its second moment E[X²].
 */
export function sevensMoments(decks: number): { ev: number; square: number } {
  const { twoSuited, twoMixed, N } = twoSevens(decks);
  const thirdSeven = (4 * decks - 2) / (N - 2);
  const thirdSuitedGivenSuited = (decks - 2) / (N - 2);
  const threeSuited = twoSuited * Math.max(0, thirdSuitedGivenSuited);
  const three = twoSuited * (thirdSeven - Math.max(0, thirdSuitedGivenSuited)) + twoMixed * thirdSeven;
  const twoSuitedOnly = twoSuited - twoSuited * thirdSeven;
  const twoMixedOnly = twoMixed * (1 - thirdSeven);
  const win = threeSuited + three + twoSuitedOnly + twoMixedOnly;
  const ev =
    SEVENS_PAYS.threeSuited * threeSuited + SEVENS_PAYS.three * three + SEVENS_PAYS.twoSuited * twoSuitedOnly + SEVENS_PAYS.two * twoMixedOnly - (1 - win);
  const square =
    SEVENS_PAYS.threeSuited ** 2 * threeSuited +
    SEVENS_PAYS.three ** 2 * three +
    SEVENS_PAYS.twoSuited ** 2 * twoSuitedOnly +
    SEVENS_PAYS.two ** 2 * twoMixedOnly +
    (1 - win);
  return { ev, square };
}

function twoSevens(decks: number): { twoSuited: number; twoMixed: number; N: number } {
  const N = 52 * decks;
  const p7 = (4 * decks) / N;
  return { twoSuited: p7 * ((decks - 1) / (N - 1)), twoMixed: p7 * ((3 * decks) / (N - 1)), N };
}

/** The sevens' edge counting two 7s only (a bettor who never splits 7-7). */
export function sevensNoSplitEdge(decks: number): number {
  const { twoSuited, twoMixed } = twoSevens(decks);
  return -(SEVENS_PAYS.twoSuited * twoSuited + SEVENS_PAYS.two * twoMixed - (1 - twoSuited - twoMixed)) * 100;
}
