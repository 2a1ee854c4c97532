import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { baccaratProfile } from '../../engine/baccarat/profiles.js';
import { warProfile } from '../../engine/war/profiles.js';
import { playBaccaratRound } from './baccarat.js';
import { playWarRound } from './war.js';

// The issue asks for `"settlements":[{"seat","bet","stake","net","rule"}]` as the blackjack runner
// prints them: the JSON keys in that order, nothing else (deepEqual does not see key order).
const LINE_KEYS = ['seat', 'bet', 'stake', 'net', 'rule'];

describe('round runners: JSON shape of the output', () => {
  it("baccarat: hands with totals, settlement lines with exactly the issue's keys in order", () => {
    const out = JSON.parse(
      JSON.stringify(
        playBaccaratRound(
          {
            seats: [
              { seat: 1, bets: { banker: 1000, tie: 100, playerPair: 10 } },
              { seat: 3, bets: { player: 500 } },
            ],
            cards: ['2S', 'KH', '3D', '4C', '7S', '9H'],
          },
          baccaratProfile('macau-commission'),
        ),
      ),
    ) as Record<string, unknown> & { hands: Record<string, unknown>[]; settlements: Record<string, unknown>[] };
    assert.deepEqual(Object.keys(out), ['game', 'rules', 'hands', 'result', 'settlements', 'totals']);
    for (const h of out.hands) assert.deepEqual(Object.keys(h), ['hand', 'cards', 'total']);
    assert.equal(out.settlements.length, 4);
    for (const l of out.settlements) assert.deepEqual(Object.keys(l), LINE_KEYS);
  });

  it('war: the same settlement keys for every rule (win, tie bet, war, returned main)', () => {
    const out = JSON.parse(
      JSON.stringify(
        playWarRound(
          {
            seats: [
              { seat: 1, bets: { main: 5000 } },
              { seat: 2, bets: { main: 1000, tie: 100 } },
              { seat: 4, bets: { main: 200 } },
            ],
            cards: ['QS', 'QD', 'AH', 'QH', '2C', '2D', '2H', 'KS', '3C', '3D', '3H', '4S'],
            decisions: [{ seat: 1, action: 'war' }],
          },
          warProfile('macau'),
        ),
      ),
    ) as Record<string, unknown> & { settlements: Record<string, unknown>[] };
    assert.deepEqual(Object.keys(out), ['game', 'rules', 'hands', 'croupier', 'burns', 'settlements', 'totals']);
    assert.deepEqual(
      out.settlements.map((l) => l.rule),
      ['macau-war [art.7] n.5 al.1', 'macau-war interp:main-returned-with-tie-bet', 'macau-war [art.7] n.3', 'macau-war [art.7] n.1'],
    );
    for (const l of out.settlements) assert.deepEqual(Object.keys(l), LINE_KEYS);
  });
});
