import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import type { Page, TestInfo } from '@playwright/test';
import WebSocket from 'ws';
import { AccountStore } from '../../host/service/accounts.js';
import { drawnCards, drawnTexts, expect, insertNote, press as pressNow, test as base, waitForEvent, type Kiosk } from './kiosk-fixture.js';

const shots = path.resolve(import.meta.dirname, '../../artifacts/screenshots');
const SUP = { staff: '3001', pin: '482915', name: 'Ana Lei' };
const TECH = { staff: '3002', pin: '739164', name: 'Bo Chan' };

async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  mkdirSync(shots, { recursive: true });
  const file = path.join(shots, `${name}.png`);
  await page.screenshot({ path: file });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

/** A kiosk whose data folder already holds a supervisor and a technician (as `npm run service -- add-user` would). */
const test = base.extend<object, { serviceKiosk: Kiosk & { dataDir: string } }>({
  serviceKiosk: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kiosk-service-'));
      const accounts = new AccountStore(dataDir);
      await accounts.add({ name: SUP.name, role: 'supervisor', pin: SUP.pin, staff: SUP.staff }, null);
      await accounts.add({ name: TECH.name, role: 'technician', pin: TECH.pin, staff: TECH.staff }, SUP);
      const child: ChildProcess = spawn(
        process.execPath,
        ['--import', 'tsx', 'cli/start.ts', '--headless', '--json', '--data-dir', dataDir, '--sim-controls', '--seed', '7', '--betting-seconds', '4', '--decision-seconds', '120'],
        { cwd: path.resolve(import.meta.dirname, '../..'), stdio: ['ignore', 'pipe', 'inherit'] },
      );
      const kiosk = await new Promise<Kiosk>((resolve, reject) => {
        child.once('exit', (code) => reject(new Error(`kiosk exited with ${code}`)));
        readline.createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line) as Kiosk));
      });
      await use({ ...kiosk, dataDir });
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dataDir, { recursive: true, force: true });
    },
    { scope: 'worker' },
  ],
});

/**
 * Presses a button once a frame has been drawn: pixi hit-tests with the transforms of the last
 * frame, and a button a press just created or moved has none yet (the software renderer can be
 * slower than the test). A finger is never that fast. Our animation-frame callback runs after the
 * screen's own in the same frame, so one frame is enough.
 */
async function press(page: Page, testId: string): Promise<void> {
  await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => r())));
  await pressNow(page, testId);
}

/** Types on a pad: its keys do not move, so after the first only the press itself is waited for. */
async function typeOnPad(page: Page, prefix: string, keys: string): Promise<void> {
  let first = true;
  for (const k of keys) {
    await (first ? press : pressNow)(page, `${prefix}-${k === ' ' ? 'space' : k}`);
    first = false;
  }
  await pressNow(page, `${prefix}-ok`);
}

async function signIn(page: Page, who: { staff: string; pin: string }): Promise<void> {
  await typeOnPad(page, 'signin', who.staff);
  await typeOnPad(page, 'signin', who.pin);
  await expect.poll(async () => page.evaluate(() => window.__kiosk?.bounds('sign-out') ?? null)).not.toBeNull();
}

async function texts(page: Page): Promise<string> {
  return (await drawnTexts(page)).join('\n');
}

/** A station over the protocol from the test process: enough to place a bet. */
async function stationClient(url: string) {
  const u = new URL(url);
  const ws = new WebSocket(`ws://${u.host}/ws`, { origin: u.origin });
  await new Promise((r) => ws.once('open', r));
  let version = 0;
  let state: { credit: number; betting: { open: boolean }; decision: unknown } | null = null;
  ws.on('message', (d) => {
    const m = JSON.parse(d.toString()) as { type: string; version: number; state: typeof state };
    if (m.type === 'snapshot') {
      version = m.version;
      state = m.state;
    }
  });
  ws.send(JSON.stringify({ type: 'hello', id: 'h', protocol: 1, token: u.searchParams.get('token') }));
  ws.send(JSON.stringify({ type: 'subscribe', id: 's', view: 'station/1' }));
  return {
    state: () => state,
    bet: (amount: number) => ws.send(JSON.stringify({ type: 'command', id: `b${version}`, view: 'station/1', version, command: { name: 'place-bet', bet: 'main', amount } })),
    close: () => ws.close(),
  };
}

