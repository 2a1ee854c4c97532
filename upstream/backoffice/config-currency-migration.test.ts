// Migration 19: a configuration request keeps the currency of its amounts (the table's when it was
// proposed), so its order names it and a table in another currency refuses it. The requests written
// at 18 are kept as they were, with no currency (their orders stay v1); a currency is a code and an
// exponent together or neither; and the table stays append-only.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { enrolTerminal } from '../index.js';
import { migrateUpstream, UPSTREAM_LATEST } from '../migrations.js';
import { openPglite } from '../sql.js';
import { putUser } from './users.js';

const FAST = { N: 2 ** 10, r: 8, p: 1 };
const old = "INSERT INTO config_requests (terminal_id, key, after, authorisation, proposed_by) VALUES ('T1', 'limits', '{}'::jsonb, 'DICJ-2026/L', 'ana')";
const withCurrency =
  "INSERT INTO config_requests (terminal_id, key, after, authorisation, proposed_by, currency, currency_exponent) VALUES ('T1', 'creditLimit', '500000'::jsonb, 'DICJ-2026/CL', 'ana', $1, $2)";

describe('migration 19: a configuration request keeps the currency of its amounts', () => {
  it('adds the currency and its exponent, both or neither; the rows of before keep none', async () => {
    const db = await openPglite();
    try {
      await migrateUpstream(db, 18);
      await enrolTerminal(db, 'T1');
      await putUser(db, { name: 'ana', role: 'supervisor', password: 'correct horse battery', by: 'test' }, FAST);
      await db.query(old);
      await assert.rejects(db.query(withCurrency, ['MOP', 2]), /currency/);
      assert.deepEqual(await migrateUpstream(db, 19), [19]);
      assert.ok(UPSTREAM_LATEST >= 19);
      await db.query(withCurrency, ['MOP', 2]);
      await db.query(withCurrency, [null, null]);
      for (const [code, exponent] of [
        ['MOP', null],
        [null, 2],
        ['mop', 2],
        ['MOP', 5],
      ] as const)
        await assert.rejects(db.query(withCurrency, [code, exponent]), /check|violates/i, `${code} ${exponent}`);
      const r = await db.query<{ key: string; currency: string | null; currency_exponent: number | null }>(
        'SELECT key, currency, currency_exponent FROM config_requests ORDER BY id',
      );
      assert.deepEqual(
        r.rows.map((x) => [x.key, x.currency, x.currency_exponent]),
        [
          ['limits', null, null],
          ['creditLimit', 'MOP', 2],
          ['creditLimit', null, null],
        ],
      );
      await assert.rejects(db.query("UPDATE config_requests SET currency = 'HKD' WHERE currency = 'MOP'"), /append-only/);
    } finally {
      await db.close();
    }
  });
});
