// A review of 4 December: over HTTPS the session cookie is `__Host-etg_backoffice` (Secure, set by
// a secure origin only, no Domain), but the server also took the plain `etg_backoffice`, which any
// page of the same host name over plain HTTP (another port, a forged answer on the network) or a
// sibling sub-domain (Domain=) can set in the browser. A session of the attacker's own planted
// that way signs the casino's user in as the attacker, unseen: their work (an approval, a note) is
// done and audited under the attacker's name and role. Over HTTPS the plain cookie is no session.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildServer, putUser } from '../../upstream/index.js';
import { openDatabase } from '../sync/upstream-databases.js';
import { FAST, PASSWORD } from './backoffice-kit.js';

const PROXY = '127.0.0.1';
/** A request through the casino's TLS proxy: the page is HTTPS. */
const secure = { 'x-forwarded-proto': 'https', host: 'backoffice.casino.example' };

describe('the session cookie over HTTPS', () => {
  it('is __Host- and Secure, and the plain name carries no session', async () => {
    const opened = await openDatabase('pglite');
    const app = await buildServer({ db: opened.db, trustProxy: [PROXY], backoffice: { signInPerMinute: 10_000, hosts: ['backoffice.casino.example'] } });
    try {
      await putUser(opened.db, { name: 'mallory', role: 'viewer', password: PASSWORD, by: 'test' }, FAST);
      const signedIn = await app.inject({
        method: 'POST',
        url: '/backoffice/api/sign-in',
        payload: { name: 'mallory', password: PASSWORD },
        headers: secure,
        remoteAddress: PROXY,
      });
      assert.equal(signedIn.statusCode, 200, signedIn.body);
      const set = String(signedIn.headers['set-cookie']);
      assert.match(set, /^__Host-etg_backoffice=[^;]+; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+; Secure$/);
      const token = (set.split(';')[0] ?? '').split('=')[1] ?? '';
      const read = (cookie: string) => app.inject({ method: 'GET', url: '/backoffice/api/session', headers: { ...secure, cookie }, remoteAddress: PROXY });
      assert.equal((await read(`__Host-etg_backoffice=${token}`)).statusCode, 200, 'the secure cookie is the session (the control)');
      // The attacker's own session, planted under the plain name in the victim's browser.
      const planted = await read(`etg_backoffice=${token}`);
      assert.equal(planted.statusCode, 401, `a plain cookie over HTTPS was taken as a session: ${planted.body}`);
    } finally {
      await app.close();
      await opened.close();
    }
  });
});
