// The upstream's entry points tried as an attacker would (issue 20): no anonymous administration
// from loopback, key rotation apart from the queries, rate limits that a forged X-Forwarded-For
// does not escape, forged terminal ids, and a captured signed request sent again.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Ledger, signRequest } from '../../ledger/index.js';
import { billCredit } from '../../ledger/fixtures.js';
import { AdminTokenError, checkTokens, migrateUpstream, openPglite, startUpstream, type Db, type RunningUpstream } from '../../upstream/index.js';

const ADMIN = 'admin-token-for-tests-0123456789';
const QUERY = 'query-token-for-tests-0123456789';
let db: Db;
let up: RunningUpstream;

before(async () => {
  db = await openPglite();
  await migrateUpstream(db);
  up = await startUpstream({ db, tokens: { admin: ADMIN, query: QUERY }, limits: { admin: 1000, query: 1000 } });
});
after(async () => {
  await up.close();
  await db.close();
});

const call = async (url: string, method: 'GET' | 'POST', route: string, headers: Record<string, string> = {}, body?: unknown) => {
  const r = await fetch(`${url}${route}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: r.status, headers: r.headers, json: (await r.json()) as Record<string, unknown> };
};
const bearer = (t: string) => ({ authorization: `Bearer ${t}` });
const terminals = async () => (await db.query<{ terminal_id: string }>('SELECT terminal_id FROM terminals ORDER BY 1')).rows.map((r) => r.terminal_id);

const ledgers = new Map<string, Ledger>();
after(() => ledgers.forEach((l) => l.close()));

/** Entry `seq` of `terminal`'s journal (one kept ledger per terminal) as a batch, signed with `key` as `signer`. */
function signedBatch(terminal: string, signer: string, key: string, seq = 1) {
  const l = ledgers.get(terminal) ?? Ledger.open({ file: ':memory:', terminalId: terminal });
  ledgers.set(terminal, l);
  while (l.headOf().seq < seq) l.append(billCredit(1, 10_000, `n${l.headOf().seq + 1}`));
  const e = l.entry(seq)!;
  const body = JSON.stringify({ terminalId: terminal, prevHash: e.prevHash, entries: [{ seq: e.seq, hash: e.hash, body: e.body }] });
  const ts = Date.now();
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'x-etg-terminal': signer,
      'x-etg-timestamp': String(ts),
      'x-etg-signature': signRequest(Buffer.from(key, 'base64'), 'POST', '/v1/ingest', signer, ts, body),
    },
  };
}
const ingest = async (b: { body: string; headers: Record<string, string> }) => {
  const r = await fetch(`${up.url}/v1/ingest`, { method: 'POST', headers: b.headers, body: b.body });
  return { status: r.status, json: (await r.json()) as Record<string, unknown> };
};

describe('upstream admin credential', () => {
  it('refuses enrol, rotate and every query from loopback without a credential, a wrong one, or a forged forwarding header', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { 'x-forwarded-for': '127.0.0.1' },
      bearer(''),
      bearer('x'),
      bearer(`${ADMIN}x`),
      bearer(ADMIN.slice(0, -1)),
      { authorization: `Basic ${Buffer.from(`admin:${ADMIN}`).toString('base64')}` },
      { authorization: ADMIN },
    ];
    for (const h of attempts) {
      assert.equal((await call(up.url, 'POST', '/v1/admin/terminals', h, { terminalId: 'T-01' })).status, 403, JSON.stringify(h));
      assert.equal((await call(up.url, 'POST', '/v1/admin/terminals/T-01/rotate-key', h)).status, 403);
      for (const q of [
        '/v1/terminals',
        '/v1/terminals/T-01/entries',
        '/v1/terminals/T-01/meters',
        '/v1/terminals/T-01/rounds',
        '/v1/terminals/T-01/verify',
        '/v1/terminals/T-01/gaps',
        '/v1/alarms',
      ]) {
        assert.equal((await call(up.url, 'GET', q, h)).status, 403, `${q} ${JSON.stringify(h)}`);
      }
    }
    assert.deepEqual(await terminals(), [], 'nothing was enrolled');
    // The health check alone is open, and tells nothing secret.
    assert.deepEqual((await call(up.url, 'GET', '/healthz')).json, { ok: true, database: 'pglite' });
  });

  it('a service started without tokens refuses every admin and query call, loopback included', async () => {
    const bare = await startUpstream({ db });
    try {
      for (const h of [{}, bearer(ADMIN)]) {
        assert.equal((await call(bare.url, 'POST', '/v1/admin/terminals', h, { terminalId: 'T-09' })).status, 403);
        assert.equal((await call(bare.url, 'GET', '/v1/terminals', h)).status, 403);
      }
      assert.ok(!(await terminals()).includes('T-09'));
    } finally {
      await bare.close();
    }
  });

  it('`etg upstream serve` will not start without an admin token, or with a guessable one', () => {
    // On PostgreSQL there is no data folder to keep a token in (an embedded upstream makes its own:
    // tests/sync/upstream-first-run.test.ts). The timeouts make a start that should not happen fail
    // rather than hang.
    const cli = [path.resolve('bin/etg.js'), 'upstream', '--pg', 'postgres://127.0.0.1:1/never-opened', '--listen', '127.0.0.1:0'];
    const env = { ...process.env, UPSTREAM_ADMIN_TOKEN: '' };
    const none = spawnSync(process.execPath, cli, { encoding: 'utf8', env, timeout: 30_000 });
    assert.equal(none.status, 2, none.stderr);
    assert.match(none.stderr, /admin token is required/);
    const short = spawnSync(process.execPath, cli, { encoding: 'utf8', env: { ...env, UPSTREAM_ADMIN_TOKEN: 'secret' }, timeout: 30_000 });
    assert.equal(short.status, 2, short.stderr);
    assert.match(short.stderr, /at least 24 characters/);
    assert.throws(() => checkTokens({ admin: ADMIN, query: ADMIN }), AdminTokenError);
  });

  it('keeps key issuing apart from queries: the query token reads but cannot enrol or rotate; rotation is its own route and kills the old key at once', async () => {
    assert.equal((await call(up.url, 'POST', '/v1/admin/terminals', bearer(QUERY), { terminalId: 'T-01' })).status, 403);
    const enrolled = await call(up.url, 'POST', '/v1/admin/terminals', bearer(ADMIN), { terminalId: 'T-01' });
    assert.equal(enrolled.status, 200);
    assert.equal(enrolled.headers.get('cache-control'), 'no-store');
    const key1 = String(enrolled.json.key);
    assert.equal((await call(up.url, 'GET', '/v1/terminals', bearer(QUERY))).status, 200);
    // The old `rotate` flag on the enrol route no longer issues a key: an unknown field, refused.
    const viaEnrol = await call(up.url, 'POST', '/v1/admin/terminals', bearer(ADMIN), { terminalId: 'T-01', rotate: true });
    assert.equal(viaEnrol.status, 400);
    assert.equal(viaEnrol.json.key, undefined);
    assert.equal((await call(up.url, 'POST', '/v1/admin/terminals/T-01/rotate-key', bearer(QUERY))).status, 403);
    assert.equal((await ingest(signedBatch('T-01', 'T-01', key1))).status, 200, 'the first key works (and is now cached)');
    const rotated = await call(up.url, 'POST', '/v1/admin/terminals/T-01/rotate-key', bearer(ADMIN));
    assert.equal(rotated.status, 200);
    const key2 = String(rotated.json.key);
    assert.notEqual(key2, key1);
    assert.equal(
      (await ingest(signedBatch('T-01', 'T-01', key1, 2))).json.error,
      'bad-signature',
      'the old key is refused at once, not after the cache lifetime',
    );
    assert.equal((await ingest(signedBatch('T-01', 'T-01', key2, 2))).status, 200);
    assert.equal((await call(up.url, 'POST', '/v1/admin/terminals/..%2Fx/rotate-key', bearer(ADMIN))).status, 400);
  });
});

describe('upstream rate limits', () => {
  it('stops token guessing after the admin limit, and a forged X-Forwarded-For does not open a new bucket unless the proxy is trusted', async () => {
    const strict = await startUpstream({ db, tokens: { admin: ADMIN }, limits: { admin: 3, query: 3 } });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 5; i++) {
        codes.push(
          (await call(strict.url, 'POST', '/v1/admin/terminals', { ...bearer(`guess-${i}`), 'x-forwarded-for': `10.0.0.${i}` }, { terminalId: 'G' })).status,
        );
      }
      assert.deepEqual(codes, [403, 403, 403, 429, 429]);
      // Even the right token waits out the window: the limit counts before the credential.
      assert.equal((await call(strict.url, 'POST', '/v1/admin/terminals', bearer(ADMIN), { terminalId: 'G' })).status, 429);
      // Queries have their own bucket.
      assert.equal((await call(strict.url, 'GET', '/v1/terminals', bearer(ADMIN))).status, 200);
    } finally {
      await strict.close();
    }
    const proxied = await startUpstream({ db, tokens: { admin: ADMIN }, limits: { query: 2 }, trustProxy: ['127.0.0.1'] });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 3; i++) codes.push((await call(proxied.url, 'GET', '/v1/terminals', { ...bearer(ADMIN), 'x-forwarded-for': '10.0.0.1' })).status);
      for (let i = 0; i < 2; i++) codes.push((await call(proxied.url, 'GET', '/v1/terminals', { ...bearer(ADMIN), 'x-forwarded-for': '10.0.0.2' })).status);
      assert.deepEqual(codes, [200, 200, 429, 200, 200], 'behind a trusted proxy each client has its own bucket');
    } finally {
      await proxied.close();
    }
  });
});

describe('upstream ingest attacks', () => {
  it('refuses a forged terminal id: another terminal named in the header, in the body, or an id that is not one', async () => {
    const a = await call(up.url, 'POST', '/v1/admin/terminals', bearer(ADMIN), { terminalId: 'F-A' });
    await call(up.url, 'POST', '/v1/admin/terminals', bearer(ADMIN), { terminalId: 'F-B' });
    const keyA = String(a.json.key);
    assert.equal((await ingest(signedBatch('F-B', 'F-B', keyA))).json.error, 'bad-signature', "A's key cannot sign as B");
    const foreign = await ingest(signedBatch('F-B', 'F-A', keyA));
    assert.equal(foreign.status, 403);
    assert.equal(foreign.json.error, 'foreign-stream');
    for (const bad of ['', 'f-a', 'F-C', '../F-A', 'x'.repeat(65), 'F A']) {
      const b = signedBatch('F-A', 'F-A', keyA);
      const r = await ingest({ body: b.body, headers: { ...b.headers, 'x-etg-terminal': bad } }).catch((e: unknown) => ({
        status: 0,
        json: { error: String(e) },
      }));
      // fetch itself refuses a newline in a header value; every other forgery reaches the service and is refused.
      assert.ok(r.status === 401 || (bad.includes('\n') && r.status === 0), `${JSON.stringify(bad)} → ${r.status}`);
    }
    const stored = await db.query<{ n: number }>("SELECT COUNT(*)::int AS n FROM journal WHERE terminal_id IN ('F-A', 'F-B')");
    assert.equal(stored.rows[0]?.n, 0);
    // The back office's sweep (every 5 s) raises table-offline for a table never heard from: not the stream's, and when it lands is the timer's.
    const alarms = await db.query<{ kind: string }>("SELECT kind FROM alarms WHERE terminal_id = 'F-A' AND kind <> 'table-offline'");
    assert.deepEqual(
      alarms.rows.map((r) => r.kind),
      ['foreign-stream'],
    );
  });

  it('refuses a captured signed request sent again, answering with the head so a duplicating network path does not block the kiosk', async () => {
    const r = await call(up.url, 'POST', '/v1/admin/terminals', bearer(ADMIN), { terminalId: 'R-1' });
    const captured = signedBatch('R-1', 'R-1', String(r.json.key));
    const first = await ingest(captured);
    assert.equal(first.status, 200);
    for (let i = 0; i < 3; i++) {
      const again = await ingest(captured);
      assert.equal(again.status, 409);
      assert.equal(again.json.error, 'replay');
      assert.equal(again.json.ackedSeq, 1);
      assert.equal(again.json.headHash, first.json.headHash);
    }
    const n = await db.query<{ n: number }>("SELECT COUNT(*)::int AS n FROM journal WHERE terminal_id = 'R-1'");
    assert.equal(n.rows[0]?.n, 1);
    // A refused (badly signed) request does not poison its signature for the real one.
    const real = signedBatch('R-1', 'R-1', String(r.json.key), 2);
    const tampered = { body: real.body.replace('"seq":2', '"seq":3'), headers: real.headers };
    assert.equal((await ingest(tampered)).json.error, 'bad-signature');
    assert.equal((await ingest(real)).status, 200);
  });
});