test('service pages: sign-in, every page in three languages, meters export', async ({ page, serviceKiosk, pageErrors }, testInfo) => {
  test.setTimeout(120_000);
  await page.goto(serviceKiosk.screens['service']!);
  await waitForEvent(page, 'snapshot:service');
  // Before sign-in: the cabinet label and the pad, no page.
  const before = await texts(page);
  expect(before).toContain('員工編號');
  expect(before).not.toContain('計數器');
  await screenshot(page, testInfo, 'service-sign-in');

  // A wrong PIN is refused in words; the right one opens the Status page.
  await typeOnPad(page, 'signin', TECH.staff);
  await typeOnPad(page, 'signin', '000000');
  await expect.poll(() => texts(page)).toContain('員工編號或密碼不正確');
  await signIn(page, TECH);
  await press(page, 'language-en');
  await expect.poll(() => texts(page)).toContain('Bo Chan · Technician · staff 3002');
  await expect.poll(() => texts(page)).toContain('No current tilts');
  expect(await texts(page)).toMatch(/Program hash at start: [0-9a-f]{64}/);
  await screenshot(page, testInfo, 'service-status-en');

  const pages: [string, RegExp][] = [
    ['devices', /BA-1 · ready · sim/],
    ['meters', /Amounts in MOP[\s\S]*Power resets: 1/],
    ['recall', /No rounds|#\d+ /],
    ['events', /#\d+ .* service\.enter /],
    ['config', /Rule profile = macau-2009/],
    ['holds', /Phase: /],
    ['cashout', /Cancelled-credit record/],
    ['sync', /No upstream configured/],
  ];
  for (const [name, expected] of pages) {
    await press(page, `page-${name}`);
    await expect.poll(() => texts(page)).toMatch(expected);
    await screenshot(page, testInfo, `service-${name}-en`);
  }
  // A diagnostic: the test note is read and given back, journalled as a test.
  await press(page, 'page-devices');
  await expect.poll(() => texts(page)).toContain('Test note');
  await press(page, 'device-BA-2');
  await press(page, 'act-test-note');
  await expect.poll(() => texts(page)).toContain('BA-2: note 100 MOP read and returned');

  await press(page, 'page-meters');
  await expect.poll(() => texts(page)).toContain('Export CSV');
  const download = page.waitForEvent('download');
  await press(page, 'export-csv');
  const file = await (await download).path();
  expect(readFileSync(file, 'utf8')).toMatch(/^terminal,table,scope,meter,gli_name,unit,value\r\n/);

  for (const [lang, title] of [['pt', 'Contadores'], ['zh-Hant', '計數器']] as const) {
    await press(page, `language-${lang}`);
    await expect.poll(() => texts(page)).toContain(title);
    await screenshot(page, testInfo, `service-meters-${lang}`);
  }
  await press(page, 'sign-out');
  await expect.poll(() => texts(page)).toContain('員工編號');
  expect(pageErrors).toEqual([]);
});

test('two-person void of a round in play: a supervisor asks, a technician confirms, the bet comes back', async ({ page, serviceKiosk, pageErrors }, testInfo) => {
  test.setTimeout(150_000);
  const station = await stationClient(serviceKiosk.screens['station/1']!);
  await insertNote(serviceKiosk, 1, 500);
  await expect.poll(() => station.state()?.credit, { timeout: 30_000 }).toBe(50_000);
  // The first window opens after the shoe-start burns; a bet is taken when betting closes.
  await expect.poll(() => station.state()?.betting.open, { timeout: 60_000 }).toBe(true);
  station.bet(10_000);
  await expect.poll(() => station.state()?.decision ?? null, { timeout: 60_000 }).not.toBeNull();
  expect(station.state()?.credit).toBe(40_000);

  await page.goto(serviceKiosk.screens['service']!);
  await waitForEvent(page, 'snapshot:service');
  await signIn(page, SUP);
  await press(page, 'language-en');
  await press(page, 'page-holds');
  await expect.poll(() => texts(page)).toContain('Void round');
  expect(await texts(page)).toContain('Phase: dealing');
  await press(page, 'act-void-round');
  await expect.poll(() => texts(page)).toMatch(/Two-person action: Void round/);
  await screenshot(page, testInfo, 'service-void-confirm');
  // The supervisor cannot confirm their own action.
  await typeOnPad(page, 'confirm', SUP.staff);
  await typeOnPad(page, 'confirm', SUP.pin);
  await expect.poll(() => texts(page)).toContain('The second person must be someone else');
  await typeOnPad(page, 'confirm', TECH.staff);
  await typeOnPad(page, 'confirm', TECH.pin);
  await expect.poll(() => texts(page)).toMatch(/Round .* voided: every bet returned/);
  await expect.poll(() => station.state()?.credit).toBe(50_000);
  await screenshot(page, testInfo, 'service-void-done');
  // Game recall holds the voided round, with who authorised it, and replays its cards in order.
  await press(page, 'page-recall');
  await expect.poll(() => texts(page)).toMatch(/Void: unreadable card · by Ana Lei \(3001\), Bo Chan \(3002\)/);
  await press(page, 'replay-1');
  await expect.poll(async () => (await drawnCards(page)).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
  for (const c of await drawnCards(page)) expect(c).toMatch(/^[A2-9TJQK][SHDC]$/);
  await screenshot(page, testInfo, 'service-recall-replay');
  station.close();
  expect(pageErrors).toEqual([]);
});

test('two-person meter clear with the regulator\'s authorisation number', async ({ page, serviceKiosk, pageErrors }, testInfo) => {
  await page.goto(serviceKiosk.screens['service']!);
  await waitForEvent(page, 'snapshot:service');
  await signIn(page, SUP);
  await press(page, 'language-en');
  await press(page, 'page-holds');
  await expect.poll(() => texts(page)).toContain('Clear meters');
  await press(page, 'clear-scope');
  await expect.poll(() => texts(page)).toContain('Scope: station:1');
  await press(page, 'act-meter-clear');
  // The regulator's reference has letters, '-' and '/': the reference pad types them.
  await typeOnPad(page, 'ref', 'DICJ-2024/117');
  await expect.poll(() => texts(page)).toMatch(/Two-person action: Clear meters · station:1 · DICJ-2024\/117/);
  await typeOnPad(page, 'confirm', TECH.staff);
  await typeOnPad(page, 'confirm', TECH.pin);
  await expect.poll(() => texts(page)).toContain('Meters of station:1 cleared');
  await screenshot(page, testInfo, 'service-meter-clear-done');
  await press(page, 'page-meters');
  await press(page, 'meters-station-1');
  // Every meter of station 1 reads zero, money and counts alike.
  await expect.poll(async () => {
    const rows = await drawnTexts(page);
    const from = rows.indexOf('Station 1');
    const mine = rows.slice(from + 1).filter((r) => r.startsWith('  '));
    return from >= 0 && mine.length > 0 && mine.every((r) => /: (MOP\$)?0$|Nothing counted yet/.test(r));
  }).toBe(true);
  expect(pageErrors).toEqual([]);
});

test('two-person configuration change: edited field by field, the regulator\'s reference typed, journalled before and after', async ({ page, serviceKiosk, pageErrors }, testInfo) => {
  test.setTimeout(150_000);
  await page.goto(serviceKiosk.screens['service']!);
  await waitForEvent(page, 'snapshot:service');
  await signIn(page, SUP);
  await press(page, 'language-en');
  await press(page, 'page-config');
  await expect.poll(() => texts(page)).toMatch(/Two-person handpay above = MOP\$50,000/);
  await press(page, 'edit-handpayTwoPersonAbove');
  await expect.poll(() => texts(page)).toContain('Changing: Two-person handpay above');
  await press(page, 'field-amount');
  await typeOnPad(page, 'number', '60000');
  await expect.poll(() => texts(page)).toMatch(/New: MOP\$60,000/);
  await screenshot(page, testInfo, 'service-config-edit-en');
  await press(page, 'config-authorise');
  await typeOnPad(page, 'ref', 'DICJ-2026/123');
  await expect.poll(() => texts(page)).toMatch(/Two-person action: Change configuration · Two-person handpay above: MOP\$50,000 → MOP\$60,000 · authorisation DICJ-2026\/123/);
  await screenshot(page, testInfo, 'service-config-confirm-en');
  await typeOnPad(page, 'confirm', TECH.staff);
  await typeOnPad(page, 'confirm', TECH.pin);
  await expect.poll(() => texts(page)).toMatch(/Configuration changed|takes effect after this round/);
  await expect.poll(() => texts(page)).toMatch(/Two-person handpay above: MOP\$50,000 → MOP\$60,000 · Ana Lei \(3001\) \/ Bo Chan \(3002\) · DICJ-2026\/123/);
  await screenshot(page, testInfo, 'service-config-done-en');
  expect(pageErrors).toEqual([]);
});
