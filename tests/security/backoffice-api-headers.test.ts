// The back office's API answers carry what tables and people wrote (alarm details, a table's
// health, a round's journal entries as a download): a browser sent to one of those addresses
// directly (a link in a mail, an evidence file opened in a tab) must never read it as a page. Each
// answer of /backoffice/api, a refusal and an error included, says nosniff, a Content-Security-Policy
// that runs nothing, frames in no page, and no-store.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { backofficeKit, signIn, type BackofficeKit, type SignedIn } from './backoffice-kit.js';

describe('back office API answers are never a page', () => {
  let kit: BackofficeKit;
  let who: SignedIn;
  before(async () => {
    kit = await backofficeKit();
    who = await signIn(kit.app, 'supervisor');
    await kit.db.query(`INSERT INTO alarms (terminal_id, kind, detail) VALUES ('T1', 'divergence', $1::jsonb)`, [
      JSON.stringify({ note: '<script>alert(1)</script><img src=x onerror=alert(2)>' }),
    ]);
  });
  after(() => kit.close());

  it('every answer says nosniff, runs nothing, frames nowhere and is not stored', async () => {
    const asked = [
      { url: '/backoffice/api/alarms', cookie: who.cookie, status: 200 },
      { url: '/backoffice/api/tables/T1', cookie: who.cookie, status: 404 },
      { url: '/backoffice/api/reports/gaming-day?date=2026-02-30', cookie: who.cookie, status: 400 },
      { url: '/backoffice/api/session', cookie: '', status: 401 },
      { url: '/backoffice/api/no-such-route', cookie: who.cookie, status: 404 },
    ];
    for (const a of asked) {
      const r = await kit.app.inject({ method: 'GET', url: a.url, headers: a.cookie ? { cookie: a.cookie } : {} });
      assert.equal(r.statusCode, a.status, `${a.url}: ${r.body}`);
      assert.equal(r.headers['x-content-type-options'], 'nosniff', a.url);
      assert.match(String(r.headers['content-security-policy']), /default-src 'none'/, a.url);
      assert.match(String(r.headers['content-security-policy']), /frame-ancestors 'none'/, a.url);
      assert.equal(r.headers['cache-control'], 'no-store', a.url);
    }
  });
});
