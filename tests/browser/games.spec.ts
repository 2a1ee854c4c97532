import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import { drawnCards, drawnTexts, expect, insertNote, press, test, waitForEvent, withKiosk, type Kiosk } from './kiosk-fixture.js';

/**
 * One full round of each game with two stations, through the simulated shoe and bill acceptors:
 * notes in, bets (with undo), decisions, cards arriving on the table, settlement, the last-hand
 * replay and recall, every screen in every language (screenshots in artifacts/screenshots), and
 * no text or button overlapping another at 1920×1080 and 1280×800. One host per game.
 */
const shots = path.resolve(import.meta.dirname, '../../artifacts/screenshots');
const LANGUAGES = ['zh-Hant', 'pt', 'en'] as const;
const SPOT = { blackjack: ['main', 'main'], baccarat: ['banker', 'player'], war: ['main', 'main'] } as const;
/** Decisions a test player takes when asked: stand, decline the offers, go to war. */
const PREFERRED = ['action-stand', 'action-decline-insurance', 'action-decline-even-money', 'action-war', 'action-continue'];

async function shot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  mkdirSync(shots, { recursive: true });
  const file = path.join(shots, `${name}.png`);
  await page.screenshot({ path: file });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

async function buttonShown(page: Page, id: string): Promise<boolean> {
  return page.evaluate((i) => window.__kiosk?.bounds(i) !== null, id);
}

/** Presses the station's decision buttons whenever one is asked, until its result is shown. */
async function playToResult(station: Page): Promise<void> {
  await expect
    .poll(
      async () => {
        const texts = await drawnTexts(station);
        if (texts.some((t) => /^(本局結果|Resultado|Result) /.test(t))) return true;
        for (const id of PREFERRED) {
          if (await buttonShown(station, id)) {
            await press(station, id);
            break;
          }
        }
        return false;
      },
      { timeout: 120_000, intervals: [500] },
    )
    .toBe(true);
}

/** Switches a screen's language; pressed again if the host refused it as made on an older snapshot. */
async function setLanguage(page: Page, lang: (typeof LANGUAGES)[number]): Promise<void> {
  await expect
    .poll(
      async () => {
        if (await page.evaluate((l) => window.__kiosk?.events.at(-1) === `language:${l}` || window.__kiosk?.events.at(-2) === `language:${l}`, lang)) return true;
        await press(page, `language-${lang}`);
        return false;
      },
      { timeout: 30_000, intervals: [1500] },
    )
    .toBe(true);
}

/** Pairs of visible texts/buttons whose boxes overlap by more than a pixel each way. */
async function overlaps(page: Page): Promise<string[]> {
  const boxes = await page.evaluate(() => window.__kiosk?.boxes() ?? []);
  const out: string[] = [];
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i]!;
      const b = boxes[j]!;
      const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
      const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
      if (w > 1 && h > 1) out.push(`${a.kind} "${a.label}" × ${b.kind} "${b.label}"`);
    }
  return out;
}

async function checkLayout(page: Page): Promise<void> {
  for (const size of [
    { width: 1920, height: 1080 },
    { width: 1280, height: 800 },
  ]) {
    await page.setViewportSize(size);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
    expect(await overlaps(page), `${size.width}×${size.height}`).toEqual([]);
  }
  await page.setViewportSize({ width: 1920, height: 1080 });
}

