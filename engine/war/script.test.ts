import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { warProfile } from './profiles.js';
import { runWarScript, ScriptError } from './script.js';

describe('scripted «Desafio ao Casino» coups', () => {
  it('war: burns listed in shoe order, one war after another', () => {
    const out = runWarScript(warProfile('macau'), {
      seats: [
        { seat: 1, bets: { main: 100 } },
        { seat: 2, bets: { main: 100 } },
      ],
      cards: ['9S', '9H', '9C', '2S', '2H', '2C', '3S', '5S', '5H', '5D', '4S', '6S', '6H', '6D', 'AS', '7S', '7H', '7D', 'KS'],
      decisions: [
        { seat: 2, action: 'war' },
        { seat: 1, action: 'war' },
      ],
    });
    assert.deepEqual(out.burns, ['2S', '2H', '2C', '5S', '5H', '5D', '6S', '6H', '6D', '7S', '7H', '7D']);
    assert.deepEqual(out.croupier, {
      card: '9C',
      war: [
        { seat: 1, card: '4S' },
        { seat: 2, card: 'KS' },
      ],
    });
    assert.deepEqual(out.totals, [
      { seat: 1, staked: 200, net: -200 },
      { seat: 2, staked: 200, net: 100 },
    ]);
  });

  it('refuses a decision given twice', () => {
    const seats = [{ seat: 1, bets: { main: 100 } }];
    const decisions = [
      { seat: 1, action: 'war' as const },
      { seat: 1, action: 'surrender' as const },
    ];
    assert.throws(() => runWarScript(warProfile('macau'), { seats, cards: ['7S', '7D'], decisions }), ScriptError);
  });
});
