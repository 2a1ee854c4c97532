// The audit log under a flood of refused sign-ins. Every refused sign-in is audited, and a client on
// the floor's network is held only to some 30 a minute per address (the throttle's 429s are
// audited too, and cost no scrypt, so a flood is cheap): before, GET /audit answered the
// newest 200 rows and nothing more, so within minutes every real action (a settings change, an
// approval, an acknowledgement) was off the page and no inspector could reach it. Now the log is read
// a page at a time, older pages by a cursor on the id, and filtered by action and by actor; a query
// the route did not mean (a limit out of range, a cursor that is no id, an action it does not know,
// SQL in a field) is a 400 and reads nothing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { kitOfSuite, post, signIn } from './backoffice-kit.js';

const Row = z.object({ id: z.number(), at: z.string(), actor: z.string().nullable(), address: z.string().nullable(), action: z.string(), detail: z.unknown() });
const Page = z.strictObject({ rows: z.array(Row), older: z.number().nullable() });
type Page = z.infer<typeof Page>;

const FLOOD = 260;

describe('the audit log under a flood of refused sign-ins', () => {
  const held = kitOfSuite('administrator');
  const read = async (query: string): Promise<Page> => {
    const r = await held.kit.app.inject({ method: 'GET', url: `/backoffice/api/audit${query}`, headers: { cookie: held.who.cookie } });
    assert.equal(r.statusCode, 200, `${query}: ${r.body}`);
    return Page.parse(r.json());
  };

  it('still reaches a real action, by its action, by its actor and by paging older', async () => {
    const { app } = held.kit;
    const changed = await post(app, held.who, '/backoffice/api/settings', { offlineLimitSeconds: 90 });
    assert.equal(changed.statusCode, 200, changed.body);
    for (let i = 0; i < FLOOD; i++) {
      const r = await app.inject({
        method: 'POST',
        url: '/backoffice/api/sign-in',
        payload: { name: 'guess', password: 'nope' },
        remoteAddress: '10.9.9.9',
      });
      assert.ok(r.statusCode === 401 || r.statusCode === 429, r.body);
    }
    const newest = await read('');
    assert.equal(newest.rows.length, 200, 'a page is 200 rows unless asked');
    assert.ok(
      newest.rows.every((r) => r.action === 'sign-in.refused'),
      'the flood fills the newest page',
    );
    assert.ok(newest.older !== null, 'and says there is an older page');

    const byAction = await read('?action=settings.change');
    assert.deepEqual(
      byAction.rows.map((r) => [r.action, r.actor]),
      [['settings.change', 'administrator']],
    );
    assert.equal(byAction.older, null, 'nothing older of that action');
    const byActor = await read('?actor=administrator&limit=10');
    assert.deepEqual(
      byActor.rows.map((r) => r.action),
      ['settings.change', 'sign-in'],
    );

    // Page on older from the newest, 50 at a time: each row once, ids falling, the real action reached.
    const seen: number[] = [];
    let cursor: number | null = null;
    let pages = 0;
    do {
      const page: Page = await read(`?limit=50${cursor === null ? '' : `&before=${cursor}`}`);
      assert.ok(page.rows.length <= 50);
      seen.push(...page.rows.map((r) => r.id));
      cursor = page.older;
      pages++;
    } while (cursor !== null && pages < 100);
    assert.deepEqual(
      seen,
      [...seen].sort((a, b) => b - a),
      'ids newest first across pages',
    );
    assert.equal(new Set(seen).size, seen.length, 'no row twice');
    const all = Number((await held.kit.db.query<{ n: number }>('SELECT COUNT(*)::int AS n FROM audit_log')).rows[0]?.n);
    assert.equal(seen.length, all, 'paging reaches every row');
    const settings = byAction.rows[0]?.id;
    assert.ok(settings !== undefined && seen.includes(settings), 'the settings change is on an older page');
    // The action and the cursor together: older than the settings change, there is none of its kind.
    assert.deepEqual((await read(`?action=settings.change&before=${settings}`)).rows, []);
  });

  it('leaves one action out: everything but the refused sign-ins, newest first, with the cursor and the actor', async () => {
    const { app } = held.kit;
    const changed = await post(app, held.who, '/backoffice/api/settings', { offlineLimitSeconds: 120 });
    assert.equal(changed.statusCode, 200, changed.body);
    const allBut = await read('?notAction=sign-in.refused&limit=500');
    assert.deepEqual(
      allBut.rows.map((r) => [r.action, r.actor]),
      [
        ['settings.change', 'administrator'],
        ['settings.change', 'administrator'],
        ['sign-in', 'administrator'],
        // The kit's four users, one a role.
        ...Array.from({ length: 4 }, () => ['user.add', 'test']),
      ],
    );
    assert.equal(allBut.older, null);
    const ids = allBut.rows.map((r) => r.id);
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => b - a),
      'newest first',
    );
    const older = await read(`?notAction=sign-in.refused&limit=1&before=${ids[0]}`);
    assert.deepEqual(
      older.rows.map((r) => r.id),
      [ids[1]],
      'older than the newest change: the one before it',
    );
    assert.equal(older.older, ids[1]);
    assert.deepEqual(
      (await read('?notAction=settings.change&actor=administrator')).rows.map((r) => r.action),
      ['sign-in'],
    );
  });

  it('refuses a hostile query with 400 and reads or writes nothing', async () => {
    const { app, db } = held.kit;
    const count = async () => Number((await db.query<{ n: number }>('SELECT COUNT(*)::int AS n FROM audit_log')).rows[0]?.n);
    const before = await count();
    const hostile = [
      '?limit=-1',
      '?limit=0',
      '?limit=501',
      '?limit=99999999999999999999',
      '?limit=1.5',
      '?limit=abc',
      '?before=abc',
      '?before=0',
      '?before=-5',
      '?before=1e3',
      '?before=0x10',
      '?before=99999999999999999999',
      '?before=1%20OR%201%3D1',
      '?action=nope',
      "?action=sign-in'%20OR%20'1'%3D'1",
      '?action=',
      '?notAction=nope',
      '?notAction=',
      "?notAction=sign-in'%20OR%20'1'%3D'1",
      '?notAction=sign-in&notAction=sign-out',
      '?action=sign-in&notAction=sign-out',
      `?actor=${'a'.repeat(65)}`,
      "?actor=x'%3B%20DROP%20TABLE%20audit_log%3B--",
      '?limit=10&limit=20',
      '?page=2',
    ];
    for (const q of hostile) {
      const r = await app.inject({ method: 'GET', url: `/backoffice/api/audit${q}`, headers: { cookie: held.who.cookie } });
      if (q.startsWith('?actor=x')) {
        // An actor is any name a sign-in was tried under: this one is read as a name, and none holds it.
        assert.equal(r.statusCode, 200, `${q}: ${r.body}`);
        assert.deepEqual(Page.parse(r.json()).rows, [], q);
        continue;
      }
      assert.equal(r.statusCode, 400, `${q}: ${r.statusCode} ${r.body.slice(0, 200)}`);
      assert.match(r.body, /querystring/, q);
      assert.doesNotMatch(r.body, /audit_log|SELECT|relation/i, q);
    }
    assert.equal(await count(), before, 'nothing was audited or written');
  });

  it('is the configurers’ only: a supervisor is refused', async () => {
    const { app } = held.kit;
    const sup = await signIn(app, 'supervisor');
    const r = await app.inject({ method: 'GET', url: '/backoffice/api/audit?action=sign-in', headers: { cookie: sup.cookie } });
    assert.equal(r.statusCode, 403, r.body);
  });
});
