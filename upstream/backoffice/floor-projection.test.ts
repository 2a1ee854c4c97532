// The floor's projection reads each table's journal on from where it last read. Two reads of one
// table at once (the floor's push and a table's page, or the 5 s sweep) each go to the database;
// on PostgreSQL they go over a pool of connections and may be answered out of order. The older
// answer applied last put the table's stations back to their credit of before, and its last round
// and the seq it had read with them, until the next read.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Sql } from '../sql.js';
import { FloorProjection } from './floor.js';

/** A journal of one table's entries, each moving station 1's credit; the reads answered when the test says. */
function journal() {
  const rows = [{ seq: 1, type: 'bill.credit', profile: null, round_id: null, ts: new Date(), credits: [[1, 0, 100]] }];
  const held: (() => void)[] = [];
  const sql: Sql = {
    async query<T>(_text: string, params?: unknown[]) {
      const from = Number(params?.[1]);
      // What the journal holds when the read is made, answered later.
      const answer = rows.filter((r) => r.seq > from);
      await new Promise<void>((resolve) => held.push(resolve));
      return { rows: answer as T[], rowCount: answer.length };
    },
    async exec() {},
  };
  return { rows, held, sql };
}

describe('FloorProjection', () => {
  it('keeps the newest read of a table when two reads are answered out of order', async () => {
    const j = journal();
    const projection = new FloorProjection(j.sql);
    const read = projection.stationCredits('T1');
    await new Promise((r) => setImmediate(r));
    j.held.shift()?.();
    assert.equal((await read).credits.get(1), 100);
    // Station 1 cashes 50 out, and the floor's push reads the table on; then 30 more, and its page reads it too.
    j.rows.push({ seq: 2, type: 'credit.cancel', profile: null, round_id: null, ts: new Date(), credits: [[1, 100, 50]] });
    const first = projection.stationCredits('T1');
    await new Promise((r) => setImmediate(r));
    j.rows.push({ seq: 3, type: 'credit.cancel', profile: null, round_id: null, ts: new Date(), credits: [[1, 50, 20]] });
    const second = projection.stationCredits('T1');
    await new Promise((r) => setImmediate(r));
    // Every read held is answered newest first (the second before the first), until both are done.
    let done = false;
    void Promise.all([first, second]).then(() => (done = true));
    for (let i = 0; i < 20 && !done; i++) {
      for (const answer of j.held.splice(0).reverse()) answer();
      await new Promise((r) => setImmediate(r));
    }
    assert.ok(done, 'both reads answered');
    assert.equal((await second).credits.get(1), 20, "station 1's credit is its newest");
    assert.equal((await first).credits.get(1), 20);
  });
});
