// Migration 17: `terminals.caught_up_at` (when the table's last heartbeat saying nothing was unsent
// came) and `misdated_entries` (upstream/ingest/misdated.ts). Before 17 only the last heartbeat was
// kept, whatever it said: a table whose last heartbeat said 3 were unsent had no time by which all
// its entries were known to be here, and nothing kept an entry dated inside a day reported complete.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { enrolTerminal } from './index.js';
import { migrateUpstream, UPSTREAM_LATEST } from './migrations.js';
import { openPglite } from './sql.js';

describe('migration 17: the misdated entries, and when each table last had nothing unsent', () => {
  it('fills caught_up_at from a last heartbeat that said nothing was unsent, and only from such', async () => {
    const db = await openPglite();
    try {
      await migrateUpstream(db, 16);
      for (const t of ['T1', 'T2', 'T3']) await enrolTerminal(db, t);
      const at = '2026-11-26T01:00:00.000Z';
      await db.query(`UPDATE terminals SET last_health_at = $1, last_health = '{"sync":{"lagEntries":0}}'::jsonb WHERE terminal_id = 'T1'`, [at]);
      await db.query(`UPDATE terminals SET last_health_at = $1, last_health = '{"sync":{"lagEntries":3}}'::jsonb WHERE terminal_id = 'T2'`, [at]);
      await assert.rejects(db.query('SELECT caught_up_at FROM terminals'), /caught_up_at/);
      assert.deepEqual(await migrateUpstream(db, 17), [17]);
      assert.ok(UPSTREAM_LATEST >= 17);
      const r = await db.query<{ terminal_id: string; caught_up_at: Date | null }>('SELECT terminal_id, caught_up_at FROM terminals ORDER BY terminal_id');
      assert.deepEqual(
        r.rows.map((x) => [x.terminal_id, x.caught_up_at === null ? null : new Date(x.caught_up_at).toISOString()]),
        [
          ['T1', at],
          ['T2', null],
          ['T3', null],
        ],
      );
      // Each row is an entry of the journal, once, of one of the two kinds.
      assert.deepEqual((await db.query('SELECT * FROM misdated_entries')).rows, []);
      await assert.rejects(
        db.query(`INSERT INTO misdated_entries (terminal_id, seq, kind, ts, received_at) VALUES ('T1', 1, 'backdated', now(), now())`),
        /foreign key/,
      );
    } finally {
      await db.close();
    }
  });
});
