// Migration 16: the alarms indexed by table, newest first (upstream/backoffice/alarm-acks.ts). The
// back office's list holds each table's newest ALARMS_PER_TABLE, and one table's page its newest;
// before 16 nothing indexed alarms but their id, and both read and sorted every alarm of the floor.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WORKED_ALARMS_SQL, ALARMS_PER_TABLE } from './backoffice/alarm-acks.js';
import { enrolTerminal } from './index.js';
import { migrateUpstream, UPSTREAM_LATEST } from './migrations.js';
import { openPglite, type Db } from './sql.js';

async function plan(db: Db, params: unknown[]): Promise<string> {
  const r = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${WORKED_ALARMS_SQL}`, params);
  return r.rows.map((x) => x['QUERY PLAN']).join('\n');
}

describe('migration 16: the alarms by table', () => {
  it('applies on a database at 15 holding alarms; the list of one table and of every table read the index', async () => {
    const db = await openPglite();
    try {
      await migrateUpstream(db, 15);
      for (let t = 0; t < 50; t++) await enrolTerminal(db, `T${t}`);
      await db.exec(`INSERT INTO alarms (terminal_id, kind, detail) SELECT 'T' || (i % 50), 'x', '{}'::jsonb FROM generate_series(1, 20000) i`);
      assert.deepEqual(await migrateUpstream(db, 16), [16]);
      assert.ok(UPSTREAM_LATEST >= 16);
      const index = await db.query<{ indexdef: string }>(`SELECT indexdef FROM pg_indexes WHERE tablename = 'alarms' AND indexname = 'alarms_by_table'`);
      assert.match(index.rows[0]?.indexdef ?? '', /\(terminal_id, id DESC\)/);
      await db.exec('ANALYZE alarms');
      const one = await plan(db, ['T3', false, 200, 200]);
      console.log("one table's list:\n" + one);
      assert.match(one, /alarms_by_table/);
      // Every table's: still each alarm (how many more each table has), but in the index's order, not sorted.
      const every = await plan(db, [null, false, 200, ALARMS_PER_TABLE]);
      console.log("every table's list:\n" + every);
      assert.match(every, /Index Scan using alarms_by_table/);
      assert.doesNotMatch(every, /Sort Key: alarms\.terminal_id/);
    } finally {
      await db.close();
    }
  });
});
