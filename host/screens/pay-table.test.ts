import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { payTable } from './pay-table.js';

const pays = (lines: ReturnType<typeof payTable>) => Object.fromEntries(lines.map((l) => [l.item, l.pays]));

describe('the help pay table comes from the active profile', () => {
  it('baccarat with commission pays the banker 0.95:1; without commission 1:1 and half on a six', () => {
    assert.deepEqual(pays(payTable('baccarat', 'macau-commission')), { player: '1:1', bankerCommission: '0.95:1', tie: '8:1', playerPair: '11:1', bankerPair: '11:1', tieStandsOff: '0:1' });
    const nc = payTable('baccarat', 'macau-no-commission');
    assert.equal(pays(nc).banker, '1:1');
    assert.equal(pays(nc).bankerSix, '0.5:1');
    assert.equal(pays(nc).bankerCommission, undefined);
    assert.ok(nc.every((l) => l.rule.startsWith('macau-baccarat ')), JSON.stringify(nc));
  });

  it('blackjack quotes the rule its settlement uses, and offers five-card half pay only where the profile has it', () => {
    const m = payTable('blackjack', 'macau-2009');
    assert.equal(pays(m).blackjack, '3:2');
    assert.equal(m.find((l) => l.item === 'blackjack')?.rule, 'macau-2009 art.10 n.2');
    assert.equal(pays(m).fiveCard, '1:2');
    assert.equal(pays(payTable('blackjack', 'portugal-2001')).fiveCard, undefined);
  });

  it('war pays its tie bet as the profile says', () => {
    const w = payTable('war', 'macau');
    assert.equal(pays(w).tieBet, '10:1');
    assert.equal(w.find((l) => l.item === 'tieBet')?.rule, 'macau-war art.7 n.3');
  });
});
