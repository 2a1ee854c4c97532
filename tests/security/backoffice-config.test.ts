// Configuration from the floor under attack (issue 49 item 6): a viewer and accounting reaching for
// a table's limits, a supervisor approving their own change (through the route and straight into
// the database), a second approval, a request without the regulator's reference, and the record
// rewritten afterwards. Each against the real routes and schema, on the embedded PGlite and on a
// PostgreSQL cluster of its own, with the same assertions.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { enrolTerminal, putUser } from '../../upstream/index.js';
import { disableUser } from '../../upstream/backoffice/users.js';
import { backofficeKit, FAST, PASSWORD, post, signIn, type BackofficeKit } from './backoffice-kit.js';
import { DATABASES } from '../sync/upstream-databases.js';

const LIMITS = { key: 'limits', after: { min: 20_000, max: 1_000_000 }, authorisation: 'DICJ-2026/49', note: 'evening limits' };

for (const kind of DATABASES) {
  describe(`back office: a table configuration change needs two people (${kind})`, () => {
    let kit: BackofficeKit;
    before(async () => {
      kit = await backofficeKit({ database: kind });
      await enrolTerminal(kit.db, 'T1');
    });
    after(() => kit?.close());

    const requests = async () => (await kit.db.query<{ id: number }>('SELECT id FROM config_requests')).rows.length;

    it('a viewer and accounting can neither propose nor approve', async () => {
      for (const name of ['viewer', 'accounting']) {
        const who = await signIn(kit.app, name);
        const r = await post(kit.app, who, '/backoffice/api/tables/T1/config-requests', LIMITS);
        assert.equal(r.statusCode, 403, r.body);
        assert.equal(r.json().error, 'role');
      }
      assert.equal(await requests(), 0);
      const supervisor = await signIn(kit.app, 'supervisor');
      const made = await post(kit.app, supervisor, '/backoffice/api/tables/T1/config-requests', LIMITS);
      assert.equal(made.statusCode, 200, made.body);
      const id = made.json().id;
      for (const name of ['viewer', 'accounting']) {
        const who = await signIn(kit.app, name);
        assert.equal((await post(kit.app, who, `/backoffice/api/config-requests/${id}/approve`)).statusCode, 403);
        assert.equal((await post(kit.app, who, `/backoffice/api/config-requests/${id}/withdraw`)).statusCode, 403);
      }
      // A viewer may still see it, as they see the floor.
      const viewer = await signIn(kit.app, 'viewer');
      const list = await kit.app.inject({ method: 'GET', url: '/backoffice/api/config-requests?terminal=T1', headers: { cookie: viewer.cookie } });
      assert.deepEqual(
        list.json().map((r: { id: number; state: string }) => [r.id, r.state]),
        [[id, 'proposed']],
      );
    });

    it('the same person cannot approve their own change, nor can the database be made to; a second person can, once', async () => {
      const supervisor = await signIn(kit.app, 'supervisor');
      const made = await post(kit.app, supervisor, '/backoffice/api/tables/T1/config-requests', LIMITS);
      const id: number = made.json().id;
      const own = await post(kit.app, supervisor, `/backoffice/api/config-requests/${id}/approve`);
      assert.equal(own.statusCode, 403, own.body);
      assert.equal(own.json().error, 'same-person');
      // Another session of the same user is the same person.
      const again = await signIn(kit.app, 'supervisor', undefined, '10.9.9.9');
      assert.equal((await post(kit.app, again, `/backoffice/api/config-requests/${id}/approve`)).json().error, 'same-person');
      await assert.rejects(
        kit.db.query("INSERT INTO config_request_steps (request_id, step, by_name) VALUES ($1, 'approved', 'supervisor')", [id]),
        /may not approve/,
      );
      const admin = await signIn(kit.app, 'administrator');
      const ok = await post(kit.app, admin, `/backoffice/api/config-requests/${id}/approve`);
      assert.equal(ok.statusCode, 200, ok.body);
      assert.deepEqual([ok.json().state, ok.json().proposedBy, ok.json().approvedBy], ['approved', 'supervisor', 'administrator']);
      assert.equal((await post(kit.app, admin, `/backoffice/api/config-requests/${id}/approve`)).statusCode, 409);
      assert.equal((await post(kit.app, supervisor, `/backoffice/api/config-requests/${id}/withdraw`)).statusCode, 409, 'approved: no longer withdrawn');
      const audit = await kit.db.query<{ actor: string; action: string }>(
        "SELECT actor, action FROM audit_log WHERE action LIKE 'config.%' AND (detail->>'request')::bigint = $1 ORDER BY id",
        [id],
      );
      assert.deepEqual(
        audit.rows.map((r) => `${r.actor} ${r.action}`),
        ['supervisor config.propose', 'administrator config.approve'],
      );
      // The record stays as it was written.
      await assert.rejects(kit.db.query("UPDATE config_requests SET after = '{}' WHERE id = $1", [id]), /append-only/);
      await assert.rejects(kit.db.query('DELETE FROM config_request_steps WHERE request_id = $1', [id]), /append-only/);
    });

    it('a request whose proposer may no longer propose (another role, or disabled) cannot be approved (a review of 4 December)', async () => {
      // Before: approved, and the value signed and sent to the table under the proposer's name.
      await putUser(kit.db, { name: 'sam', role: 'supervisor', password: PASSWORD, by: 'test' }, FAST);
      await putUser(kit.db, { name: 'ana', role: 'supervisor', password: PASSWORD, by: 'test' }, FAST);
      const administrator = await signIn(kit.app, 'administrator');
      for (const change of ['role', 'disabled'] as const) {
        const sam = await signIn(kit.app, 'sam');
        const made = await post(kit.app, sam, '/backoffice/api/tables/T1/config-requests', LIMITS);
        assert.equal(made.statusCode, 200, made.body);
        if (change === 'role') await putUser(kit.db, { name: 'sam', role: 'viewer', password: PASSWORD, replace: true, by: 'test' }, FAST);
        else await disableUser(kit.db, 'sam', 'test');
        const approve = await post(kit.app, administrator, `/backoffice/api/config-requests/${made.json().id}/approve`);
        assert.equal(approve.statusCode, 409, `${change}: ${approve.body}`);
        assert.equal(approve.json().error, 'proposer-gone');
        if (change === 'role') await putUser(kit.db, { name: 'sam', role: 'supervisor', password: PASSWORD, replace: true, by: 'test' }, FAST);
      }
      // A proposer who still may: approved.
      const ana = await signIn(kit.app, 'ana');
      const fine = await post(kit.app, ana, '/backoffice/api/tables/T1/config-requests', LIMITS);
      assert.equal((await post(kit.app, administrator, `/backoffice/api/config-requests/${fine.json().id}/approve`)).statusCode, 200);
    });

    it('a withdrawn request cannot be approved', async () => {
      const supervisor = await signIn(kit.app, 'supervisor');
      const id: number = (await post(kit.app, supervisor, '/backoffice/api/tables/T1/config-requests', LIMITS)).json().id;
      assert.equal((await post(kit.app, supervisor, `/backoffice/api/config-requests/${id}/withdraw`)).json().state, 'withdrawn');
      const admin = await signIn(kit.app, 'administrator');
      assert.equal((await post(kit.app, admin, `/backoffice/api/config-requests/${id}/approve`)).statusCode, 409);
    });

    it("a request without the regulator's reference, with limits upside down, or for no such table is refused", async () => {
      const supervisor = await signIn(kit.app, 'supervisor');
      const before = await requests();
      const bad = [
        { ...LIMITS, authorisation: ' ' },
        { ...LIMITS, after: { min: 500_000, max: 100_000 } },
        { ...LIMITS, after: { min: 0.5, max: 100_000 } },
        { ...LIMITS, key: 'profile' },
      ];
      for (const body of bad)
        assert.equal((await post(kit.app, supervisor, '/backoffice/api/tables/T1/config-requests', body)).statusCode, 400, JSON.stringify(body));
      assert.equal((await post(kit.app, supervisor, '/backoffice/api/tables/NOPE/config-requests', LIMITS)).statusCode, 404);
      assert.equal(await requests(), before);
    });
  });
}
