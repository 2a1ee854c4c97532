// DNS rebinding against the back office over plain HTTP on the casino's network: an attacker's page,
// opened in a browser on the floor's network, whose name (rebound.attacker.example) its DNS first
// gives as the attacker's server and then as the back office's address. The browser then sends the
// page's requests to the back office as the page's own origin: same-origin to the browser, so the
// page reads every answer, and the Origin the sign-in and every POST are compared with is the
// Host the page's name gives (guard.ts, sameOrigin). The browser becomes the attacker's way into a
// network it cannot reach: password guesses from the victim's address, the page and API read. The
// back office answers only to the names it is configured with (and addresses, which no rebinding
// page can be), before any route: 421 and a clear body, no audit row, nothing counted.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildServer } from '../../upstream/index.js';
import { openDatabase } from '../sync/upstream-databases.js';
import { backofficeKit, PASSWORD, type BackofficeKit } from './backoffice-kit.js';

const REBOUND = 'rebound.attacker.example:8787';
const NAME = 'backoffice.casino.lan';

describe('the back office answers only to its own names (DNS rebinding)', () => {
  let kit: BackofficeKit;
  before(async () => {
    kit = await backofficeKit({ hosts: [NAME] });
  });
  after(() => kit.close());

  const audited = async () => Number((await kit.db.query<{ n: number }>('SELECT COUNT(*)::int AS n FROM audit_log')).rows[0]?.n);
  const signInAt = (host: string, origin = `http://${host}`) =>
    kit.app.inject({
      method: 'POST',
      url: '/backoffice/api/sign-in',
      payload: { name: 'supervisor', password: PASSWORD },
      headers: { host, origin },
      remoteAddress: '10.1.1.7',
    });

  it("refuses a rebound page's sign-in, reads and page before any route, audits none of them", async () => {
    const rows = await audited();
    const signIn = await signInAt(REBOUND);
    assert.equal(signIn.statusCode, 421, signIn.body);
    assert.equal(signIn.headers['set-cookie'], undefined);
    assert.equal(signIn.json().error, 'unknown-host');
    assert.match(signIn.json().message, /--backoffice-host/);
    const session = await kit.app.inject({ method: 'GET', url: '/backoffice/api/session', headers: { host: REBOUND } });
    assert.equal(session.statusCode, 421, session.body);
    for (const url of ['/backoffice/', '/backoffice/index.html', '/backoffice/api/floor/events', '/backoffice/api/no-such-route']) {
      const r = await kit.app.inject({ method: 'GET', url, headers: { host: REBOUND } });
      assert.equal(r.statusCode, 421, `${url}: ${r.body}`);
      assert.equal(r.headers['cache-control'], 'no-store', url);
    }
    assert.equal(await audited(), rows, 'nothing audited');
  });

  it('writes no audit row and counts no guess for a flood of rebound sign-ins', async () => {
    const rows = await audited();
    for (let i = 0; i < 200; i++) {
      const r = await kit.app.inject({
        method: 'POST',
        url: '/backoffice/api/sign-in',
        payload: { name: 'supervisor', password: 'wrong' },
        headers: { host: REBOUND, origin: `http://${REBOUND}` },
        remoteAddress: '10.1.1.8',
      });
      assert.equal(r.statusCode, 421, r.body);
    }
    assert.equal(await audited(), rows);
    // The throttle never saw them: the same address signs in at once under a name it answers to.
    const r = await kit.app.inject({
      method: 'POST',
      url: '/backoffice/api/sign-in',
      payload: { name: 'supervisor', password: PASSWORD },
      headers: { host: `${NAME}:8787`, origin: `http://${NAME}:8787` },
      remoteAddress: '10.1.1.8',
    });
    assert.equal(r.statusCode, 200, r.body);
  });

  it('answers to its configured name (any case, any port), loopback and addresses', async () => {
    for (const host of [`${NAME}:8787`, NAME, 'BackOffice.Casino.LAN:80', 'localhost:8787', '127.0.0.1:8787', '10.20.30.40', '[::1]:8787', '[fd00::5]:8787']) {
      const r = await signInAt(host);
      assert.equal(r.statusCode, 200, `${host}: ${r.body}`);
    }
  });

  it('takes no name that merely contains, ends or begins with its own', async () => {
    for (const host of [
      `evil-${NAME}:8787`,
      `${NAME}.attacker.example:8787`,
      `x.${NAME}:8787`,
      `${NAME}.:8787`,
      'localhost.attacker.example',
      '127.0.0.1.nip.io:8787',
      '2130706433:8787',
      '[fe80::1%eth0]:8787',
    ]) {
      const r = await signInAt(host, 'http://x.example');
      assert.equal(r.statusCode, 421, `${JSON.stringify(host)}: ${r.body}`);
    }
  });

  it("leaves the upstream's other routes to their own credentials, whatever the host", async () => {
    const r = await kit.app.inject({ method: 'GET', url: '/healthz', headers: { host: REBOUND } });
    assert.equal(r.statusCode, 200, r.body);
  });
});

describe('the back office behind a trusted proxy: the host it says the browser asked', () => {
  it('refuses a rebound name the proxy passes on, and takes the configured one', async () => {
    const opened = await openDatabase('pglite');
    try {
      const { putUser } = await import('../../upstream/index.js');
      const { FAST } = await import('./backoffice-kit.js');
      await putUser(opened.db, { name: 'ana', role: 'supervisor', password: PASSWORD, by: 'test' }, FAST);
      const app = await buildServer({ db: opened.db, trustProxy: ['10.0.0.5'], backoffice: { signInPerMinute: 10_000, hosts: [NAME] } });
      try {
        const at = (forwarded: string) =>
          app.inject({
            method: 'POST',
            url: '/backoffice/api/sign-in',
            payload: { name: 'ana', password: PASSWORD },
            headers: { host: '127.0.0.1:8787', 'x-forwarded-host': forwarded, 'x-forwarded-proto': 'https', origin: `https://${forwarded}` },
            remoteAddress: '10.0.0.5',
          });
        assert.equal((await at('rebound.attacker.example')).statusCode, 421);
        assert.equal((await at(NAME)).statusCode, 200);
      } finally {
        await app.close();
      }
    } finally {
      await opened.close();
    }
  });
});

describe("the back office's names as configured", () => {
  it('refuses a list that is no list of host names, before anything listens', async () => {
    const opened = await openDatabase('pglite');
    try {
      for (const hosts of [
        ['*'],
        ['http://backoffice.casino.lan'],
        ['backoffice.casino.lan:8787'],
        ['a b'],
        [''],
        [`${'a'.repeat(64)}.lan`],
        ['x'.repeat(254)],
        ['-x.lan'],
      ]) {
        await assert.rejects(
          buildServer({ db: opened.db, backoffice: { hosts } }),
          (e: unknown) => e instanceof Error && /back office's host names/.test(e.message),
          JSON.stringify(hosts),
        );
      }
    } finally {
      await opened.close();
    }
  });
});
