import { isRed, type Card } from '../../cards/card.js';
import { odds, payLine } from '../../table/pay-line.js';
import { articleOf, type Citation } from './citation.js';
import { firstCardsBet } from './entry.js';

/** «Par Perfeito» pays 5, 12, 25 to 1 (Art. 14 n.4). */
export const PERFECT_PAIRS_PAYS = { mixed: 5, coloured: 12, perfect: 25 } as const;
export type PerfectPairKind = keyof typeof PERFECT_PAIRS_PAYS;

const PERFECT: Citation = { articles: ['art.13 4), art.14 n.4', null, null], options: ['perfectPairs', 'oneSideBetPerPlayer'] };

/** Art. 13 4): mixed (any colours), coloured (same colour, other suit), perfect (same suit). */
export function perfectPairKind(a: Card, b: Card): PerfectPairKind | undefined {
  if (a.rank !== b.rank) return undefined;
  if (a.suit === b.suit) return 'perfect';
  if (isRed(a) === isRed(b)) return 'coloured';
  return 'mixed';
}

/**
 * Perfect pairs (Macau 2009 Art. 13 4)): "da mão do jogador", so on the station's own seat only.
 * Needs DICJ authorisation (Art. 21 n.3).
 */
export const perfectPairs = firstCardsBet({
  id: 'perfectPairs',
  kind: 'additional',
  onVoid: 'returned',
  family: 'first-cards',
  settleOrder: 5,
  offered: (r) => r.perfectPairs,
  payLines: (r) => {
    const rule = articleOf(r.profile, PERFECT.articles);
    return [
      payLine('perfectPairMixed', odds(PERFECT_PAIRS_PAYS.mixed, 1), rule, true),
      payLine('perfectPairColoured', odds(PERFECT_PAIRS_PAYS.coloured, 1), rule, true),
      payLine('perfectPairPerfect', odds(PERFECT_PAIRS_PAYS.perfect, 1), rule, true),
    ];
  },
  settle: (c, stake) => {
    const kind = perfectPairKind(c.first, c.second);
    return [{ hand: 0, stake, net: kind ? PERFECT_PAIRS_PAYS[kind] * stake : -stake, citation: PERFECT }];
  },
  exact: (decks) => {
    const N = 52 * decks;
    const perfect = (decks - 1) / (N - 1);
    const coloured = decks / (N - 1);
    const mixed = (2 * decks) / (N - 1);
    const ev =
      PERFECT_PAIRS_PAYS.perfect * perfect + PERFECT_PAIRS_PAYS.coloured * coloured + PERFECT_PAIRS_PAYS.mixed * mixed - (1 - perfect - coloured - mixed);
    return -ev * 100;
  },
});