for (const game of ['blackjack', 'baccarat', 'war'] as const) {
  test(`${game}: two stations play a round, see it settle, replay it, in three languages`, async ({ openScreen }, testInfo) => {
    // Generous for a loaded machine (four helpers on two cores took 5–8 min a game); idle is far less.
    test.setTimeout(600_000);
    const args = ['--game', game, '--sim-controls', '--seed', '11', '--betting-seconds', '30', '--decision-seconds', '8', '--results-seconds', '60'];
    await withKiosk(args, async (kiosk: Kiosk) => {
      const errors: string[] = [];
      // Three screens share one software renderer here: 15 frames a second is plenty to assert on.
      const table = await openScreen(kiosk.screens['table']!, { fps: 15, errors });
      const s1 = await openScreen(kiosk.screens['station/1']!, { fps: 15, errors });
      const s2 = await openScreen(kiosk.screens['station/2']!, { fps: 15, errors });
      await waitForEvent(table, 'snapshot:table');
      await waitForEvent(s1, 'snapshot:station/1');
      await waitForEvent(s2, 'snapshot:station/2');

      await test.step('notes in, bets on two stations (undo takes back a chip)', async () => {
        await insertNote(kiosk, 1, 500);
        await insertNote(kiosk, 2, 1000);
        await waitForEvent(s1, 'credit:50000');
        await waitForEvent(s2, 'credit:100000');
        const [spot1, spot2] = SPOT[game];
        // A betting window with time enough for a finger on a loaded machine: 20 s or more left.
        await expect
          .poll(async () => (await drawnTexts(s1)).some((t) => Number(/^請下注 (\d+)$/.exec(t)?.[1] ?? 0) >= 20), { timeout: 120_000, intervals: [250] })
          .toBe(true);
        await press(s1, 'chip-10000');
        await press(s1, `bet-${spot1}`);
        await waitForEvent(s1, 'credit:40000');
        await press(s1, `bet-${spot1}`);
        await waitForEvent(s1, 'credit:30000');
        await press(s1, 'bet-undo');
        await expect.poll(() => s1.evaluate(() => window.__kiosk?.events.at(-1)), { timeout: 20_000 }).toBe('credit:40000');
        await press(s2, 'chip-20000');
        await press(s2, `bet-${spot2}`);
        await waitForEvent(s2, 'credit:80000');
        await shot(s1, testInfo, `${game}-station-1-bet-zh-Hant`);
      });

      await test.step('cards arrive on the table and the stations; decisions; settlement', async () => {
        await expect.poll(() => drawnCards(table), { timeout: 90_000 }).not.toEqual([]);
        await Promise.all([playToResult(s1), playToResult(s2)]);
        await expect.poll(async () => (await drawnTexts(table)).filter((t) => /^[+−±]MOP\$/.test(t)).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
        const cards = await drawnCards(table);
        expect(cards.length).toBeGreaterThanOrEqual(game === 'war' ? 3 : 4);
        for (const c of cards) expect(c).toMatch(/^[A2-9TJQK][SHDC]$/);
        // The station shows the dealer's (or banker's and player's) cards and its own, all on the table too.
        const mine = await drawnCards(s1);
        expect(mine.length).toBeGreaterThanOrEqual(2);
        for (const c of mine) expect(cards).toContain(c);
        for (const lang of LANGUAGES) {
          await setLanguage(table, lang);
          await setLanguage(s1, lang);
          await shot(table, testInfo, `${game}-table-result-${lang}`);
          await shot(s1, testInfo, `${game}-station-1-result-${lang}`);
          // Portuguese has the longest words: the overlap check runs on it.
          if (lang === 'pt') {
            await checkLayout(table);
            await checkLayout(s1);
          }
        }
        await setLanguage(table, 'zh-Hant');
      });

      await test.step('last-hand replay and recall from the ledger', async () => {
        await expect.poll(async () => (await s1.evaluate(() => window.__kiosk?.events ?? [])).some((e) => e.startsWith('credit:')), { timeout: 5_000 }).toBe(true);
        await expect.poll(() => s1.evaluate(() => window.__kiosk?.bounds('open-replay') !== null), { timeout: 30_000 }).toBe(true);
        // The replay button is enabled once the settled round is in the station's recall.
        await expect
          .poll(
            async () => {
              await press(s1, 'open-replay');
              return s1.evaluate(() => window.__kiosk?.events.some((e) => e.startsWith('replay:start:') && e !== 'replay:start:') ?? false);
            },
            { timeout: 30_000, intervals: [1000] },
          )
          .toBe(true);
        await expect.poll(() => s1.evaluate(() => window.__kiosk?.events.some((e) => e.startsWith('replay:done:')) ?? false), { timeout: 30_000 }).toBe(true);
        const replayed = await drawnCards(s1);
        expect(replayed.length).toBeGreaterThanOrEqual(2);
        await shot(s1, testInfo, `${game}-station-1-replay-en`);
        await press(s1, 'replay-close');
        await press(s2, 'open-recall');
        await expect.poll(async () => (await drawnTexts(s2)).some((t) => t.startsWith('最近 1 局記錄')), { timeout: 10_000 }).toBe(true);
        await shot(s2, testInfo, `${game}-station-2-recall-zh-Hant`);
        await press(s2, 'recall-close');
        await press(s2, 'open-help');
        await setLanguage(s2, 'pt');
        await expect.poll(async () => (await drawnTexts(s2)).some((t) => t.startsWith('Ajuda · ')), { timeout: 10_000 }).toBe(true);
        await shot(s2, testInfo, `${game}-station-2-help-pt`);
        await press(s2, 'help-pays');
        await expect.poll(async () => (await drawnTexts(s2)).some((t) => /: \d/.test(t) && t.includes(`${game === 'baccarat' ? 'macau-baccarat' : game === 'war' ? 'macau-war' : 'macau-2009'} art.`)), { timeout: 10_000 }).toBe(true);
        await shot(s2, testInfo, `${game}-station-2-pays-pt`);
        if (game === 'blackjack') {
          // The additional bets (Art. 13–14) have a page of their own; its lines must fit above the buttons.
          await press(s2, 'help-side');
          await expect.poll(async () => (await drawnTexts(s2)).some((t) => t.includes('Três «7» do mesmo naipe: 5000:1')), { timeout: 10_000 }).toBe(true);
          await shot(s2, testInfo, `${game}-station-2-side-bets-pt`);
          await checkLayout(s2);
        } else {
          expect(await s2.evaluate(() => window.__kiosk?.bounds('help-side') ?? null)).toBeNull();
        }
        await press(s2, 'help-close');
      });
      expect(errors).toEqual([]);
    });
  });
}
