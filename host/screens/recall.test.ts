import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RoundRecord } from '../../ledger/index.js';
import { HostMessage } from '../../protocol/index.js';
import { recallRound } from './recall.js';

const record = (roundId: string): RoundRecord => ({
  roundId,
  tableId: 'T',
  game: 'blackjack',
  profile: 'macau-2009',
  status: 'settled',
  seq: 9,
  ts: '2026-11-21T10:00:00.000Z',
  tzOffsetMin: 480,
  cards: [
    { card: 'AS', to: 'seat:1:hand:0' },
    { card: '9D', to: 'seat:2:hand:0' },
    { card: '7C', to: 'dealer' },
  ],
  decisions: [],
  bets: [
    { station: 1, seat: 1, bet: 'main', amount: 1000, seq: 3 },
    { station: 2, seat: 2, bet: 'main', amount: 5000, seq: 4 },
  ],
  lines: [
    { station: 1, seat: 1, bet: 'main', stake: 1000, net: 1000, rule: 'macau-2009 art.10' },
    { station: 2, seat: 2, bet: 'main', stake: 5000, net: -5000, rule: 'macau-2009 art.10' },
  ],
  credits: [
    { station: 1, before: 10000, after: 11000 },
    { station: 2, before: 90000, after: 85000 },
  ],
  entrySeqs: [3, 4, 9],
});

describe('a station’s recall', () => {
  it('carries its own bets, lines and credit, never another station’s, and fits its message', () => {
    const mine = recallRound(record('r1'), 1);
    assert.deepEqual(mine.bets, [{ seat: 1, bet: 'main', amount: 1000 }]);
    assert.deepEqual(
      mine.lines.map((l) => l.net),
      [1000],
    );
    assert.equal(mine.creditBefore, 10000);
    assert.equal(mine.creditAfter, 11000);
    assert.ok(!JSON.stringify(mine).includes('85000') && !JSON.stringify(mine).includes('5000,'));
    // The recall goes apart from the own part (protocol 5), to the screen that asked for it.
    const message = { type: 'recall', view: 'station/1', version: 2, rounds: [mine] };
    assert.equal(HostMessage.safeParse(message).success, true);
  });
});
