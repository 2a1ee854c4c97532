// What the back office says when the upstream does not answer, or fails or refuses what the page
// asked (a review of 7 December), in Chromium, in the page's default language (Traditional Chinese):
// - a sign-in the upstream failed is not «wrong name or password» (a person retypes a right one);
// - a sign-out that did not end the session says so, and the page stays signed in: it showed the
//   sign-in form over a session still live, its cookie in the browser, for the next person at the screen;
// - a gaming day or a day's plots the upstream failed is said, and the day shown before is taken
//   away: it stayed on the page under the date asked, its CSV and print with it, and nothing was said.
// Each in the catalogue's words, never the browser's English nor the upstream's codes. The built page
// (npm run build:backoffice) is served with a stand-in for the upstream's API, so no upstream is needed.
import { expect, test, type Page } from '@playwright/test';
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../../dist/backoffice');
const repo = path.resolve(import.meta.dirname, '../..');
const catalogue = JSON.parse(readFileSync(path.join(repo, 'locales/catalogues/zh-Hant.json'), 'utf8')) as {
  backoffice: { signIn: Record<string, string>; error: Record<string, string> };
};
const words = catalogue.backoffice;
const fill = (text: string | undefined, values: Record<string, string | number>) =>
  Object.entries(values).reduce((s, [k, v]) => s.replace(`{{${k}}}`, String(v)), text ?? 'the catalogue lacks it');

const FAILED_DAY = '2026-11-26';
const day = (date: string) => ({
  date,
  from: `${date}T22:00:00.000Z`,
  to: `${date}T22:00:00.000Z`,
  startHour: 6,
  lines: [],
  theoretical: [],
  corrections: [],
  correctionsCut: [],
  liability: { asOf: `${date}T22:00:00.000Z`, currencies: [] },
  sync: { readAt: `${date}T23:00:00.000Z`, dayOver: true, complete: true, changedAfterComplete: false, outOfRange: [], tables: [] },
});
const plots = (date: string) => ({
  date,
  from: `${date}T22:00:00.000Z`,
  hours: [`${date}T22:00:00.000Z`],
  tables: [{ terminalId: 'T1', currency: { code: 'MOP', exponent: 2 }, drop: [100], wagered: [100], won: [50], win: [50], lagMax: [0], theoretical: [] }],
});

/** What the stand-in answers a sign-in: the upstream's own failure, or a session. */
let signInAnswer: 'proxy-503' | 'session' = 'session';
let signedIn = false;

