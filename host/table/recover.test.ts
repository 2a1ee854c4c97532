import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { describe, it } from 'node:test';
import { credit, testTable } from '../testing/table-kit.js';

describe('recovery of a journal this version cannot fold through', () => {
  it('opens the table afresh with every credit the ledger holds, those written after the stop included', () => {
    const first = testTable({ game: 'war' });
    credit(first.ledger, 1, 100_000);
    assert.deepEqual(first.table.commands.placeBet(1, { bet: 'main' }, 10_000), { ok: true });
    // An input a later version might write: the ledger takes it (verified, hash-chained), the fold stops at it.
    first.ledger.append({ type: 'table.input', payload: { input: { kind: 'from-the-future', at: 0 }, effects: 0 } });
    credit(first.ledger, 2, 50_000);
    credit(first.ledger, 1, 20_000);
    first.stop();
    const again = testTable({ game: 'war', dir: first.dir });
    try {
      assert.equal(again.table.state.credits[1], 120_000, 'station 1: both notes, the chips off the spot');
      assert.equal(again.table.state.credits[2], 50_000, 'station 2: its note came after the stop');
      assert.equal(again.ledger.credit(2), 50_000);
      assert.equal(again.table.state.phase, 'betting', 'opened afresh');
      assert.deepEqual(again.table.state.chips, []);
    } finally {
      again.close();
      rmSync(first.dir, { recursive: true, force: true });
    }
  });
});
