import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tableGame } from '../games.js';
import { limitProblems } from './limits.js';

const limits = (min: number, max: number) => ({ min, max });

describe('the limits a text fixes (limitProblems)', () => {
  it('«Desafio ao Casino»: a table of seven or more seats; six is refused, naming the list of material', () => {
    const war = tableGame('war', 'macau').rules.limitRules;
    assert.deepEqual(limitProblems(war, { limits: limits(100, 10_000), betLimits: {}, seats: 7 }), []);
    const six = limitProblems(war, { limits: limits(100, 10_000), betLimits: {}, seats: 6 });
    assert.equal(six.length, 1);
    assert.match(six[0] ?? '', /7 or more seats \(macau-war \[art\.1\] 5\)\); it has 6/);
  });

  it('baccarat Art. 1 5): a table of seven or more seats; six is refused, naming the list of material', () => {
    for (const profile of ['macau-commission', 'macau-no-commission']) {
      const baccarat = tableGame('baccarat', profile, { authorisation: 'TEST-DICJ' }).rules.limitRules;
      assert.deepEqual(limitProblems(baccarat, { limits: limits(100, 10_000), betLimits: {}, seats: 7 }), []);
      const six = limitProblems(baccarat, { limits: limits(100, 10_000), betLimits: {}, seats: 6 });
      assert.equal(six.length, 1);
      assert.match(six[0] ?? '', /7 or more seats \(macau-baccarat art\.1 5\)\); it has 6/);
    }
  });

  it('Portugal rule 37: a maximum of 30 minimums, for the table, the main bet and a bet behind', () => {
    const pt = tableGame('blackjack', 'portugal-2001').rules.limitRules;
    assert.deepEqual(limitProblems(pt, { limits: limits(10_000, 300_000), betLimits: {}, seats: 7 }), []);
    const over = limitProblems(pt, { limits: limits(10_000, 300_001), betLimits: { main: limits(1_000, 30_001), behind: limits(1_000, 30_000) }, seats: 7 });
    assert.equal(over.length, 2);
    assert.match(over[0] ?? '', /the table \(300001\) is more than 30 times its minimum \(10000\) \(portugal-2001 rule 37\)/);
    assert.match(over[1] ?? '', /the main bet/);
  });

  it('Macau 2009 and baccarat fix no spread: a 100-minimum range is the operator’s to set', () => {
    for (const [kind, profile] of [
      ['blackjack', 'macau-2009'],
      ['baccarat', 'macau-commission'],
    ] as const) {
      assert.deepEqual(limitProblems(tableGame(kind, profile).rules.limitRules, { limits: limits(10_000, 1_000_000), betLimits: {}, seats: 7 }), []);
    }
  });

  it('a table maximum per round must admit one minimum bet', () => {
    // The cap is a subparagraph of procedure 3 (Art. 5 n.2 3)(8)); under procedure 1 it is the casino's own, citing none.
    assert.equal(tableGame('blackjack', 'macau-2009').rules.limitRules.roundMaxRule, null);
    const m9 = tableGame('blackjack', 'macau-2009', { dealProcedure: 'macau-3', holeCard: 'peek', authorisation: 'TEST-DICJ' }).rules.limitRules;
    assert.equal(m9.roundMaxRule, 'macau-2009 art.5 n.2 3)(8)');
    assert.deepEqual(limitProblems(m9, { limits: limits(10_000, 100_000), betLimits: {}, seats: 7, roundMax: 10_000 }), []);
    assert.match(limitProblems(m9, { limits: limits(10_000, 100_000), betLimits: {}, seats: 7, roundMax: 9_999 })[0] ?? '', /below the table minimum/);
  });
});
