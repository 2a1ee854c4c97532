// Which additional bets a station may place on another seat's hand, and what lets it (a review of
// 4 December): Art. 13 1) says «qualquer par» "de uma ou mais mãos de qualquer jogador"; 2) and 3)
// say only when the sevens and over/under are placed ("antes da distribuição da primeira carta de
// qualquer mão"), so placing them on another seat's hand is our reading of «qualquer mão», and the
// rule the table carries says so instead of citing 2) and 3) as if they said it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BLACKJACK_CATALOGUE } from './bets/catalogue.js';
import { resolveRules } from './rules.js';
import { onOtherSeats } from './table-bets.js';

describe("additional bets on another seat's hand", () => {
  it('cites 1) as the text, and 2) and 3) as our reading of «qualquer mão»', () => {
    const all = onOtherSeats(BLACKJACK_CATALOGUE, resolveRules('macau-2009'), 'macau-2009');
    assert.deepEqual(all?.bets, ['anyPair', 'sevens', 'over13', 'under13']);
    assert.equal(all?.rule, 'macau-2009 art.13 1); 2), 3) by our reading of «antes da distribuição da primeira carta de qualquer mão»');
    const sevensOnly = onOtherSeats(BLACKJACK_CATALOGUE, resolveRules('macau-2004', { anyPair: false, overUnder13: false }), 'macau-2004');
    assert.equal(sevensOnly?.rule, 'macau-2004 art.13 2) by our reading of «antes da distribuição da primeira carta de qualquer mão»');
    const pairOnly = onOtherSeats(BLACKJACK_CATALOGUE, resolveRules('macau-2004', { sevens: false, overUnder13: false }), 'macau-2004');
    assert.equal(pairOnly?.rule, 'macau-2004 art.13 1)');
  });
});
