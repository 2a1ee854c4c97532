// The back office's round evidence (issue 49): GET /backoffice/api/tables/:id/rounds/:round/evidence
// answers one round's evidence bundle, equal to the table's own, to a signed-in user whose role
// reads evidence; refuses a viewer, a stranger, a round of another table, an unknown round or table,
// and a round id that is no round id, each by name; audits every read. On the embedded PGlite and on
// a PostgreSQL cluster of its own (PostgreSQL missing is a failure, not a skip, as in pg.test.ts).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { evidenceBundle, Ledger, SyncClient } from '../../ledger/index.js';
import { billCredit, settledRound } from '../../ledger/fixtures.js';
import {
  connectPg,
  enrolTerminal,
  migrateUpstream,
  openPglite,
  putUser,
  startLocalCluster,
  startUpstream,
  type Db,
  type LocalCluster,
} from '../../upstream/index.js';
import { signInHttp } from './backoffice-http.js';

const FAST = { N: 2 ** 10, r: 8, p: 1 };
const PASSWORD = 'correct horse battery';
const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);

for (const kind of ['pglite', 'postgresql'] as const) {
  describe(`back office: a round's evidence bundle (${kind})`, () => {
    let cluster: LocalCluster | undefined;
    let db: Db;
    let up: Awaited<ReturnType<typeof startUpstream>>;
    const ledgers: Record<string, Ledger> = {};
    const cookies: Record<string, string> = {};
    before(async () => {
      if (kind === 'postgresql') {
        cluster = await startLocalCluster();
        db = connectPg(cluster.url);
      } else db = await openPglite();
      await migrateUpstream(db);
      for (const role of ['viewer', 'supervisor', 'accounting'] as const) await putUser(db, { name: role, role, password: PASSWORD, by: 'test' }, FAST);
      up = await startUpstream({ db, backoffice: { now: () => NOW } });
      for (const [terminal, round] of [
        ['T1', 'T1-r1'],
        ['T2', 'T2-r1'],
      ] as const) {
        const ledger = Ledger.open({ file: ':memory:', terminalId: terminal });
        for (const s of [1, 2]) ledger.append(billCredit(s, 10_000, `${terminal}-b${s}`));
        const { bets, settle } = settledRound(round, [1, 2], 100);
        ledger.appendMany([...bets, settle]);
        ledgers[terminal] = ledger;
        const cred = await enrolTerminal(db, terminal, false);
        const client = new SyncClient(ledger, { url: up.url, credentials: { ...cred, upstream: up.url } });
        while ((await client.syncOnce()) === 'sent');
      }
      for (const name of ['viewer', 'supervisor', 'accounting']) {
        cookies[name] = (await signInHttp(up.url, name, PASSWORD)).cookie;
      }
    });
    after(async () => {
      for (const l of Object.values(ledgers)) l.close();
      await up?.close();
      await db?.close();
      cluster?.destroy();
    });

    const get = (who: string | null, path: string) =>
      fetch(`${up.url}/backoffice/api${path}`, { headers: who ? { cookie: cookies[who] ?? '' } : {} }).then(async (r) => ({
        status: r.status,
        headers: r.headers,
        body: (await r.json()) as Record<string, unknown>,
      }));

    it("answers a supervisor and accounting the round's bundle, equal to the table's own; download=1 names it by table and round", async () => {
      const kiosk = evidenceBundle(ledgers.T1 as Ledger, 'T1-r1', new Date(NOW));
      for (const who of ['supervisor', 'accounting']) {
        const r = await get(who, '/tables/T1/rounds/T1-r1/evidence');
        assert.equal(r.status, 200, JSON.stringify(r.body));
        assert.deepEqual(r.body, JSON.parse(JSON.stringify(kiosk)));
        assert.equal(r.headers.get('content-disposition'), null, 'shown, not downloaded, unless asked');
      }
      const d = await get('supervisor', '/tables/T1/rounds/T1-r1/evidence?download=1');
      assert.equal(d.status, 200);
      assert.equal(d.headers.get('content-disposition'), 'attachment; filename="evidence-T1-T1-r1.json"');
    });

    it('refuses a viewer (its role reads no evidence) and a stranger, by name', async () => {
      const v = await get('viewer', '/tables/T1/rounds/T1-r1/evidence');
      assert.deepEqual([v.status, v.body.error], [403, 'role']);
      const n = await get(null, '/tables/T1/rounds/T1-r1/evidence');
      assert.deepEqual([n.status, n.body.error], [401, 'signed-out']);
    });

    it('refuses a round of another table, an unknown round and an unknown table, each by name', async () => {
      const other = await get('supervisor', '/tables/T1/rounds/T2-r1/evidence');
      assert.deepEqual([other.status, other.body.error], [404, 'round-of-another-table']);
      const unknown = await get('supervisor', '/tables/T1/rounds/T1-r9/evidence');
      assert.deepEqual([unknown.status, unknown.body.error], [404, 'no-round']);
      const table = await get('supervisor', '/tables/T9/rounds/T1-r1/evidence');
      assert.deepEqual([table.status, table.body.error], [404, 'no-table']);
    });

    it('refuses a round id that is no round id before any query: a path, a quote, a NUL, another query field; past 100 characters the router', async () => {
      for (const round of ['..%2F..%2Fx', "T1-r1'%20OR%20'1'%3D'1", '%00', 'T1%20r1']) {
        const r = await get('supervisor', `/tables/T1/rounds/${round}/evidence`);
        assert.equal(r.status, 400, `${round}: ${JSON.stringify(r.body)}`);
      }
      const extra = await get('supervisor', '/tables/T1/rounds/T1-r1/evidence?download=yes');
      assert.equal(extra.status, 400);
      // Fastify's parameters end at 100 characters (maxParamLength): a longer one is refused by the
      // router, as 414 URI Too Long, or 404 where the route tree's backtracking ends without a match
      // (which one depends on the routes registered beside it: 404 was seen when this test was
      // written, 414 on main after later routes landed).
      const long = await get('supervisor', `/tables/T1/rounds/${'x'.repeat(101)}/evidence`);
      assert.ok([404, 414].includes(long.status), String(long.status));
      assert.notEqual(long.body.error, 'no-round', 'refused by the router, not looked up');
      const audited = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM audit_log WHERE action = 'round.evidence' AND detail->>'round' NOT IN ('T1-r1', 'T2-r1', 'T1-r9')",
      );
      assert.equal(audited.rows[0]?.n, 0, 'no malformed round id reached a query or the audit log');
    });

    it('audits every read and every refusal with who asked, for which table and round', async () => {
      const rows = await db.query<{ actor: string; action: string; detail: { terminal: string; round: string; refused?: string } }>(
        "SELECT actor, action, detail FROM audit_log WHERE action = 'round.evidence' ORDER BY id",
      );
      assert.ok(rows.rows.some((r) => r.actor === 'supervisor' && r.detail.terminal === 'T1' && r.detail.round === 'T1-r1' && !r.detail.refused));
      assert.ok(rows.rows.some((r) => r.actor === 'accounting' && r.detail.round === 'T1-r1'));
      assert.ok(rows.rows.some((r) => r.detail.round === 'T2-r1' && r.detail.refused === 'round-of-another-table'));
      assert.ok(!rows.rows.some((r) => r.actor === 'viewer'), 'a refused role reads nothing, so there is nothing of it to audit here');
    });
  });
}
