// Migration 12: a table's refused redemptions indexed by when they were asked. Before each
// redemption the authority counts the table's refusals of the last window (30 in 10 minutes stops
// a table that guesses numbers: upstream/tickets.ts, REFUSALS_SQL). At 11 that count reads every
// redemption the table ever asked for, by the primary key's first column; after 12 it reads the
// window's refusals alone, with the same answer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { enrolTerminal } from './index.js';
import { migrateUpstream, UPSTREAM_LATEST } from './migrations.js';
import { openPglite, type Db } from './sql.js';
import { REFUSALS_SQL } from './tickets.js';

/** `n` redemptions asked by the terminal, one a minute back from now, every third refused `unknown`, every fifth `already-paid`. */
async function redemptions(db: Db, terminal: string, n: number): Promise<void> {
  await db.query(
    `INSERT INTO ticket_redemptions (terminal_id, request_id, validation, station, outcome, reason, asked_at)
     SELECT $1::text, 'r-' || i, lpad(i::text, 18, '0'), 1,
       CASE WHEN i % 3 = 0 OR i % 5 = 0 THEN 'refused' ELSE 'stacked' END,
       CASE WHEN i % 3 = 0 THEN 'unknown' WHEN i % 5 = 0 THEN 'already-paid' END,
       now() - make_interval(mins => i)
     FROM generate_series(1, $2::int) i`,
    [terminal, n],
  );
}

async function plan(db: Db, params: unknown[]): Promise<string> {
  const r = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${REFUSALS_SQL}`, params);
  return r.rows.map((x) => x['QUERY PLAN']).join('\n');
}

describe('migration 12: refused redemptions indexed by when they were asked', () => {
  it('the count of a window goes by the index after it, with the same answer', async () => {
    const db = await openPglite();
    try {
      await migrateUpstream(db, 11);
      for (const t of ['T1', 'T2']) {
        await enrolTerminal(db, t);
        await redemptions(db, t, 20_000);
      }
      await db.query('ANALYZE ticket_redemptions');
      const ask = ['T1', 'r-new', '10 minutes'];
      const count = async () => (await db.query<{ n: number }>(REFUSALS_SQL, ask)).rows[0]?.n;
      // Minutes 1–9 back: 3 and 6 and 9 unknown, 5 already-paid (minute 10 is at the window's edge).
      const before = await count();
      assert.ok(before === 4 || before === 5, `refusals in the window: ${before}`);
      assert.doesNotMatch(await plan(db, ask), /ticket_redemptions_refused/);

      assert.deepEqual(await migrateUpstream(db, 12), [12]);
      assert.ok(UPSTREAM_LATEST >= 12);
      await db.query('ANALYZE ticket_redemptions');
      assert.match(await plan(db, ask), /ticket_redemptions_refused/);
      assert.doesNotMatch(await plan(db, ask), /Seq Scan|ticket_redemptions_pkey/);
      assert.equal(await count(), before);
    } finally {
      await db.close();
    }
  });
});
