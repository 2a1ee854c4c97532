import type { Card } from '../../cards/card.js';
import { odds, payLine } from '../../table/pay-line.js';
import { rankValue } from '../hand.js';
import type { BlackjackRules } from '../rules.js';
import { articleOf, type Citation } from './citation.js';
import { firstCardsBet } from './entry.js';

/** «Acima e abaixo de 13» pays 1 to 1 (Art. 14 n.3). */
export const OVER_UNDER_PAYS = 1;

const OVER_UNDER: Citation = {
  articles: ['art.13 3), art.14 n.3', 'art.13 3), art.14 n.3', null],
  options: ['overUnder13', 'overUnderAceValue', 'oneSideBetPerPlayer'],
};

/** Art. 13 3): the first two cards' total, the ace as the profile counts it; 13 loses both sides. */
export function overUnderTotal(a: Card, b: Card, aceValue: number): number {
  const v = (c: Card): number => (c.rank === 'A' ? aceValue : rankValue(c.rank));
  return v(a) + v(b);
}

/** Over/under 13's edge off a full shoe, over the rank-value composition. */
function edge(decks: number, aceValue: number, wins: (total: number) => boolean): number {
  const N = 52 * decks;
  const counts: number[] = [];
  for (let v = 1; v <= 10; v++) counts[v] = v === 10 ? 16 * decks : 4 * decks;
  let p = 0;
  for (let a = 1; a <= 10; a++) {
    for (let b = 1; b <= 10; b++) {
      const q = ((counts[a] as number) / N) * (((counts[b] as number) - (a === b ? 1 : 0)) / (N - 1));
      if (wins((a === 1 ? aceValue : a) + (b === 1 ? aceValue : b))) p += q;
    }
  }
  return -(OVER_UNDER_PAYS * p - (1 - p)) * 100;
}

const side = (id: 'over13' | 'under13', settleOrder: number, wins: (total: number) => boolean) =>
  firstCardsBet({
    id,
    kind: 'additional',
    onVoid: 'returned',
    family: 'first-cards',
    settleOrder,
    onOtherSeats: '3)',
    onOtherSeatsByReading: true,
    offered: (r: BlackjackRules) => r.overUnder13,
    payLines: (r: BlackjackRules) => [payLine(id, odds(OVER_UNDER_PAYS, 1), articleOf(r.profile, OVER_UNDER.articles), true)],
    settle: (c, stake, r) => [
      { hand: 0, stake, net: wins(overUnderTotal(c.first, c.second, r.overUnderAceValue)) ? OVER_UNDER_PAYS * stake : -stake, citation: OVER_UNDER },
    ],
    exact: (decks, r) => edge(decks, r.overUnderAceValue, wins),
  });

/** Over 13 and under 13 (Macau 2009 and 2004 Art. 13 3)): one option, two spots; a station may place them on any seat's hand. */
export const over13 = side('over13', 3, (t) => t > 13);
export const under13 = side('under13', 4, (t) => t < 13);
