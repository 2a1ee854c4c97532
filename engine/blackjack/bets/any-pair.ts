import { odds, payLine } from '../../table/pay-line.js';
import { articleOf, type Citation } from './citation.js';
import { firstCardsBet } from './entry.js';

/** «Qualquer par» pays 11 to 1 (Art. 14 n.1). */
export const ANY_PAIR_PAYS = 11;

const PAIR: Citation = { articles: ['art.13 1)(1), art.14 n.1', 'art.13 1)(1), art.14 n.1', null], options: ['anyPair', 'oneSideBetPerPlayer'] };
const PAIR_AGAIN: Citation = {
  articles: ['art.13 1)(2), art.14 n.1', 'art.13 1)(2), art.14 n.1', null],
  options: ['anyPair', 'oneSideBetPerPlayer', 'splitPairsBy'],
};

/**
 * Any pair (Macau 2009 and 2004 Art. 13 1)): the first two cards of a rank (J-J yes, J-Q no,
 * 1)(1)); each pair formed again by a split hand pays too, the bet riding on it (1)(2)). A station
 * may place it on any seat's hand ("de uma ou mais mãos de qualquer jogador").
 */
export const anyPair = firstCardsBet({
  id: 'anyPair',
  kind: 'additional',
  onVoid: 'returned',
  family: 'first-cards',
  settleOrder: 1,
  onOtherSeats: '1)',
  offered: (r) => r.anyPair,
  payLines: (r) => [payLine('anyPair', odds(ANY_PAIR_PAYS, 1), articleOf(r.profile, PAIR.articles), true)],
  settle: (c, stake) => {
    if (c.first.rank !== c.second.rank) return [{ hand: 0, stake, net: -stake, citation: PAIR }];
    return [
      { hand: 0, stake, net: ANY_PAIR_PAYS * stake, citation: PAIR },
      ...c.splitPairs.map((hand) => ({ hand, stake: 0, net: ANY_PAIR_PAYS * stake, citation: PAIR_AGAIN })),
    ];
  },
  // The first two cards only: pairs formed later by splits pay more and are not in this figure
  // (the simulator counts them).
  exact: (decks) => {
    const sameRank = (4 * decks - 1) / (52 * decks - 1);
    return -(ANY_PAIR_PAYS * sameRank - (1 - sameRank)) * 100;
  },
});
