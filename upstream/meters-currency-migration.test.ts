// Migration 20: the meters projection per currency. At 19 it held one sum per table, scope and
// name over the whole journal, whatever currencies the table journalled in. After 20 a table that
// held one currency (or none) keeps each meter whole in it; a table that changed has the part of
// each meter journalled before its last span read from the journal in its span's currency, and the
// rest in the last span's. Totals are unchanged.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { enrolTerminal } from './index.js';
import { migrateUpstream, UPSTREAM_LATEST } from './migrations.js';
import { connectPg, openPglite, type Db } from './sql.js';
import { startLocalCluster } from './local-cluster.js';

async function entry(db: Db, terminal: string, seq: number, meters: unknown): Promise<void> {
  const body = JSON.stringify({ terminal, seq, type: 'bill.credit', ts: '2026-12-01T10:00:00.000Z', payload: {}, meters }).replace(
    '"totalIn",200]',
    '"totalIn",200.0]',
  );
  await db.query(
    `INSERT INTO journal (terminal_id, seq, type, ts, content_hash, prev_hash, hash, body, doc) VALUES ($1, $2, 'bill.credit', now(), 'c', 'p', 'h', $3::text, $3::text::jsonb)`,
    [terminal, seq, body],
  );
}

const rows = async (db: Db) =>
  (
    await db.query<{ terminal_id: string; code: string; exponent: number; scope: string; name: string; value: string }>(
      'SELECT terminal_id, code, exponent, scope, name, value::text AS value FROM meters ORDER BY terminal_id, code, scope, name',
    )
  ).rows.map((r) => [r.terminal_id, r.code, r.exponent, r.scope, r.name, Number(r.value)]);

/** A fresh database of each kind the upstream runs on, and how to put it away. */
async function fresh(kind: 'pglite' | 'postgresql'): Promise<{ db: Db; close(): Promise<void> }> {
  if (kind === 'pglite') {
    const db = await openPglite();
    return { db, close: () => db.close() };
  }
  const cluster = await startLocalCluster();
  const db = connectPg(cluster.url);
  return {
    db,
    async close() {
      try {
        await db.close();
      } finally {
        cluster.destroy();
      }
    },
  };
}

for (const kind of ['pglite', 'postgresql'] as const)
  describe(`migration 20: the meters projection per currency (${kind})`, () => {
    it("splits a changed table's meters by its spans, keeps one-currency and no-currency tables whole, and keeps every total", async () => {
      const opened = await fresh(kind);
      const db = opened.db;
      try {
        await migrateUpstream(db, 19);
        for (const t of ['T1', 'T2', 'T3']) await enrolTerminal(db, t);
        // T1: HKD from seq 1, MOP from seq 3 (migration 13's spans); T2: MOP; T3: none named.
        await db.query(
          "INSERT INTO currency_spans (terminal_id, from_seq, code, exponent) VALUES ('T1', 1, 'HKD', 2), ('T1', 3, 'MOP', 2), ('T2', 1, 'MOP', 2)",
        );
        await db.query("UPDATE terminals SET currency = 'MOP', currency_exponent = 2 WHERE terminal_id IN ('T1', 'T2')");
        const m = (n: number) => [
          ['table', 'totalIn', n],
          ['station:1', 'totalIn', n],
        ];
        await entry(db, 'T1', 1, m(5_000));
        // A figure written 200.0 is the integer JSON.parse makes of it, as the ingest counted it.
        await entry(db, 'T1', 2, [
          ['table', 'totalIn', 200.0],
          ['table', 'bogus', 'x'],
        ]);
        await entry(db, 'T1', 3, m(700));
        await entry(db, 'T2', 1, m(900));
        await entry(db, 'T3', 1, m(400));
        // As migration 2 and the ingest left the projection at 19.
        await db.query(
          `INSERT INTO meters (terminal_id, scope, name, value) VALUES
           ('T1', 'table', 'totalIn', 5900), ('T1', 'station:1', 'totalIn', 5700), ('T1', 'table', 'gamesPlayed', 0),
           ('T2', 'table', 'totalIn', 900), ('T2', 'station:1', 'totalIn', 900), ('T3', 'table', 'totalIn', 400), ('T3', 'station:1', 'totalIn', 400)`,
        );

        assert.deepEqual(await migrateUpstream(db, 20), [20]);
        assert.ok(UPSTREAM_LATEST >= 20);
        assert.deepEqual(await rows(db), [
          ['T1', 'HKD', 2, 'station:1', 'totalIn', 5_000],
          ['T1', 'HKD', 2, 'table', 'totalIn', 5_200],
          ['T1', 'MOP', 2, 'station:1', 'totalIn', 700],
          ['T1', 'MOP', 2, 'table', 'gamesPlayed', 0],
          ['T1', 'MOP', 2, 'table', 'totalIn', 700],
          ['T2', 'MOP', 2, 'station:1', 'totalIn', 900],
          ['T2', 'MOP', 2, 'table', 'totalIn', 900],
          ['T3', '', -1, 'station:1', 'totalIn', 400],
          ['T3', '', -1, 'table', 'totalIn', 400],
        ]);
        await assert.rejects(
          db.query("INSERT INTO meters (terminal_id, code, exponent, scope, name, value) VALUES ('T2', 'MOP', -1, 'table', 'x', 1)"),
          /check/i,
        );
        await assert.rejects(
          db.query("INSERT INTO meters (terminal_id, code, exponent, scope, name, value) VALUES ('T2', 'mop', 2, 'table', 'x', 1)"),
          /check/i,
        );
        await assert.rejects(
          db.query("INSERT INTO meters (terminal_id, code, exponent, scope, name, value) VALUES ('T2', 'MOP', 2, 'table', 'totalIn', 1)"),
          /duplicate|unique/i,
        );
      } finally {
        await opened.close();
      }
    });
  });
