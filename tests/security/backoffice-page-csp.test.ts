// The back office's page (dist/backoffice, served at /backoffice/) runs with a Content-Security-Policy
// of its own origin. `default-src` does not cover where a form may be sent nor what a <base> may
// name: markup slipped into the page (a table's words, an alarm's note) could make the sign-in
// form post the name and password elsewhere, or move every relative address of the page to
// another site. The page sends its forms by script only (fetch), so `form-action 'none'`;
// it has no <base>, so `base-uri 'none'`.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildServer } from '../../upstream/index.js';
import { openDatabase } from '../sync/upstream-databases.js';

describe("the back office page's Content-Security-Policy", () => {
  let app: Awaited<ReturnType<typeof buildServer>>;
  let close: () => Promise<void>;
  const pageDir = mkdtempSync(path.join(tmpdir(), 'etg-bo-page-'));
  before(async () => {
    writeFileSync(path.join(pageDir, 'index.html'), '<!doctype html><title>back office</title>');
    writeFileSync(path.join(pageDir, 'main.js'), 'void 0;');
    const opened = await openDatabase('pglite');
    app = await buildServer({ db: opened.db, backoffice: { pageDir } });
    close = async () => {
      await app.close();
      await opened.close();
    };
  });
  after(async () => {
    await close();
    rmSync(pageDir, { recursive: true, force: true });
  });

  it('sends no form anywhere and takes no <base>, on the page and its files', async () => {
    for (const url of ['/backoffice/', '/backoffice/index.html', '/backoffice/main.js']) {
      const r = await app.inject({ method: 'GET', url });
      assert.equal(r.statusCode, 200, `${url}: ${r.body}`);
      const csp = String(r.headers['content-security-policy']);
      assert.match(csp, /default-src 'self'/, url);
      assert.match(csp, /frame-ancestors 'none'/, url);
      assert.match(csp, /form-action 'none'/, `${url}: ${csp}`);
      assert.match(csp, /base-uri 'none'/, `${url}: ${csp}`);
    }
  });
});
