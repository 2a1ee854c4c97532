// The audit log's page under a flood of refused sign-ins (a review of 7 December): before, the page
// had no audit log at all and the API answered the newest 200 rows, which a client on the floor's
// network fills with refused sign-ins within minutes (every one is written, the throttle's 429s
// too). Against a real upstream (in-memory PGlite, the built page): 250 refused sign-ins after a
// settings change; the page's newest 200 rows are all refusals, the change is found by the action
// filter and by Older, and Newer comes back to the newest. In the page's default language
// (Traditional Chinese), each word the catalogue's.
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { writeSettings } from '../../upstream/backoffice/settings.js';
import { migrateUpstream, openPglite, putUser, startUpstream, type RunningUpstream } from '../../upstream/index.js';
import { signIn } from './backoffice-session.js';

const PASSWORD = 'correct horse battery';
const catalogue = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../locales/catalogues/zh-Hant.json'), 'utf8')) as {
  backoffice: { audit: { actions: Record<string, string>; older: string; newer: string } };
};
const words = catalogue.backoffice.audit;

let up: RunningUpstream;
test.beforeAll(async () => {
  const db = await openPglite();
  await migrateUpstream(db);
  await putUser(db, { name: 'administrator', role: 'administrator', password: PASSWORD, by: 'test' }, { N: 2 ** 10, r: 8, p: 1 });
  up = await startUpstream({ db, backoffice: { signInPerMinute: 10_000 } });
  await writeSettings(db, { offlineLimitSeconds: 90 }, 'administrator', '10.1.1.1', new Date());
  for (let i = 0; i < 250; i++) {
    const r = await fetch(`${up.url}/backoffice/api/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'guess', password: 'nope' }),
    });
    expect([401, 429]).toContain(r.status);
  }
});
test.afterAll(async () => {
  await up?.close();
});

test('a settings change behind 250 refused sign-ins is found by its action and by Older', async ({ page }) => {
  await signIn(page, { url: `${up.url}/backoffice/`, password: PASSWORD }, 'administrator');
  await page.locator('a[href="#/audit"]').click();
  const rows = page.locator('[data-testid=audit-rows] tbody tr');
  await expect(rows).toHaveCount(200);
  // The administrator's own sign-in, then the flood: the settings change is not on the newest page.
  await expect(rows.first()).toHaveAttribute('data-action', 'sign-in');
  await expect(page.locator('[data-testid=audit-rows] tbody tr[data-action="sign-in.refused"]')).toHaveCount(199);
  await expect(rows.nth(1)).toContainText(words.actions['sign-in.refused'] ?? 'missing');
  await expect(page.locator('[data-testid=audit-rows] tbody tr[data-action="settings.change"]')).toHaveCount(0);
  await expect(page.getByTestId('audit-newer')).toBeHidden();
  const newest = await rows.first().getAttribute('data-id');

  await page.getByTestId('audit-action').selectOption('settings.change');
  await page.locator('form.audit-filter button[type=submit]').click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('data-action', 'settings.change');
  await expect(rows.first()).toContainText(words.actions['settings.change'] ?? 'missing');
  await expect(rows.first()).toContainText('administrator');
  await expect(page.getByTestId('audit-older')).toBeHidden();

  // Every action but the refused sign-ins: what was done behind the flood, on one page.
  await page.getByTestId('audit-action').selectOption('sign-in.refused');
  await page.getByTestId('audit-all-but').check();
  await page.locator('form.audit-filter button[type=submit]').click();
  await expect(page.locator('[data-testid=audit-rows] tbody tr[data-action="sign-in.refused"]')).toHaveCount(0);
  await expect(page.locator('[data-testid=audit-rows] tbody tr[data-action="settings.change"]')).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('data-id', newest ?? '');
  await expect(page.getByTestId('audit-older')).toBeHidden();
  await page.getByTestId('audit-all-but').uncheck();

  await page.getByTestId('audit-action').selectOption('');
  await page.locator('form.audit-filter button[type=submit]').click();
  await expect(rows.first()).toHaveAttribute('data-id', newest ?? '');
  await page.getByTestId('audit-older').click();
  await expect(page.locator('[data-testid=audit-rows] tbody tr[data-action="settings.change"]')).toHaveCount(1);
  await expect(page.getByTestId('audit-older')).toBeHidden();
  await expect(page.getByTestId('audit-newer')).toHaveText(words.newer);
  await page.getByTestId('audit-newer').click();
  await expect(rows.first()).toHaveAttribute('data-id', newest ?? '');
  await expect(rows).toHaveCount(200);
});
