import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page, TestInfo } from '@playwright/test';
import { simulatedTableConfig } from '../../host/config/table-config.js';
import { drawnCards, endBetting, expect, insertNote, test, waitForEvent } from './kiosk-fixture.js';
import { press, signIn, simControl, startServiceKiosk, stationClient, SUP } from './service-kit.js';

/**
 * Issue 52 item 4: a lost WebGL context (a GPU reset, a driver update) is survived. Mid-round, with
 * cards on the table, each of the table display, a station and a service page loses its context
 * through `WEBGL_lose_context` (offered by Chromium's SwiftShader with the suite's flags,
 * playwright.config.ts), and gets it back: the screen draws again everything it baked (the
 * buttons' faces, the felt, its cached layers; pixi itself uploads the card atlas again from its
 * canvas), the host's log says so, and the screen looks as it did before, pixel for pixel within a
 * small tolerance: the cards on the felt included. While lost it does not: the
 * shot taken then differs, so the comparison could fail.
 */

/** A pixel differs when a channel moves more than this (of 255): antialiasing's last bit aside. */
const CHANNEL_TOLERANCE = 24;
/** At most this share of the pixels may differ after the restore. */
const SHARE_TOLERANCE = 0.002;

interface Diff {
  differing: number;
  total: number;
  box?: { x0: number; y0: number; x1: number; y1: number };
}

/** Decodes two PNG shots in a blank page of the same browser and counts the pixels that differ. */
async function compare(browser: Browser, a: Buffer, b: Buffer): Promise<Diff> {
  const page = await browser.newPage();
  try {
    return await page.evaluate(
      async ([a64, b64, tolerance]) => {
        const pixels = async (b64: string) => {
          const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
          const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
          const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
          const ctx = canvas.getContext('2d')!;
          ctx.drawImage(bitmap, 0, 0);
          return { data: ctx.getImageData(0, 0, bitmap.width, bitmap.height).data, width: bitmap.width };
        };
        const [{ data: pa, width }, { data: pb }] = [await pixels(a64), await pixels(b64)];
        if (pa.length !== pb.length) return { differing: Math.max(pa.length, pb.length) / 4, total: Math.max(pa.length, pb.length) / 4 };
        let differing = 0;
        // Where they differ, for a failure's message: the box round the differing pixels.
        const box = { x0: Infinity, y0: Infinity, x1: -1, y1: -1 };
        for (let i = 0; i < pa.length; i += 4)
          if (Math.abs(pa[i]! - pb[i]!) > tolerance || Math.abs(pa[i + 1]! - pb[i + 1]!) > tolerance || Math.abs(pa[i + 2]! - pb[i + 2]!) > tolerance) {
            differing++;
            const x = (i / 4) % width;
            const y = Math.floor(i / 4 / width);
            Object.assign(box, { x0: Math.min(box.x0, x), y0: Math.min(box.y0, y), x1: Math.max(box.x1, x), y1: Math.max(box.y1, y) });
          }
        return { differing, total: pa.length / 4, box };
      },
      [a.toString('base64'), b.toString('base64'), CHANNEL_TOLERANCE] as const,
    );
  } finally {
    await page.close();
  }
}

/** The host's log lines a screen's reports caused. */
function reportLines(dataDir: string): { msg: string; view?: string; redrawn?: string[]; failed?: string[]; cachedLayers?: number; ms?: number }[] {
  return readFileSync(path.join(dataDir, 'logs', 'host.log'), 'utf8')
    .split('\n')
    .filter((l) => l.includes('WebGL context'))
    .map((l) => JSON.parse(l) as { msg: string });
}

/** Two animation frames: what a frame drawn now puts on the glass is in the next shot. */
const settle = (page: Page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(null)))));

