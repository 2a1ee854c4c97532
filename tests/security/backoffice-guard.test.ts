// The back office's guard of state-changing requests (upstream/backoffice/guard.ts; docs/backoffice.md,
// "Sign-in, sessions, CSRF"), as a hostile browser page meets it:
// - an Origin is the page's own only with its scheme too: `https://host` is another origin than
//   `http://host` (RFC 6454), a page of the same host name served over the other scheme (another
//   service, a forged answer on the network) is not the back office;
// - a request refused for its CSRF token or its origin is no activity of the user: it moves no idle
//   expiry, so a page that cannot act can neither keep a session alive by posting at it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { IDLE_MS } from '../../upstream/backoffice/sessions.js';
import { backofficeKit, PASSWORD, signIn, type BackofficeKit } from './backoffice-kit.js';

const HOST = '127.0.0.1:8787';

describe('the back office guard', () => {
  let kit: BackofficeKit;
  before(async () => {
    kit = await backofficeKit();
  });
  after(() => kit.close());

  it('refuses a sign-in and a POST whose Origin names the host over another scheme', async () => {
    const other = await kit.app.inject({
      method: 'POST',
      url: '/backoffice/api/sign-in',
      payload: { name: 'viewer', password: PASSWORD },
      headers: { host: HOST, origin: `https://${HOST}` },
    });
    assert.equal(other.statusCode, 403, `an https Origin on the http service signed in: ${other.body}`);
    const referer = await kit.app.inject({
      method: 'POST',
      url: '/backoffice/api/sign-in',
      payload: { name: 'viewer', password: PASSWORD },
      headers: { host: HOST, referer: `https://${HOST}/backoffice/` },
    });
    assert.equal(referer.statusCode, 403, `an https Referer on the http service signed in: ${referer.body}`);
    const own = await kit.app.inject({
      method: 'POST',
      url: '/backoffice/api/sign-in',
      payload: { name: 'viewer', password: PASSWORD },
      headers: { host: HOST, origin: `http://${HOST}` },
    });
    assert.equal(own.statusCode, 200, `the page's own origin (the control): ${own.body}`);
    const who = await signIn(kit.app, 'supervisor');
    const out = await kit.app.inject({
      method: 'POST',
      url: '/backoffice/api/sign-out',
      headers: { host: HOST, origin: `https://${HOST}`, cookie: who.cookie, 'x-csrf-token': who.csrf },
    });
    assert.equal(out.statusCode, 403, `a sign-out from the https origin was taken: ${out.body}`);
  });

  it('moves no idle expiry on a POST refused for its token or its origin', async () => {
    const who = await signIn(kit.app, 'accounting');
    const started = kit.clock.now;
    try {
      const session = () => kit.app.inject({ method: 'GET', url: '/backoffice/api/session', headers: { cookie: who.cookie } });
      kit.clock.now = started + IDLE_MS - 60_000;
      for (const headers of [{ 'x-csrf-token': 'x'.repeat(43) }, { 'x-csrf-token': who.csrf, origin: 'https://evil.example' }, {}]) {
        const r = await kit.app.inject({ method: 'POST', url: '/backoffice/api/sign-out', headers: { host: HOST, cookie: who.cookie, ...headers } });
        assert.equal(r.statusCode, 403, JSON.stringify(headers));
        assert.equal(r.headers['set-cookie'], undefined, `a refused request renewed the cookie: ${JSON.stringify(headers)}`);
      }
      kit.clock.now = started + IDLE_MS + 1;
      const r = await session();
      assert.equal(r.statusCode, 401, 'the refused POSTs kept the session alive past its idle limit');
    } finally {
      kit.clock.now = started;
    }
  });

  it('moves the idle expiry on a request it takes (the control)', async () => {
    const who = await signIn(kit.app, 'administrator');
    const started = kit.clock.now;
    try {
      kit.clock.now = started + IDLE_MS - 60_000;
      const kept = await kit.app.inject({ method: 'GET', url: '/backoffice/api/session', headers: { cookie: who.cookie } });
      assert.equal(kept.statusCode, 200);
      assert.match(String(kept.headers['set-cookie']), /Max-Age=1800/);
      kit.clock.now = started + IDLE_MS + 1;
      assert.equal((await kit.app.inject({ method: 'GET', url: '/backoffice/api/session', headers: { cookie: who.cookie } })).statusCode, 200);
    } finally {
      kit.clock.now = started;
    }
  });
});
