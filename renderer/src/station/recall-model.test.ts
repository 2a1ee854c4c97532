import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StationRecallRound } from '../../../protocol/index.js';
import { destination, replayCardCount, replayHands, shownCardIndex } from './recall-model.js';

const round: StationRecallRound = {
  roundId: 'r1',
  ts: '2026-11-21T10:00:00Z',
  status: 'settled',
  cards: [
    { card: '5H', to: 'burn' },
    { card: 'AS', to: 'seat:1:hand:0' },
    { card: '8D', to: 'seat:2:hand:0' },
    { card: '8C', to: 'dealer' },
    { card: 'AD', to: 'seat:1:hand:0' },
    { card: '9S', to: 'seat:2:hand:0' },
    { card: 'KH', to: 'dealer' },
    { card: '3C', to: 'seat:1:hand:1' },
  ],
  bets: [{ seat: 1, bet: 'main', amount: 1000 }],
  lines: [],
};

describe('replay of a recorded round', () => {
  it('reads every destination the games record', () => {
    assert.deepEqual(destination('seat:3:hand:1'), { owner: 'seat', seat: 3, hand: 1 });
    assert.deepEqual(destination('seat:4'), { owner: 'seat', seat: 4, hand: 0 });
    assert.deepEqual(destination('seat:4:war'), { owner: 'seat', seat: 4, hand: 1 });
    assert.deepEqual(destination('banker'), { owner: 'banker', hand: 0 });
    assert.equal(destination('burn'), null);
  });

  it('rebuilds the dealer’s and this seat’s hands card by card, leaving others out', () => {
    assert.equal(replayCardCount(round, 1), 5);
    assert.deepEqual(replayHands(round, 1, 2), [{ key: 'seat:1:0', owner: 'seat', seat: 1, hand: 0, cards: ['AS'] }]);
    const all = replayHands(round, 1, round.cards.length);
    assert.deepEqual(
      all.map((h) => [h.key, h.cards]),
      [
        ['dealer', ['8C', 'KH']],
        ['seat:1:0', ['AS', 'AD']],
        ['seat:1:1', ['3C']],
      ],
    );
    // The third card shown is the dealer's 8C, the fourth card of the shoe.
    assert.equal(shownCardIndex(round, 1, 2), 4);
  });
});
