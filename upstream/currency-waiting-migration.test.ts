// Migration 15: where a change of currency that waits for a person begins
// (terminals.currency_waiting_from, upstream/table-currency.ts). Before 15 nothing kept it: the
// change once acknowledged began at the head of the heartbeat that took it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { enrolTerminal } from './index.js';
import { migrateUpstream, UPSTREAM_LATEST } from './migrations.js';
import { openPglite } from './sql.js';

describe('migration 15: where a waiting change of currency begins', () => {
  it('adds currency_waiting_from, empty for the tables already enrolled, and never 0 or below', async () => {
    const db = await openPglite();
    try {
      await migrateUpstream(db, 14);
      await enrolTerminal(db, 'T1');
      await assert.rejects(db.query('SELECT currency_waiting_from FROM terminals'), /currency_waiting_from/);
      assert.deepEqual(await migrateUpstream(db, 15), [15]);
      assert.ok(UPSTREAM_LATEST >= 15);
      const r = await db.query<{ currency_waiting_from: number | null }>('SELECT currency_waiting_from FROM terminals');
      assert.deepEqual(r.rows, [{ currency_waiting_from: null }]);
      await assert.rejects(db.query("UPDATE terminals SET currency_waiting_from = 0 WHERE terminal_id = 'T1'"), /check/i);
    } finally {
      await db.close();
    }
  });
});
