// A session cookie planted beside the real one. Over plain HTTP any page of the same host name
// (another port) or of a sibling sub-domain (`Domain=`) can set `etg_backoffice` in the user's
// browser, and with a longer `Path` (`/backoffice/api`) the browser sends the planted cookie first
// (RFC 6265 §5.4: longer paths first). The guard read the first cookie of the name: the user signed
// in (the sign-in's answer named them, so the page did too), and every request after it was done in
// the attacker's session, their approvals and notes audited under the attacker's name. A request
// carrying the session cookie's name twice is refused now, whichever comes first (over HTTPS the
// same rule reads `__Host-`, which no other page can set).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { kitOfSuite, signIn } from './backoffice-kit.js';

describe('two session cookies in one request', () => {
  const held = kitOfSuite('supervisor');
  const session = (cookie: string, headers: Record<string, string> = {}) =>
    held.kit.app.inject({ method: 'GET', url: '/backoffice/api/session', headers: { cookie, ...headers } });

  it('are refused, the planted one first or last, and neither session is used', async () => {
    const victim = held.who.cookie;
    const attacker = (await signIn(held.kit.app, 'viewer', undefined, '10.6.6.6')).cookie;
    assert.equal((await session(victim)).json().name, 'supervisor', 'the control: one cookie is its session');
    assert.equal((await session(`theme=dark; ${victim}; lang=pt`)).statusCode, 200, 'other cookies beside it are no matter');
    for (const cookie of [`${attacker}; ${victim}`, `${victim}; ${attacker}`, `${attacker};${victim}`, `${victim}; ${victim}`]) {
      const r = await session(cookie);
      assert.equal(r.statusCode, 401, `${cookie}: ${r.statusCode} ${r.body}`);
      assert.equal(r.json().error, 'cookie-twice', cookie);
      assert.equal(r.headers['set-cookie'], undefined, 'no session renewed');
    }
    // A state change with the victim's CSRF token and the attacker's cookie first: refused, nothing done.
    const ack = await held.kit.app.inject({
      method: 'POST',
      url: '/backoffice/api/settings',
      payload: { offlineLimitSeconds: 95 },
      headers: { cookie: `${attacker}; ${victim}`, 'x-csrf-token': held.who.csrf, origin: 'http://127.0.0.1:8787', host: '127.0.0.1:8787' },
    });
    assert.equal(ack.statusCode, 401, ack.body);
  });
});
