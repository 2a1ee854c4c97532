// The back office behind a TLS proxy (docs/upstream.md, "Credentials, proxies and rate limits"):
// the browser's Origin names the host it asked (the proxy's), and the request reaches the upstream
// with the proxy's own Host. The same-origin check reads the host the proxy says the browser asked
// (X-Forwarded-Host) when, and only when, the request comes from a proxy the service trusts: a peer
// it does not trust cannot name the host its Origin is compared with.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildServer, putUser } from '../../upstream/index.js';
import { openDatabase } from '../sync/upstream-databases.js';
import { FAST, PASSWORD } from './backoffice-kit.js';

const PROXY = '10.0.0.5';
const SITE = 'backoffice.casino.example';

describe('back office behind a trusted proxy', () => {
  let app: Awaited<ReturnType<typeof buildServer>>;
  let close: () => Promise<void>;
  before(async () => {
    const opened = await openDatabase('pglite');
    await putUser(opened.db, { name: 'ana', role: 'supervisor', password: PASSWORD, by: 'test' }, FAST);
    app = await buildServer({ db: opened.db, trustProxy: [PROXY], backoffice: { signInPerMinute: 10_000, hosts: [SITE] } });
    close = async () => {
      await app.close();
      await opened.close();
    };
  });
  after(() => close());

  const fromBrowser = (remoteAddress: string, forwardedHost: string) => ({
    host: '127.0.0.1:8787',
    origin: `https://${SITE}`,
    'x-forwarded-host': forwardedHost,
    'x-forwarded-proto': 'https',
    'x-forwarded-for': '192.0.2.10',
    remoteAddress,
  });

  const signInAndSignOut = async (remoteAddress: string, forwardedHost: string) => {
    const { remoteAddress: _, ...headers } = fromBrowser(remoteAddress, forwardedHost);
    const r = await app.inject({ method: 'POST', url: '/backoffice/api/sign-in', payload: { name: 'ana', password: PASSWORD }, headers, remoteAddress });
    if (r.statusCode !== 200) return { signIn: r.statusCode, signOut: null };
    const cookie = String(r.headers['set-cookie']).split(';')[0] ?? '';
    const csrf = String(r.json().csrf);
    const out = await app.inject({ method: 'POST', url: '/backoffice/api/sign-out', headers: { ...headers, cookie, 'x-csrf-token': csrf }, remoteAddress });
    return { signIn: r.statusCode, signOut: out.statusCode };
  };

  it("takes the page's own requests through the proxy: the host it says the browser asked", async () => {
    assert.deepEqual(await signInAndSignOut(PROXY, SITE), { signIn: 200, signOut: 204 });
  });

  it('refuses a foreign Origin through the proxy, and believes no X-Forwarded-Host from a peer it does not trust', async () => {
    // A name the back office is not configured with is refused before its Origin is looked at (backoffice-host-rebinding.test.ts).
    assert.deepEqual(await signInAndSignOut(PROXY, 'evil.example'), { signIn: 421, signOut: null });
    assert.deepEqual(await signInAndSignOut('203.0.113.9', SITE), { signIn: 403, signOut: null });
  });
});
