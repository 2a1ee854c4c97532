// Migration 14: when each table's last heartbeat came (terminals.last_health_at). A report is
// complete only once a heartbeat after the day's end said nothing was unsent
// (upstream/backoffice/report-sync.ts); before 14 only `last_seen_at` was kept, which any signed
// request moves, a refused batch included.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { enrolTerminal } from './index.js';
import { migrateUpstream, UPSTREAM_LATEST } from './migrations.js';
import { openPglite } from './sql.js';

describe('migration 14: the last heartbeat kept apart from the last request', () => {
  it('adds last_health_at, empty for the tables already enrolled (their last heartbeat time was never kept)', async () => {
    const db = await openPglite();
    try {
      await migrateUpstream(db, 13);
      await enrolTerminal(db, 'T1');
      await db.query(`UPDATE terminals SET last_seen_at = now(), last_health = '{"sync":{"lagEntries":0}}'::jsonb WHERE terminal_id = 'T1'`);
      await assert.rejects(db.query('SELECT last_health_at FROM terminals'), /last_health_at/);
      assert.deepEqual(await migrateUpstream(db, 14), [14]);
      assert.ok(UPSTREAM_LATEST >= 14);
      const r = await db.query<{ last_health_at: Date | null }>('SELECT last_health_at FROM terminals');
      assert.deepEqual(r.rows, [{ last_health_at: null }]);
    } finally {
      await db.close();
    }
  });
});
