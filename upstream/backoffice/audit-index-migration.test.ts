// Migration 22: the audit log by action and by actor (upstream/backoffice/audit.ts). Every refused
// sign-in is a row, and before 22 nothing indexed the log but its id: a page filtered by action
// read the log backwards row by row through every refusal to find the few it asked for.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { migrateUpstream, UPSTREAM_LATEST } from '../migrations.js';
import { openPglite, type Db } from '../sql.js';
import { AUDIT_ACTIONS, AUDIT_PAGE_SQL, auditPageAmongSql, auditTrail } from './audit.js';

async function plan(db: Db, params: unknown[]): Promise<string> {
  const r = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${AUDIT_PAGE_SQL}`, params);
  return r.rows.map((x) => x['QUERY PLAN']).join('\n');
}

describe('migration 22: the audit log by action and by actor', () => {
  it('applies on a database at 21 holding a flood; each page, filtered or not, reads an index, never the whole log', async () => {
    const db = await openPglite();
    try {
      await migrateUpstream(db, 21);
      await db.exec(
        `INSERT INTO audit_log (actor, address, action, detail)
         SELECT CASE WHEN i % 5000 = 0 THEN 'ana' ELSE 'guess' || (i % 50) END, '10.9.9.9',
           CASE WHEN i % 5000 = 0 THEN 'config.approve' ELSE 'sign-in.refused' END, '{}'::jsonb
         FROM generate_series(1, 50000) i`,
      );
      const before = await auditTrail(db, { action: 'config.approve', limit: 500 });
      assert.deepEqual(await migrateUpstream(db, 22), [22]);
      assert.ok(UPSTREAM_LATEST >= 22);
      assert.deepEqual(await auditTrail(db, { action: 'config.approve', limit: 500 }), before, 'the same rows');
      assert.equal(before.rows.length, 10);
      await db.exec('ANALYZE audit_log');
      const cases: [string, unknown[], RegExp][] = [
        ['the newest page', [null, null, null, 201], /Index Scan Backward using audit_log_pkey/],
        ['an older page', [null, null, 30000, 201], /Index Scan Backward using audit_log_pkey/],
        ['by action', ['config.approve', null, null, 201], /audit_log_by_action/],
        ['by action, older', ['config.approve', null, 30000, 201], /audit_log_by_action/],
        ['by actor', [null, 'ana', null, 201], /audit_log_by_actor/],
        ['by actor, older', [null, 'ana', 30000, 201], /audit_log_by_actor/],
      ];
      for (const [what, params, index] of cases) {
        const p = await plan(db, params);
        console.log(`${what}:\n${p}`);
        assert.match(p, index, what);
        // A filter's few rows may be fetched by a bitmap and sorted (the planner's choice): only those, never the log's.
        assert.doesNotMatch(p, /Seq Scan|Filter:/, what);
      }
      // Every action but the refused sign-ins: each other action's newest from its index, never the flood's rows.
      const others = AUDIT_ACTIONS.filter((a) => a !== 'sign-in.refused');
      for (const before of [null, 30000]) {
        const r = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${auditPageAmongSql(others.length)}`, [null, before, 201, ...others]);
        const p = r.rows.map((x) => x['QUERY PLAN']).join('\n');
        console.log(`every action but one, before ${before}:\n${p}`);
        assert.match(p, /audit_log_by_action/);
        assert.doesNotMatch(p, /Seq Scan on audit_log|Filter:/);
      }
      const allBut = await auditTrail(db, { notAction: 'sign-in.refused', limit: 500 });
      assert.deepEqual(allBut, before, 'the ten approvals, and no refused sign-in');
    } finally {
      await db.close();
    }
  });
});
