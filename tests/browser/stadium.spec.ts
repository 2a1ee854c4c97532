import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import type { Page } from '@playwright/test';
import { drawnTexts, expect, press, test, waitForEvent } from './kiosk-fixture.js';
import { escapeRegExp, tr } from './service-kit.js';

const shots = path.resolve(import.meta.dirname, '../../artifacts/screenshots');

/** Presses a language and waits for the snapshot in it. */
async function language(page: Page, lang: 'zh-Hant' | 'pt'): Promise<void> {
  await press(page, `language-${lang}`);
  await waitForEvent(page, `language:${lang}`);
}

/**
 * Closes the roads with the panel's own button, unless the station has closed them already: the
 * panel closes itself when the next coup's betting opens (station-screen.ts, the event
 * `panel:closed-for-betting`), and on a loaded machine the 20 s of results can run out while the
 * roads are read and photographed (seen 29 November with two Playwright workers on two cores).
 */
async function closeRoads(station: Page): Promise<void> {
  const closedForBetting = () => station.evaluate(() => window.__kiosk?.events.includes('panel:closed-for-betting') ?? false);
  if (!(await closedForBetting())) {
    await press(station, 'roads-close').catch(async (e: unknown) => {
      if (!(await closedForBetting())) throw e;
    });
  }
  await expect.poll(() => station.evaluate(() => window.__kiosk?.bounds('roads-close') ?? null)).toBeNull();
}

/**
 * One coup at the remote station: a chip on the banker, the cards as read, the result. The chip
 * goes down while the betting countdown still shows 8 s or more (the window is 15 s): a press
 * that lands as the window closes is refused, as a player's would be. Seen in the CI run of
 * 25 November on 5c1d0f3, where the bet never showed.
 */
async function playCoup(station: Page, lang: 'zh-Hant' | 'pt', control: (line: string) => void, betWord: RegExp, resultWord: RegExp): Promise<void> {
  const [head = '', tail = ''] = tr(lang, 'phase.betting', { seconds: '\u0000' }).split('\u0000');
  const countdown = new RegExp(`^${escapeRegExp(head)}(\\d+)${escapeRegExp(tail)}$`);
  const secondsLeft = async () => Math.max(0, ...(await drawnTexts(station)).map((t) => Number(countdown.exec(t)?.[1] ?? 0)));
  await expect.poll(secondsLeft, { timeout: 120_000, intervals: [250] }).toBeGreaterThanOrEqual(8);
  await press(station, 'chip-10000');
  await press(station, 'bet-banker');
  await expect.poll(async () => (await drawnTexts(station)).some((t) => betWord.test(t)), { timeout: 20_000 }).toBe(true);
  control('end-betting');
  await expect.poll(async () => (await drawnTexts(station)).some((t) => resultWord.test(t)), { timeout: 90_000 }).toBe(true);
}

test('a remote station plays a baccarat coup through its station agent, in Traditional Chinese and in Portuguese', async ({ openScreen }, testInfo) => {
  test.setTimeout(300_000);
  const root = path.resolve(import.meta.dirname, '../..');
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/browser/stadium-kiosk.ts'], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
  try {
    const urls = await new Promise<{ table: string; station: string }>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`the stadium kiosk exited with ${code}`)));
      readline.createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line) as { table: string; station: string }));
    });
    const control = (line: string) => child.stdin?.write(`${line}\n`);
    const errors: string[] = [];
    const station = await openScreen(urls.station, { errors });
    const table = await openScreen(urls.table, { errors, fps: 10 });
    await waitForEvent(station, 'snapshot:station/101');
    await waitForEvent(table, 'snapshot:table');
    // The station says which remote station it is; a note at its own acceptor credits it.
    await expect.poll(() => drawnTexts(station), { timeout: 20_000 }).toContain('遙距投注機 101');
    control('note 500');
    await waitForEvent(station, 'credit:50000');

    await playCoup(station, 'zh-Hant', control, /^莊\nMOP\$100/, /^本局結果/);
    // The table display shows the stadium: its players and their total on each spot.
    await expect.poll(async () => (await drawnTexts(table)).some((t) => t.startsWith('遙距投注機：1 部投注中')), { timeout: 20_000 }).toBe(true);
    mkdirSync(shots, { recursive: true });
    await station.screenshot({ path: path.join(shots, 'stadium-station-101-zh-Hant.png') });
    // The roads, which a remote station has no table display to read on: the coup just played is on them.
    await press(station, 'open-roads');
    await expect.poll(async () => (await drawnTexts(station)).some((t) => t.startsWith('局數 1')), { timeout: 20_000 }).toBe(true);
    expect(await drawnTexts(station)).toContain('珠盤路');
    await station.screenshot({ path: path.join(shots, 'stadium-station-101-roads-zh-Hant.png') });
    await closeRoads(station);

    await language(station, 'pt');
    await expect.poll(() => drawnTexts(station), { timeout: 20_000 }).toContain('Terminal remoto 101');
    await playCoup(station, 'pt', control, /^Banqueiro\n/, /^Resultado/);
    await station.screenshot({ path: path.join(shots, 'stadium-station-101-pt.png') });
    await testInfo.attach('stadium-station-101-pt', { path: path.join(shots, 'stadium-station-101-pt.png'), contentType: 'image/png' });
    expect(errors).toEqual([]);
  } finally {
    child.stdin?.end();
    child.kill('SIGTERM');
  }
});
