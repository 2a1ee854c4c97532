// Migration 10: the journal indexed by round id, for a round's evidence bundle
// (`GET /backoffice/api/tables/:id/rounds/:round/evidence`). At 9 the lookup of a round's entries
// reads every round entry of the table, and the question whether another table played it reads the
// whole journal of every table; after 10 both go by the new index, with the same answers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { enrolTerminal } from '../index.js';
import { migrateUpstream, UPSTREAM_LATEST } from '../migrations.js';
import { openPglite, type Db } from '../sql.js';
import { ROUND_ELSEWHERE_SQL, ROUND_ENTRIES_SQL } from './round-evidence.js';

const TYPES = ['bet.place', 'card.read', 'round.settle'];

/** `rounds` rounds of three entries each for the terminal (TYPES), each followed by an entry of no round. */
async function journal(db: Db, terminal: string, rounds: number): Promise<void> {
  await db.query(
    `INSERT INTO journal (terminal_id, seq, type, ts, content_hash, prev_hash, hash, body, doc)
     SELECT $1::text, (r - 1) * 4 + k, doc->>'type', now(), 'c', 'p', 'h', doc::text, doc FROM (
       SELECT r, k, CASE WHEN k = 4 THEN jsonb_build_object('type', 'meter.snapshot', 'payload', '{}'::jsonb)
         ELSE jsonb_build_object('type', ($3::text[])[k], 'payload', jsonb_build_object('roundId', $1::text || '-r' || r)) END AS doc
       FROM generate_series(1, $2::int) r, generate_series(1, 4) k) e`,
    [terminal, rounds, TYPES],
  );
}

async function plan(db: Db, sql: string, params: unknown[]): Promise<string> {
  const r = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params);
  return r.rows.map((x) => x['QUERY PLAN']).join('\n');
}

describe('migration 10: the journal indexed by round id', () => {
  it('the evidence lookups go by the index after it, with the same rows', async () => {
    const db = await openPglite();
    try {
      assert.deepEqual(await migrateUpstream(db, 9), [1, 2, 3, 4, 5, 6, 7, 8, 9]);
      for (const t of ['T1', 'T2']) {
        await enrolTerminal(db, t);
        await journal(db, t, 400);
      }
      await db.query('ANALYZE journal');
      const entries = ['T1', TYPES, 'T1-r200'];
      const elsewhere = ['T1', 'T2-r300'];
      const rowsBefore = (await db.query(ROUND_ENTRIES_SQL, entries)).rows;
      assert.equal(rowsBefore.length, 3);
      assert.doesNotMatch(await plan(db, ROUND_ELSEWHERE_SQL, elsewhere), /journal_round/);
      assert.match(await plan(db, ROUND_ELSEWHERE_SQL, elsewhere), /Seq Scan/);

      assert.deepEqual(await migrateUpstream(db, 10), [10]);
      assert.ok(UPSTREAM_LATEST >= 10);
      await db.query('ANALYZE journal');
      const indexes = await db.query<{ indexname: string }>("SELECT indexname FROM pg_indexes WHERE tablename = 'journal' AND indexname = 'journal_round'");
      assert.equal(indexes.rows.length, 1);
      assert.match(await plan(db, ROUND_ENTRIES_SQL, entries), /journal_round/);
      assert.match(await plan(db, ROUND_ELSEWHERE_SQL, elsewhere), /journal_round/);
      assert.doesNotMatch(await plan(db, ROUND_ELSEWHERE_SQL, elsewhere), /Seq Scan/);
      assert.deepEqual((await db.query(ROUND_ENTRIES_SQL, entries)).rows, rowsBefore);
      assert.equal((await db.query(ROUND_ELSEWHERE_SQL, elsewhere)).rows.length, 1);
      assert.equal((await db.query(ROUND_ELSEWHERE_SQL, ['T2', 'T2-r300'])).rows.length, 0);
    } finally {
      await db.close();
    }
  });
});
