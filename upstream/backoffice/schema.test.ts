// Migration 5: the back office's tables, and the database refusing to rewrite its audit log, its
// alarms' acknowledgements, or to delete an alarm, whoever asks (no route, no bug in one).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { migrateUpstream, UPSTREAM_LATEST } from '../migrations.js';
import { openPglite, type Db } from '../sql.js';
import { audit } from './audit.js';

describe('migration 5: back office', () => {
  let db: Db;
  before(async () => {
    db = await openPglite();
    assert.deepEqual(await migrateUpstream(db, 4), [1, 2, 3, 4]);
    assert.deepEqual(await migrateUpstream(db, 5), [5]);
    assert.ok(UPSTREAM_LATEST >= 5);
  });
  after(() => db.close());

  it('makes the users, sessions, audit log, acknowledgements and settings tables', async () => {
    const r = await db.query<{ t: string }>(
      `SELECT table_name AS t FROM information_schema.tables WHERE table_name IN
       ('backoffice_users', 'backoffice_sessions', 'audit_log', 'alarm_acks', 'backoffice_settings') ORDER BY 1`,
    );
    assert.deepEqual(
      r.rows.map((x) => x.t),
      ['alarm_acks', 'audit_log', 'backoffice_sessions', 'backoffice_settings', 'backoffice_users'],
    );
  });

  it('refuses UPDATE, DELETE and TRUNCATE of the audit log', async () => {
    await audit(db, { actor: 'ana', address: '10.0.0.1', action: 'sign-in' });
    await assert.rejects(db.query("UPDATE audit_log SET actor = 'mallory'"), /append-only/);
    await assert.rejects(db.query('DELETE FROM audit_log'), /append-only/);
    await assert.rejects(db.exec('TRUNCATE audit_log'), /append-only/);
    const r = await db.query<{ actor: string }>('SELECT actor FROM audit_log');
    assert.deepEqual(
      r.rows.map((x) => x.actor),
      ['ana'],
    );
  });

  it('keeps acknowledgements for good and never deletes an alarm (clearing one is allowed)', async () => {
    const a = await db.query<{ id: number }>("INSERT INTO alarms (terminal_id, kind, detail) VALUES ('T1', 'divergence', '{}') RETURNING id");
    const id = a.rows[0]?.id;
    await db.query("INSERT INTO alarm_acks (alarm_id, user_name, note) VALUES ($1, 'ana', 'seen, calling the technician')", [id]);
    await assert.rejects(db.query("UPDATE alarm_acks SET note = 'nothing'"), /append-only/);
    await assert.rejects(db.query('DELETE FROM alarm_acks'), /append-only/);
    await assert.rejects(db.exec('TRUNCATE alarm_acks'), /append-only/);
    await assert.rejects(db.query('DELETE FROM alarms WHERE id = $1', [id]), /append-only/);
    await db.query('UPDATE alarms SET cleared_at = now() WHERE id = $1', [id]);
    await assert.rejects(db.query("INSERT INTO alarm_acks (alarm_id, user_name, note) VALUES ($1, 'ana', '')", [id]), /check/i);
  });

  it('refuses a user with a role outside the four', async () => {
    await assert.rejects(db.query("INSERT INTO backoffice_users (name, role, password_hash) VALUES ('eve', 'root', 'x')"), /check/i);
  });
});
