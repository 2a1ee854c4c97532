// Migration 18: a configuration request may change a table's station credit limit. On a database at
// 17 a `creditLimit` request is refused by the CHECK on key; after 18 it is taken, the other keys as
// before, and a key nobody allowed (the handpay threshold) is still refused. The requests written at
// 17 are kept as they were, and the table stays append-only.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { enrolTerminal } from '../index.js';
import { migrateUpstream, UPSTREAM_LATEST } from '../migrations.js';
import { openPglite } from '../sql.js';
import { putUser } from './users.js';

const FAST = { N: 2 ** 10, r: 8, p: 1 };
const insert = "INSERT INTO config_requests (terminal_id, key, after, authorisation, proposed_by) VALUES ('T1', $1, $2::jsonb, 'DICJ-2026/CL', 'ana')";

describe('migration 18: a configuration request may change the station credit limit', () => {
  it('widens the CHECK on key to creditLimit, and to nothing else', async () => {
    const db = await openPglite();
    try {
      await migrateUpstream(db, 17);
      await enrolTerminal(db, 'T1');
      await putUser(db, { name: 'ana', role: 'supervisor', password: 'correct horse battery', by: 'test' }, FAST);
      await db.query(insert, ['profile', JSON.stringify('macau-2004')]);
      await assert.rejects(db.query(insert, ['creditLimit', '500000']), /check/i);
      assert.deepEqual(await migrateUpstream(db, 18), [18]);
      assert.ok(UPSTREAM_LATEST >= 18);
      await db.query(insert, ['creditLimit', '500000']);
      for (const key of ['limits', 'betLimits', 'profileOptions']) await db.query(insert, [key, '{}']);
      await assert.rejects(db.query(insert, ['handpayTwoPersonAbove', '1000']), /check/i);
      const r = await db.query<{ key: string; after: unknown }>('SELECT key, after FROM config_requests ORDER BY id');
      assert.deepEqual(
        r.rows.map((x) => [x.key, x.after]),
        [
          ['profile', 'macau-2004'],
          ['creditLimit', 500_000],
          ['limits', {}],
          ['betLimits', {}],
          ['profileOptions', {}],
        ],
      );
      await assert.rejects(db.query("UPDATE config_requests SET after = '1'::jsonb WHERE key = 'creditLimit'"), /append-only/);
    } finally {
      await db.close();
    }
  });
});
