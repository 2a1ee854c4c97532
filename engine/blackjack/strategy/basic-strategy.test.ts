import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveRules } from '../rules.js';
import { computeStrategy, dealerDistribution, strategyChart } from './basic-strategy.js';

const standard = resolveRules('generic', {
  dealProcedure: 'macau-3',
  holeCard: 'peek',
  dealerSoft17: 'stand',
  surrender: 'none',
  fiveCardHalfPay: false,
  bonus678: 'none',
});
const cols = ['2', '3', '4', '5', '6', '7', '8', '9', 'T', 'A'];
const cell = (row: string[] | undefined, up: string): string => row?.[cols.indexOf(up)] ?? '?';

describe('basic strategy computed from the rules', () => {
  it('dealer outcome probabilities add up to 1; a 6 up busts 42.3% of the time (S17, infinite deck)', () => {
    for (let u = 1; u <= 10; u++) {
      const d = dealerDistribution(standard, u);
      assert.ok(Math.abs(d.reduce((a, b) => a + b, 0) - 1) < 1e-12);
    }
    const six = dealerDistribution(standard, 6);
    assert.ok(Math.abs((six[5] ?? 0) - 0.4232) < 0.001, `bust with 6 up: ${six[5]}`);
  });

  it('finds the textbook decisions for 6 decks S17 DAS (infinite-deck chart)', () => {
    const c = strategyChart(computeStrategy(standard));
    assert.equal(cell(c.hard['16'], 'T'), 'H');
    assert.equal(cell(c.hard['12'], '2'), 'H');
    assert.equal(cell(c.hard['12'], '4'), 'S');
    assert.equal(cell(c.hard['11'], '6'), 'D');
    assert.equal(cell(c.hard['9'], '2'), 'H');
    assert.equal(cell(c.hard['9'], '3'), 'D');
    assert.equal(cell(c.soft['A,7'], '2'), 'S');
    assert.equal(cell(c.soft['A,7'], '9'), 'H');
    assert.equal(cell(c.soft['A,6'], '3'), 'D');
    assert.equal(cell(c.pairs['8,8'], 'A'), 'P');
    assert.equal(cell(c.pairs['9,9'], '7'), 'S');
    assert.equal(cell(c.pairs['10,10'], '6'), 'S');
    assert.equal(cell(c.pairs['5,5'], '9'), 'D');
    assert.equal(cell(c.pairs['4,4'], '5'), 'P');
  });

  it('changes with the rules: surrender 16 v T, hit soft 17 doubles A,8 v 6, Portugal may not stand on 11 or less', () => {
    assert.equal(
      cell(
        strategyChart(
          computeStrategy(resolveRules('generic', { dealProcedure: 'macau-3', holeCard: 'peek', surrender: 'late', fiveCardHalfPay: false, bonus678: 'none' })),
        ).hard['16'],
        'T',
      ),
      'R',
    );
    assert.equal(cell(strategyChart(computeStrategy({ ...standard, dealerSoft17: 'hit' })).soft['A,8'], '6'), 'D');
    const pt = computeStrategy(resolveRules('portugal-2001'));
    assert.ok(!pt.ranked(2, 11, false, 3, 0, false, false).slice(0, 1).includes('stand'));
    assert.ok(Number.isNaN(pt.firstDecisionEvs(6, 8, false, 0, false, false).double), 'Portugal doubles 9-11 only (rule 29)');
    assert.ok(!Number.isNaN(pt.firstDecisionEvs(6, 9, true, 0, false, true).double), 'A-8 may double as 9 (rule 32)');
  });

  it('values the whole game near the published infinite-deck figure (about -0.5% for S17 DAS)', () => {
    const er = computeStrategy(standard).expectedReturn;
    assert.ok(er < -0.004 && er > -0.007, `expected return ${er}`);
  });
});
