// A table restarted twice in one round: the first start writes a checkpoint of the table's state
// mid-round, the second folds from it. A checkpoint is JSON on disk, so the state it holds must
// be plain data: found by the kill trials (CI, trial 17, blackjack macau-2009), where a round
// with an additional bet restored from a checkpoint threw `bet.offered is not a function` at the
// next decision and the host could not start again.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import { entriesOfTypes, latestCheckpoint, type EntryBody } from '../../ledger/index.js';
import type { Spot } from '../../protocol/index.js';
import { credit, testTable, type TestTable, submitted } from '../testing/table-kit.js';

const LIMITS = { main: { min: 1_000, max: 100_000 }, anyPair: { min: 500, max: 5_000 } };
const place = (t: TestTable, station: number, spot: Spot, amount: number) =>
  submitted(t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), { name: 'place-bet', spot, amount }));
const cards = (t: TestTable, codes: string) => {
  for (const c of codes.split(' ')) t.table.shoe.onCard(parseCard(c));
};
const open = (dir?: string) => testTable({ game: 'blackjack', ...(dir ? { dir } : {}), config: { profile: 'macau-2009', betLimits: LIMITS } });

describe('a round restored from a checkpoint', () => {
  it('goes on after two restarts mid-round, its additional bet settled', () => {
    const t = open();
    try {
      credit(t.ledger, 1, 100_000);
      for (let i = 0; i < 20 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard('2C'));
      assert.equal(place(t, 1, { bet: 'main' }, 10_000).ok, true);
      assert.equal(place(t, 1, { bet: 'anyPair' }, 1_000).ok, true);
      t.clock.runOut(t.table.reads.view().endsAt);
      cards(t, '7S 9H 7D');
      assert.deepEqual(t.table.reads.cue(), { kind: 'decision', seat: 1 }, 'seat 1 has a decision to make');
    } finally {
      t.stop();
    }
    // The first restart folds the journal and writes a checkpoint holding the round in play.
    const again = open(t.dir);
    try {
      const ck = latestCheckpoint(again.ledger, { withTable: true });
      assert.ok(ck.status === 'ok' && ck.checkpoint.seq === again.ledger.headOf().seq, 'a checkpoint at the head, mid-round');
      assert.equal(submitted(again.hub.commands.submit('station/1', again.hub.version('station/1'), { name: 'decide', action: 'hit' })).ok, true);
    } finally {
      again.stop();
    }
    // The second folds from that checkpoint, through the decision taken after it.
    const third = open(t.dir);
    try {
      cards(third, '2D');
      assert.equal(submitted(third.hub.commands.submit('station/1', third.hub.version('station/1'), { name: 'decide', action: 'stand' })).ok, true);
      cards(third, 'TC');
      const settle = [...entriesOfTypes(third.ledger, ['round.settle'])].at(-1);
      assert.ok(settle, 'the round settled');
      const lines = (JSON.parse(settle.body) as EntryBody).payload as { lines: { bet: string; stake: number; net: number }[] };
      // Seat 1, the dealer, seat 1: 7♠ and 7♦ are seat 1's first two cards, a pair, paid 11 to 1.
      assert.deepEqual(
        lines.lines.filter((l) => l.bet === 'anyPair').map((l) => ({ stake: l.stake, net: l.net })),
        [{ stake: 1_000, net: 11_000 }],
      );
    } finally {
      third.close();
    }
  });
});
