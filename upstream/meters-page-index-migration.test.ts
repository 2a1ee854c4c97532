// Migration 21: the meters in the order a page reads them (upstream/queries.ts, METERS_PAGE_INDEX_SQL).
// GET /v1/terminals/:id/meters answers a page at a time in (scope, name, currency) order; the
// projection's key is (terminal_id, code, exponent, scope, name), so each page read every row of
// its table and sorted them: a stadium's 80,000 rows, 0.2 s a page on PGlite, every page.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { enrolTerminal } from './index.js';
import { migrateUpstream, UPSTREAM_LATEST } from './migrations.js';
import { meters, METERS_PAGE_SQL } from './queries.js';
import { openPglite, type Db } from './sql.js';

async function plan(db: Db, params: unknown[]): Promise<string> {
  const r = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${METERS_PAGE_SQL}`, params);
  return r.rows.map((x) => x['QUERY PLAN']).join('\n');
}

describe('migration 21: the meters in the order a page reads them', () => {
  it('applies on a database at 20 holding meters; a page, the first or one after a cursor, reads the index and sorts nothing', async () => {
    const db = await openPglite();
    try {
      await migrateUpstream(db, 20);
      await enrolTerminal(db, 'M1');
      await enrolTerminal(db, 'M2');
      await db.exec(
        `INSERT INTO meters (terminal_id, code, exponent, scope, name, value)
         SELECT 'M' || (1 + i % 2), CASE WHEN i % 7 = 0 THEN '' ELSE 'MOP' END, CASE WHEN i % 7 = 0 THEN -1 ELSE 2 END,
           'station:' || (101 + i / 80), 'billsIn.' || (i / 2 % 40 + 1), i FROM generate_series(0, 79999) i`,
      );
      const before = await meters(db, 'M1');
      assert.deepEqual(await migrateUpstream(db, 21), [21]);
      assert.ok(UPSTREAM_LATEST >= 21);
      assert.deepEqual(await meters(db, 'M1'), before, 'the same rows in the same order');
      await db.exec('ANALYZE meters');
      const first = await plan(db, ['M1', null, null, null, null, null, 1000]);
      console.log('the first page:\n' + first);
      assert.match(first, /meters_page/);
      assert.doesNotMatch(first, /Sort/);
      const after = await plan(db, ['M1', null, 'station:300', 'billsIn.3', 'MOP', 2, 1000]);
      console.log('a page after a cursor:\n' + after);
      assert.match(after, /Index Cond: .*ROW\(scope, name/);
      assert.doesNotMatch(after, /Sort/);
    } finally {
      await db.close();
    }
  });
});