/** Loses the page's context and gets it back, shooting before, during and after; returns the shots and the restore's report line. */
async function loseAndRestore(page: Page, browser: Browser, dataDir: string, view: string, testInfo: TestInfo, baked: readonly string[]): Promise<void> {
  await settle(page);
  const before = await page.screenshot();
  const known = reportLines(dataDir).length;
  const marks = await page.evaluate(() => window.__kiosk?.events.length ?? 0);
  const offered = await page.evaluate(() => {
    const canvas = document.querySelector('canvas')!;
    const gl = canvas.getContext('webgl2') ?? canvas.getContext('webgl');
    const lose = gl?.getExtension('WEBGL_lose_context') ?? null;
    Reflect.set(window, '__lose', lose);
    lose?.loseContext();
    return lose !== null;
  });
  expect(offered, 'WEBGL_lose_context is offered').toBe(true);
  await page.waitForFunction((n) => (window.__kiosk?.events ?? []).slice(n).includes('gpu:gpu-context-lost'), marks, { polling: 100 });
  await settle(page);
  const during = await page.screenshot();
  await page.evaluate(() => (Reflect.get(window, '__lose') as WEBGL_lose_context).restoreContext());
  await page.waitForFunction((n) => (window.__kiosk?.events ?? []).slice(n).includes('gpu:gpu-context-restored'), marks, { polling: 100 });
  await settle(page);
  const after = await page.screenshot();
  for (const [name, body] of [
    ['before', before],
    ['during', during],
    ['after', after],
  ] as const) {
    const file = testInfo.outputPath(`${view.replace('/', '-')}-${name}.png`);
    writeFileSync(file, body);
    await testInfo.attach(`${view.replace('/', '-')}-${name}`, { path: file, contentType: 'image/png' });
  }

  const lost = await compare(browser, before, during);
  expect(lost.differing / lost.total, `${view}: the lost context shows something else (else the comparison proves nothing)`).toBeGreaterThan(0.05);
  const back = await compare(browser, before, after);
  console.log(
    `context-loss.spec ${view}: ${back.differing} of ${back.total} pixels differ after the restore (${lost.differing} while lost), in ${JSON.stringify(back.box)}`,
  );
  expect(back.differing / back.total, `${view}: after the restore the screen looks as before`).toBeLessThanOrEqual(SHARE_TOLERANCE);

  // The host's log: the loss, then the restore naming what was drawn again.
  await expect.poll(() => reportLines(dataDir).length - known, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
  const [lostLine, restoredLine] = reportLines(dataDir).slice(known);
  expect(lostLine?.msg).toMatch(/^screen lost its WebGL context/);
  expect(lostLine?.view).toBe(view);
  expect(restoredLine?.msg).toMatch(/^screen restored its WebGL context: its art drawn again/);
  expect(restoredLine?.view).toBe(view);
  expect(restoredLine?.failed).toEqual([]);
  expect(restoredLine?.redrawn).toEqual(expect.arrayContaining([...baked]));
  expect(restoredLine?.cachedLayers).toBeGreaterThan(0);
  console.log(`context-loss.spec ${view}: ${JSON.stringify(restoredLine)}`);
}

/** The cabinet's screen. */
const CABINET = { width: 1920, height: 1080 };

/**
 * Opens a kiosk's screen on a stepped clock: nothing moves between the shots (the next card's ring
 * pulses on the wall clock). At the kiosk's 1920×1080 (not the suite's 1280×720). At 960×540 the felt's
 * “7” spot labels were drawn otherwise after the restore (1,808 pixels, 0.35 %): pixi's canvas texts
 * regenerated at half a pixel a unit, left for later (docs/screens.md).
 */
function opener(browser: Browser, screens: Record<string, string>, pages: Page[]): (view: string) => Promise<Page> {
  return async (view) => {
    const page = await browser.newPage({ viewport: CABINET });
    pages.push(page);
    const u = new URL(screens[view]!);
    u.searchParams.set('clock', 'stepped');
    await page.goto(u.toString());
    await waitForEvent(page, `snapshot:${view}`);
    return page;
  };
}

test('a lost WebGL context: the table, a station and a service page draw again all they baked, say so in the log and look as before', async ({
  browser,
}, testInfo) => {
  test.setTimeout(600_000);
  const { kiosk, stop } = await startServiceKiosk(simulatedTableConfig('blackjack'), ['--game', 'blackjack', '--sim-controls', '--seed', '5']);
  const seat1 = await stationClient(kiosk.screens['station/1']!);
  const pages: Page[] = [];
  const open = opener(browser, kiosk.screens, pages);
  try {
    const table = await open('table');
    const station = await open('station/1');
    await insertNote(kiosk, 1, 1000);
    await expect.poll(() => seat1.state()?.betting.open === true && seat1.state()!.credit > 0, { timeout: 120_000 }).toBe(true);
    // The dealer deals two cards (the seat's first and the dealer's), then waits: the round stands still with faces on the felt.
    await simControl(kiosk, 'hold-dealer', { cards: 2 });
    seat1.bet(10_000, 'main');
    await expect.poll(() => Object.keys(seat1.state()?.betting.bets ?? {}).length, { timeout: 20_000 }).toBe(1);
    await endBetting(kiosk);
    for (const page of [table, station]) {
      await expect.poll(async () => (await drawnCards(page)).length, { timeout: 60_000 }).toBe(2);
      // The cards' flights and turns land on the stepped clock.
      for (let i = 0; i < 4; i++) await page.evaluate(() => window.__kiosk?.step(1000));
    }
    // Each page closed once looked at: the pages share one software renderer.
    await loseAndRestore(table, browser, kiosk.dataDir, 'table', testInfo, ['felt']);
    await table.close();
    await loseAndRestore(station, browser, kiosk.dataDir, 'station/1', testInfo, ['button-faces']);
    await station.close();

    const service = await open('service');
    await signIn(service, SUP);
    await press(service, 'page-meters');
    await service.evaluate(() => window.__kiosk?.step(1000));
    await loseAndRestore(service, browser, kiosk.dataDir, 'service', testInfo, ['button-faces']);
  } finally {
    seat1.close();
    await Promise.all(pages.map((p) => p.close()));
    await stop();
  }
});

test('a lost WebGL context on a baccarat table: its road maps, drawn into one kept texture, are drawn again and look as before', async ({
  browser,
}, testInfo) => {
  test.setTimeout(600_000);
  const { kiosk, stop } = await startServiceKiosk(simulatedTableConfig('baccarat'), ['--game', 'baccarat', '--sim-controls', '--seed', '5']);
  const seat1 = await stationClient(kiosk.screens['station/1']!);
  const pages: Page[] = [];
  const open = opener(browser, kiosk.screens, pages);
  try {
    const table = await open('table');
    await insertNote(kiosk, 1, 1000);
    // Three coups played (a table nobody bets on waits), so the road maps have marks to lose.
    for (let coup = 0; coup < 3; coup++) {
      await expect
        .poll(() => seat1.state()?.betting.open === true && seat1.state()!.credit > 0 && Object.keys(seat1.state()!.betting.bets).length === 0, {
          timeout: 120_000,
        })
        .toBe(true);
      seat1.bet(10_000, 'banker');
      await expect.poll(() => Object.keys(seat1.state()?.betting.bets ?? {}).length, { timeout: 20_000 }).toBe(1);
      await endBetting(kiosk);
      await expect.poll(() => seat1.state()?.betting.open, { timeout: 20_000 }).toBe(false);
    }
    // The fourth coup stands still after its first two cards: faces on the felt beside the roads.
    await expect
      .poll(() => seat1.state()?.betting.open === true && seat1.state()!.credit > 0 && Object.keys(seat1.state()!.betting.bets).length === 0, {
        timeout: 120_000,
      })
      .toBe(true);
    await simControl(kiosk, 'hold-dealer', { cards: 2 });
    seat1.bet(10_000, 'banker');
    await expect.poll(() => Object.keys(seat1.state()?.betting.bets ?? {}).length, { timeout: 20_000 }).toBe(1);
    await endBetting(kiosk);
    await expect.poll(async () => (await drawnCards(table)).length, { timeout: 60_000 }).toBe(2);
    for (let i = 0; i < 4; i++) await table.evaluate(() => window.__kiosk?.step(1000));
    await loseAndRestore(table, browser, kiosk.dataDir, 'table', testInfo, ['felt', 'road-marks']);
  } finally {
    seat1.close();
    await Promise.all(pages.map((p) => p.close()));
    await stop();
  }
});