let server: Server;
let origin = '';
test.beforeAll(async () => {
  if (!existsSync(path.join(root, 'index.html'))) throw new Error('build the page first: npm run build:backoffice');
  server = createServer((req, res) => {
    const [url = '/', query = ''] = (req.url ?? '/').split('?');
    const json = (status: number, v: unknown) => void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(v));
    const session = { name: 'ana', role: 'supervisor', permissions: ['floor', 'acknowledge', 'report', 'evidence'], csrf: 'x' };
    if (url === '/backoffice/api/session') return signedIn ? json(200, session) : json(401, { error: 'signed-out', message: 'sign in first' });
    if (url === '/backoffice/api/sign-in') {
      if (signInAnswer === 'proxy-503') return void res.writeHead(503, { 'content-type': 'text/html' }).end('<html><body>Service Unavailable</body></html>');
      signedIn = true;
      return json(200, session);
    }
    if (url === '/backoffice/api/sign-out') {
      signedIn = false;
      return void res.writeHead(204).end();
    }
    if (url === '/backoffice/api/floor') return json(200, []);
    if (url === '/backoffice/api/floor/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      return void res.write('event: floor\ndata: []\n\n');
    }
    const date = new URLSearchParams(query).get('date') ?? '2026-11-25';
    const failed = { statusCode: 500, error: 'Internal Server Error', message: 'the upstream failed' };
    if (url === '/backoffice/api/reports/gaming-day') return date === FAILED_DAY ? json(500, failed) : json(200, day(date));
    if (url === '/backoffice/api/reports/plots') return date === FAILED_DAY ? json(500, failed) : json(200, plots(date));
    const file = path.join(root, url.replace(/^\/backoffice\//, '') || 'index.html');
    if (!file.startsWith(root) || !existsSync(file)) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': file.endsWith('.js') ? 'text/javascript' : file.endsWith('.css') ? 'text/css' : 'text/html' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

test.afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function submitSignIn(page: Page): Promise<void> {
  await page.locator('input[name=name]').fill('ana');
  await page.locator('input[name=password]').fill('a long pass phrase');
  await page.locator('form.sign-in button[type=submit]').click();
}

/** No English of the browser's or the upstream's, no code. */
const NOT_WORDS = /Failed to fetch|Service Unavailable|Internal Server|signed-out|\bhttp\b|[Cc]ould not load/;

test('a sign-in the upstream failed or never answered is not a wrong password', async ({ page }) => {
  signedIn = false;
  signInAnswer = 'proxy-503';
  await page.goto(`${origin}/backoffice/`);
  await submitSignIn(page);
  const alert = page.locator('form.sign-in [role=alert]');
  await expect(alert).toHaveText(fill(words.error.server, { status: 503 }));
  await expect(alert).not.toHaveText(words.signIn.wrong ?? '');
  await page.route('**/backoffice/api/sign-in', (route) => route.abort('connectionrefused'));
  await submitSignIn(page);
  await expect(alert).toHaveText(words.error.network ?? 'the catalogue lacks it');
  await expect(alert).not.toHaveText(NOT_WORDS);
});

// Two session cookies of the name, one planted by another page of the site (upstream/backoffice/guard.ts
// refuses the request, 401 cookie-twice): the sign-in form says so, as signing in again alone leaves the planted one.
test('a session refused for two cookies says so above the sign-in form', async ({ page }) => {
  signedIn = false;
  await page.route('**/backoffice/api/session', (route) =>
    route.fulfill({ status: 401, contentType: 'application/json', body: JSON.stringify({ error: 'cookie-twice', message: 'two session cookies' }) }),
  );
  await page.goto(`${origin}/backoffice/#/floor`);
  const alert = page.locator('form.sign-in [role=alert]');
  await expect(alert).toHaveText(words.signIn.cookieTwice ?? 'the catalogue lacks it');
  await expect(alert).not.toHaveText(NOT_WORDS);
});

test('a sign-out the upstream never answered says so, and the page stays signed in', async ({ page }) => {
  signedIn = true;
  await page.goto(`${origin}/backoffice/#/floor`);
  await expect(page.getByTestId('who')).toContainText('ana');
  // The network gone: the sign-out, and every question after it, get no answer.
  await page.route('**/backoffice/api/**', (route) => route.abort('connectionrefused'));
  await page.locator('header').getByRole('button', { name: words.signIn.signOut }).click();
  await expect(page.getByTestId('sign-out-failed')).toHaveText(fill(words.signIn.signOutFailed, { why: words.error.network ?? '' }));
  await expect(page.getByTestId('who')).toContainText('ana');
  await expect(page.locator('form.sign-in')).toHaveCount(0);
  // Answered again: signed out for good, and the sign-in form shown.
  await page.unroute('**/backoffice/api/**');
  await page.locator('header').getByRole('button', { name: words.signIn.signOut }).click();
  await expect(page.locator('form.sign-in')).toBeVisible();
  expect(signedIn).toBe(false);
});

test('a day the upstream failed is said, and the day shown before is taken away: the report and the plots', async ({ page }) => {
  signedIn = true;
  await page.goto(`${origin}/backoffice/#/report`);
  await expect(page.getByTestId('csv')).toBeVisible();
  await page.getByTestId('report-date').fill(FAILED_DAY);
  await page.locator('form.report-controls button[type=submit]').click();
  await expect(page.getByTestId('report-failed')).toHaveText(fill(words.error.server, { status: 500 }));
  await expect(page.getByTestId('csv')).toHaveCount(0);
  await expect(page.getByTestId('report')).not.toContainText(NOT_WORDS);

  await page.goto(`${origin}/backoffice/#/plots`);
  await expect(page.locator('[data-testid=plots] figure')).not.toHaveCount(0);
  await page.locator('input[name=date]').fill(FAILED_DAY);
  await page.locator('form.report-controls button[type=submit]').click();
  await expect(page.getByTestId('plots-failed')).toHaveText(fill(words.error.server, { status: 500 }));
  await expect(page.locator('[data-testid=plots] figure')).toHaveCount(0);
});
