// Migration 9: a configuration request may change a table's rule profile. On a database at 8 a
// `profile` request is refused by the CHECK; after 9 it is taken, the other keys as before, and a
// key nobody allowed (the game) is still refused. The requests written at 8 are kept as they were.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { enrolTerminal } from '../index.js';
import { migrateUpstream, UPSTREAM_LATEST } from '../migrations.js';
import { openPglite } from '../sql.js';
import { putUser } from './users.js';

const FAST = { N: 2 ** 10, r: 8, p: 1 };
const insert = "INSERT INTO config_requests (terminal_id, key, after, authorisation, proposed_by) VALUES ('T1', $1, $2::jsonb, 'DICJ-2026/49', 'ana')";

describe('migration 9: a configuration request may change the rule profile', () => {
  it('widens the CHECK on key to profile, and to nothing else', async () => {
    const db = await openPglite();
    try {
      assert.deepEqual(await migrateUpstream(db, 8), [1, 2, 3, 4, 5, 6, 7, 8]);
      await enrolTerminal(db, 'T1');
      await putUser(db, { name: 'ana', role: 'supervisor', password: 'correct horse battery', by: 'test' }, FAST);
      await db.query(insert, ['limits', JSON.stringify({ min: 100, max: 1000 })]);
      await assert.rejects(db.query(insert, ['profile', JSON.stringify('macau-2004')]), /check/i);
      assert.deepEqual(await migrateUpstream(db, 9), [9]);
      assert.ok(UPSTREAM_LATEST >= 9);
      await db.query(insert, ['profile', JSON.stringify('macau-2004')]);
      await assert.rejects(db.query(insert, ['game', JSON.stringify('baccarat')]), /check/i);
      const r = await db.query<{ key: string; after: unknown }>('SELECT key, after FROM config_requests ORDER BY id');
      assert.deepEqual(
        r.rows.map((x) => [x.key, x.after]),
        [
          ['limits', { min: 100, max: 1000 }],
          ['profile', 'macau-2004'],
        ],
      );
      // Still append-only after the ALTER.
      await assert.rejects(db.query("UPDATE config_requests SET key = 'limits' WHERE key = 'profile'"), /append-only/);
    } finally {
      await db.close();
    }
  });
});
