// The upstream's own rate limits behind a trusted proxy (docs/upstream.md, "Credentials, proxies
// and rate limits"). req.ip is then what the proxy's X-Forwarded-For says, as written: some proxies
// write the client's port, a new one each connection, or an IPv4 client as IPv4-mapped IPv6. The
// back office's sign-in reads the address through node:net (clientOf, 5cf0a429); the ingest,
// ticket, query and admin limits keyed on req.ip as written, so one client opening a connection per
// request had a fresh bucket for each, and the limits held nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildServer, migrateUpstream, openPglite, type Db } from '../../upstream/index.js';

const PROXY = '10.0.0.5';
const ADMIN = 'admin-token-for-tests-0123456789';

describe("the upstream's rate limits through a proxy that writes the client's port", () => {
  let db: Db;
  let app: Awaited<ReturnType<typeof buildServer>>;
  before(async () => {
    db = await openPglite();
    await migrateUpstream(db);
    app = await buildServer({ db, tokens: { admin: ADMIN }, trustProxy: [PROXY], limits: { ingest: 3, tickets: 3, admin: 3, query: 3 }, backoffice: false });
  });
  after(async () => {
    await app.close();
    await db.close();
  });

  /** Four calls of `url`, the i-th from `forwarded(i)` through the proxy: their codes. */
  const four = async (method: 'GET' | 'POST', url: string, forwarded: (i: number) => string, headers: Record<string, string> = {}) => {
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await app.inject({
        method,
        url,
        headers: { 'x-forwarded-for': forwarded(i), ...headers },
        remoteAddress: PROXY,
        ...(method === 'POST' ? { payload: {} } : {}),
      });
      codes.push(r.statusCode);
    }
    return codes;
  };

  const routes = [
    ['ingest', 'POST', '/v1/ingest', {}],
    ['ticket', 'POST', '/v1/tickets/issue', {}],
    ['admin', 'POST', '/v1/admin/terminals', { authorization: 'Bearer guess' }],
    ['query', 'GET', '/v1/terminals', { authorization: 'Bearer guess' }],
  ] as const;
  const clients = [
    ['IPv4 with a port', (n: number) => (i: number) => `203.0.113.${n}:${40_000 + i}`],
    ['IPv6 with a port', (n: number) => (i: number) => `[2001:db8:7:${n}::5]:${40_000 + i}`],
    [
      'IPv4, plain and mapped',
      (n: number) => (i: number) =>
        [`198.51.100.${n}`, `::ffff:198.51.100.${n}`, `[::ffff:198.51.100.${n}]:9`, `::ffff:c633:64${n.toString(16).padStart(2, '0')}`][i] ?? '',
    ],
  ] as const;
  let n = 0;
  for (const [name, method, url, headers] of routes)
    for (const [form, forwarded] of clients) {
      const at = forwarded(++n);
      it(`the ${name} limit counts one client written ${form} as one`, async () => {
        const codes = await four(method, url, at, headers);
        assert.equal(codes.at(-1), 429, codes.join(' '));
        assert.ok(
          codes.slice(0, 3).every((c) => c !== 429),
          codes.join(' '),
        );
      });
    }
});
