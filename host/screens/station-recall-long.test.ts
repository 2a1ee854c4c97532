// A round's record lists every journal entry under its id (`entrySeqs`): a table may journal some
// 150,000 under one round (terms/round-evidence.ts, `roundSpan`). The station's recall read the
// round's first entry as Math.min(...entrySeqs), a spread that passes each seq as an argument and
// overflowed the stack past ~125,000: the recall of such a round threw, and every station's view
// that held it with it. Here a station recalls a round of 300,000 entries.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ledger, type RoundRecord } from '../../ledger/index.js';
import { StationRecall } from './station-recall.js';

/** A settled round of station 1 whose record holds `n` entries, its first at seq 1,000 (listed last). */
function longRound(n: number): RoundRecord {
  const entrySeqs = Array.from({ length: n }, (_, i) => 1_001 + i);
  entrySeqs.push(1_000);
  return {
    roundId: 'R-LONG',
    tableId: 'T-1',
    game: 'baccarat',
    profile: 'macau-baccarat',
    status: 'settled',
    seq: 1_000 + n,
    ts: '2026-12-06T06:00:00.000Z',
    tzOffsetMin: 480,
    cards: [],
    decisions: [],
    bets: [{ station: 1, seat: 1, bet: 'banker', amount: 100, seq: 1_001 }],
    lines: [{ station: 1, seat: 1, bet: 'banker', stake: 100, net: 95, rule: 'r' }],
    credits: [],
    entrySeqs,
  } as unknown as RoundRecord;
}

describe("a station's recall of a round of very many journal entries", () => {
  it('is read, with the rules on record at its first entry', () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-LONG' });
    try {
      const round = longRound(300_000);
      ledger.rounds.record = (id) => (id === round.roundId ? round : undefined);
      ledger.rounds.recallIds = () => [round.roundId];
      const asked: number[] = [];
      const recall = new StationRecall(ledger, (seq) => (asked.push(seq), { reference: 'DICJ-1', demonstration: false }));
      const list = recall.of(1);
      assert.equal(list.length, 1);
      assert.equal(list[0]?.roundId, 'R-LONG');
      assert.deepEqual(asked, [1_000], "the rules asked for at the round's first entry");
      assert.deepEqual(list[0]?.rules, { reference: 'DICJ-1', demonstration: false });
    } finally {
      ledger.close();
    }
  });
});
