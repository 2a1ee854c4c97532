// Migration 13: each table's currency by journal seq. At 12 the upstream held one currency per
// table, the one its last heartbeat named, and the reports labelled every entry of every day by it.
// After 13 a table's currency is a list of spans from a seq on; a table that held a currency before
// it is taken as having held it from seq 1, a table that never named one has no span, and a
// heartbeat after it starts a span where its change takes effect.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { enrolTerminal } from './index.js';
import { migrateUpstream, UPSTREAM_LATEST } from './migrations.js';
import { openPglite, type Db } from './sql.js';
import { noteCurrency } from './table-currency.js';

const spans = async (db: Db) =>
  (
    await db.query<{ terminal_id: string; from_seq: number; code: string; exponent: number }>(
      'SELECT terminal_id, from_seq::int AS from_seq, code, exponent FROM currency_spans ORDER BY terminal_id, from_seq',
    )
  ).rows.map((r) => [r.terminal_id, r.from_seq, r.code, r.exponent]);

describe('migration 13: currency spans by journal seq', () => {
  it('backfills one span from seq 1 per table that held a currency; a change then starts one past the entries before it', async () => {
    const db = await openPglite();
    try {
      await migrateUpstream(db, 12);
      for (const t of ['T1', 'T2', 'T3']) await enrolTerminal(db, t);
      // As a heartbeat at 12 left them (migration 8's columns).
      await db.query("UPDATE terminals SET currency = 'HKD', currency_exponent = 2, currency_since = now() WHERE terminal_id = 'T1'");
      await db.query("UPDATE terminals SET currency = 'MOP', currency_exponent = 2, currency_since = now() WHERE terminal_id = 'T2'");
      await db.query("UPDATE heads SET seq = 40 WHERE terminal_id = 'T1'");

      assert.deepEqual(await migrateUpstream(db, 13), [13]);
      assert.ok(UPSTREAM_LATEST >= 13);
      assert.deepEqual(await spans(db), [
        ['T1', 1, 'HKD', 2],
        ['T2', 1, 'MOP', 2],
      ]);
      await assert.rejects(db.query("INSERT INTO currency_spans (terminal_id, from_seq, code, exponent) VALUES ('T1', 1, 'MOP', 2)"), /duplicate|unique/i);
      await assert.rejects(db.query("INSERT INTO currency_spans (terminal_id, from_seq, code, exponent) VALUES ('T1', 5, 'mop', 2)"), /check/i);
      await assert.rejects(db.query("INSERT INTO currency_spans (terminal_id, from_seq, code, exponent) VALUES ('T1', 0, 'MOP', 2)"), /check/i);

      // The service as it is now reads the later migrations' columns too (15: where a waiting change begins).
      await migrateUpstream(db);
      // T1 changes with 3 entries yet to send: seq 1–43 were journalled in HKD, 44 on in MOP.
      await noteCurrency(db, 'T1', { code: 'MOP', exponent: 2 }, 3);
      // T3 names its first currency: from seq 1.
      await noteCurrency(db, 'T3', { code: 'MOP', exponent: 2 }, 0);
      // T2 changes twice before it journals anything: the later change stands from seq 1. (A change
      // is taken once the last one's alarm is acknowledged: tests/security/backoffice-currency-spans.test.ts.)
      await noteCurrency(db, 'T2', { code: 'HKD', exponent: 2 }, 0);
      await db.query(
        "INSERT INTO alarm_acks (alarm_id, user_name, note) SELECT id, 'test', 'seen' FROM alarms WHERE terminal_id = 'T2' AND kind = 'currency-changed'",
      );
      await noteCurrency(db, 'T2', { code: 'USD', exponent: 2 }, 0);
      assert.deepEqual(await spans(db), [
        ['T1', 1, 'HKD', 2],
        ['T1', 44, 'MOP', 2],
        ['T2', 1, 'USD', 2],
        ['T3', 1, 'MOP', 2],
      ]);
      // The columns of migration 8 still hold the currency of now.
      const held = await db.query<{ terminal_id: string; currency: string }>('SELECT terminal_id, currency FROM terminals ORDER BY terminal_id');
      assert.deepEqual(
        held.rows.map((r) => [r.terminal_id, r.currency]),
        [
          ['T1', 'MOP'],
          ['T2', 'USD'],
          ['T3', 'MOP'],
        ],
      );
    } finally {
      await db.close();
    }
  });
});
