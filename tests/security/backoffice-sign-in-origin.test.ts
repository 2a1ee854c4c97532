// Login CSRF (issue 49; docs/backoffice.md, "Sign-in, sessions, CSRF"): another site's page that
// makes the browser sign in to the back office under the attacker's own name, so that what the
// victim then does (a configuration change proposed, a note written on an alarm) is done in the
// attacker's account, or what the victim reads is the attacker's choice. The sign-in is a
// state-changing request like any other: refused when the browser says it comes from another
// origin, whatever its body holds.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { backofficeKit, PASSWORD, type BackofficeKit } from './backoffice-kit.js';

const HOST = '127.0.0.1:8787';

describe('back office sign-in from another site', () => {
  let kit: BackofficeKit;
  before(async () => {
    kit = await backofficeKit();
  });
  after(() => kit.close());

  const signIn = (headers: Record<string, string>) =>
    kit.app.inject({ method: 'POST', url: '/backoffice/api/sign-in', payload: { name: 'viewer', password: PASSWORD }, headers: { host: HOST, ...headers } });

  it('is refused with an Origin of another site, or the opaque origin of a sandboxed frame, and opens no session', async () => {
    for (const origin of ['https://evil.example', `http://${HOST}.evil.example`, 'null']) {
      const r = await signIn({ origin });
      assert.equal(r.statusCode, 403, `${origin}: ${r.body}`);
      assert.equal(r.json().error, 'csrf');
      assert.equal(r.headers['set-cookie'], undefined, `${origin}: no cookie`);
    }
    const r = await signIn({ referer: 'https://evil.example/page.html' });
    assert.equal(r.statusCode, 403, 'a Referer of another site when no Origin is sent');
    const opened = await kit.db.query<{ n: number }>("SELECT COUNT(*)::int AS n FROM backoffice_sessions WHERE user_name = 'viewer'");
    assert.equal(opened.rows[0]?.n, 0);
    const refused = await kit.db.query<{ n: number }>(
      "SELECT COUNT(*)::int AS n FROM audit_log WHERE action = 'sign-in.refused' AND detail->>'reason' = 'cross-site'",
    );
    assert.equal(refused.rows[0]?.n, 4, 'each refusal is audited');
  });

  it('is taken from the page itself (its Origin), and from a client that sends no Origin (not a browser)', async () => {
    assert.equal((await signIn({ origin: `http://${HOST}` })).statusCode, 200);
    assert.equal((await signIn({})).statusCode, 200);
  });
});
