import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import { simulatedTableConfig } from '../../host/config/table-config.js';
import { drawnCards, drawnTexts, endBetting, expect, insertNote, press, test, waitForEvent, withKiosk, type Kiosk } from './kiosk-fixture.js';
import { offTheFelt, overlapping } from './layout-check.js';
import { playToResult as play, setLanguage } from './play-station.js';

/**
 * One full round of each game with two stations, through the simulated shoe and bill acceptors:
 * notes in (the clock flashes for the new session), bets (with undo, and a bet over the credit
 * and one over the maximum refused in words, the chips not trimmed), an offer asked as a
 * question, cards arriving on the table, settlement with a side-bet win celebrated, the last-hand
 * replay, recall, help, a pending cash-out and a bill-acceptor fault: every screen in every
 * language (screenshots in artifacts/screenshots), and nothing overlapping at 1920×1080 and
 * 1280×800 on the bet, decision, result and help screens. One host per game.
 *
 * The screens run at 1280×720, the kiosk's 16:9 at under half of 1080p's pixels: SwiftShader draws
 * every frame of three screens on the CPU, and at 1080p it managed under 2 frames a second on CI.
 * The layout is the same scaled (the stage fits the design to the window); the layout checks
 * still look at 1920×1080 and 1280×800. The betting window and the results are frozen through
 * the sim controls while the test looks at them and ended when it is done, so a slow machine is
 * never overtaken by the next round and a fast one never waits a window out.
 *
 * The seeds are chosen so the first round has what is to be shown: blackjack deals the dealer an
 * ace (station 1 is offered insurance, station 2 even money) and station 1's over-13 bet wins;
 * baccarat gives the banker a pair (station 1's pair bet wins); war ties both seats (station 1's
 * tie bet wins and its main bet is returned, station 2, without a tie bet, is offered war).
 */
const shots = path.resolve(import.meta.dirname, '../../artifacts/screenshots');
const LANGUAGES = ['zh-Hant', 'pt', 'en'] as const;
type Lang = (typeof LANGUAGES)[number];

interface Plan {
  seed: number;
  /** What stations 1 and 2 bet, one chip each (station 1's main spot twice, then one undone). */
  one: readonly string[];
  two: readonly string[];
  /** The spot limited to MOP$500 by the test's configuration (the over-the-maximum refusal). */
  side: string;
  /** The station asked an offer, and the question as zh-Hant words it. */
  offer: { station: 1 | 2; zh: string } | null;
  /** The station whose additional bet wins. */
  prize: { station: 1 | 2; bet: string };
}

const PLAN: Record<'blackjack' | 'baccarat' | 'war', Plan> = {
  blackjack: {
    seed: 5,
    one: ['main', 'over13'],
    two: ['main'],
    side: 'over13',
    offer: { station: 2, zh: '您有《Black Jack》：是否接受即時派彩？' },
    prize: { station: 1, bet: 'over13' },
  },
  baccarat: { seed: 3, one: ['banker', 'bankerPair'], two: ['banker'], side: 'bankerPair', offer: null, prize: { station: 1, bet: 'bankerPair' } },
  war: {
    seed: 72,
    one: ['main', 'tie'],
    two: ['main'],
    side: 'tie',
    offer: { station: 2, zh: '同點：挑戰莊家或輸一半投注？' },
    prize: { station: 1, bet: 'tie' },
  },
};

/** What the help's pay table must read, per game (zh-Hant, pt, en): odds and the article as players read them. */
const PAYS = {
  blackjack: ['《Black Jack》：2 賠 3（第十條）', '«Black Jack»: 3 para 2 (Art. 10.º)', 'Blackjack: 3 to 2 (Art. 10)'],
  baccarat: ['1 賠 1（扣佣金 5%）（第十八條）', '1 para 1 (menos 5% de comissão) (Art. 18.º)', '1 to 1 (less 5% commission) (Art. 18)'],
  // The war text on file has no article headings: its numbers are reconstructed, and the help says so.
  war: [
    '和局注：1 賠 10（第七條，條號為重構）',
    'Aposta no empate: 10 para 1 (Art. 7.º, numeração reconstituída)',
    'Tie bet: 10 to 1 (Art. 7, number reconstructed)',
  ],
} as const;

/** Decisions a test player takes when asked: stand, decline the offers, go to war. */
const PREFERRED = ['action-stand', 'action-decline-insurance', 'action-decline-even-money', 'action-war', 'action-continue'];

/** Presses the station's decision buttons whenever one is asked, until its result is shown (play-station.ts). */
const playToResult = (station: Page) => play(station, PREFERRED);

async function shot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  mkdirSync(shots, { recursive: true });
  const file = path.join(shots, `${name}.png`);
  await page.screenshot({ path: file });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

async function buttonShown(page: Page, id: string): Promise<boolean> {
  return page.evaluate((i) => window.__kiosk?.bounds(i) !== null, id);
}

const events = (page: Page) => page.evaluate(() => window.__kiosk?.events ?? []);

/** Each screen in each language, as many screens at once as are given; back in zh-Hant at the end. */
async function everyLanguage(pages: Page[], each: (lang: Lang) => Promise<void>): Promise<void> {
  for (const lang of LANGUAGES) {
    await Promise.all(pages.map((p) => setLanguage(p, lang)));
    await each(lang);
  }
  await Promise.all(pages.map((p) => setLanguage(p, 'zh-Hant')));
}

/** Where the screens run in this test (see the top of the file). */
const SCREEN = { width: 1280, height: 720 };

/** 15 mm on the smallest station screen we support (13.3″, 1280×800, 113.5 dpi): 67 px. */
const TOUCH_PX_AT_1280 = Math.ceil((15 * Math.hypot(1280, 800)) / 13.3 / 25.4);

async function checkLayout(page: Page, station: boolean): Promise<void> {
  for (const size of [
    { width: 1920, height: 1080 },
    { width: 1280, height: 800 },
  ]) {
    await page.setViewportSize(size);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
    const boxes = await page.evaluate(() => window.__kiosk?.boxes() ?? []);
    expect(overlapping(boxes), `${size.width}×${size.height}`).toEqual([]);
    const felt = await page.evaluate(() => window.__kiosk?.felt() ?? null);
    if (!station) expect(felt, 'the table display draws a felt').not.toBeNull();
    expect(offTheFelt(felt, boxes), `${size.width}×${size.height}: beside the felt`).toEqual([]);
    // The celebration of the test's prize is placed (its room is checked above, shown or not).
    if (!station) expect(boxes.some((b) => b.kind === 'overlay')).toBe(true);
    if (station && size.width === 1280) {
      const small = boxes
        .filter((b) => b.kind === 'button' && (b.width < TOUCH_PX_AT_1280 || b.height < TOUCH_PX_AT_1280))
        .map((b) => `${b.label} ${Math.round(b.width)}×${Math.round(b.height)}`);
      expect(small, 'buttons under 15 mm at 1280×800').toEqual([]);
    }
  }
  // Back at the test's size, and drawn there before anything is pressed: pixi hit-tests with the
  // transforms of the last frame drawn, and at 15 frames a second a press right after the resize
  // (the felt drawn anew at the new resolution first) could land where a button was at 1280×800.
  const drawn = await page.evaluate(() => window.__kiosk?.framesDrawn() ?? 0);
  await page.setViewportSize(SCREEN);
  await page.waitForFunction((n) => (window.__kiosk?.framesDrawn() ?? 0) > n, drawn, { polling: 50, timeout: 20_000 });
}

async function post(kiosk: Kiosk, what: string, body: object): Promise<void> {
  const r = await fetch(`${kiosk.origin}/sim/${what}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-sim-token': kiosk.simToken ?? '' },
    body: JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`${what}: ${r.status} ${await r.text()}`);
}

/** A button's caption and limits as drawn (the spot's amount is in its caption). */
async function spotText(page: Page, bet: string): Promise<string[]> {
  return page.evaluate((id) => (window.__kiosk?.boxes() ?? []).filter((b) => b.owner === id).map((b) => b.label.replace(/[\u00a0\u202f]/g, ' ')), `bet-${bet}`);
}

for (const game of ['blackjack', 'baccarat', 'war'] as const) {
  test(`${game}: two stations play a round, see it settle, replay it, in three languages`, async ({ openScreen }, testInfo) => {
    // Generous for a loaded machine (four helpers on two cores took 5–9 min a game); idle is far less.
    test.setTimeout(900_000);
    const plan = PLAN[game];
    // The side bet has a maximum of MOP$500 here, so a MOP$1,000 chip on it is over the maximum.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'games-spec-'));
    const configFile = path.join(dir, 'table.json');
    writeFileSync(configFile, JSON.stringify({ ...simulatedTableConfig(game), betLimits: { [plan.side]: { min: 10_000, max: 50_000 } } }));
    // Long windows cost nothing: the players act at once, and nothing waits for the next round.
    const args = [
      '--config',
      configFile,
      '--sim-controls',
      '--seed',
      String(plan.seed),
      '--betting-seconds',
      '90',
      '--decision-seconds',
      '90',
      '--results-seconds',
      '60',
    ];
    try {
      await withKiosk(args, async (kiosk: Kiosk) => {
        const errors: string[] = [];
        // Three screens share one software renderer here: 15 frames a second is plenty to assert on.
        const table = await openScreen(kiosk.screens['table']!, { fps: 15, errors, viewport: SCREEN });
        const s1 = await openScreen(kiosk.screens['station/1']!, { fps: 15, errors, viewport: SCREEN });
        const s2 = await openScreen(kiosk.screens['station/2']!, { fps: 15, errors, viewport: SCREEN });
        const station = { 1: s1, 2: s2 } as const;
        await waitForEvent(table, 'snapshot:table');
        await waitForEvent(s1, 'snapshot:station/1');
        await waitForEvent(s2, 'snapshot:station/2');

        await test.step('notes in (a session starts), bets with undo, a bet over the credit and one over the maximum refused', async () => {
          await insertNote(kiosk, 1, 500);
          await insertNote(kiosk, 2, 1000);
          await waitForEvent(s1, 'credit:50000');
          await waitForEvent(s2, 'credit:100000');
          // Credit arriving at a station that held nothing starts a player's session: the clock flashes.
          expect(await events(s1)).toContain('session:start');
          // A betting window with time enough for the bets, the refusals and three screenshots on a
          // loaded machine: 60 s or more left.
          await expect
            .poll(async () => (await drawnTexts(s1)).some((t) => Number(/^請下注 (\d+)$/.exec(t)?.[1] ?? 0) >= 60), { timeout: 240_000, intervals: [250] })
            .toBe(true);
          // And it waits for the test, however slow the machine: the window ends when the test says.
          await post(kiosk, 'freeze-countdown', { kind: 'betting' });
          const [main = 'main', side] = plan.one;
          await press(s1, 'chip-10000');
          await press(s1, `bet-${main}`);
          await waitForEvent(s1, 'credit:40000');
          await press(s1, `bet-${main}`);
          await waitForEvent(s1, 'credit:30000');
          await press(s1, 'bet-undo');
          await expect.poll(() => s1.evaluate(() => window.__kiosk?.events.at(-1)), { timeout: 20_000 }).toBe('credit:40000');
          let credit = 40_000;
          if (side) {
            await press(s1, `bet-${side}`);
            await waitForEvent(s1, 'credit:30000');
            credit = 30_000;
          }
          await press(s2, 'chip-20000');
          await press(s2, `bet-${plan.two[0]}`);
          await waitForEvent(s2, 'credit:80000');
          if (plan.two[1]) {
            await press(s2, 'chip-10000');
            await press(s2, `bet-${plan.two[1]}`);
            await waitForEvent(s2, 'credit:70000');
          }
          // The station to be asked waits in help: the decision must close it.
          if (plan.offer) await press(station[plan.offer.station], 'open-help');

          // Over the maximum of the side spot (MOP$500) and over the credit: refused in words, nothing trimmed.
          const before = await spotText(s1, main);
          expect(before.join(' ')).toContain('MOP$100');
          await press(s1, 'chip-100000');
          await press(s1, `bet-${plan.side}`);
          await expect.poll(() => drawnTexts(s1), { timeout: 20_000 }).toContain('超過此注項最高投注額');
          await press(s1, 'chip-50000');
          if (credit < 50_000) {
            await press(s1, `bet-${main}`);
            await expect.poll(() => drawnTexts(s1), { timeout: 20_000 }).toContain('餘額不足');
          }
          expect(await spotText(s1, main)).toEqual(before);
          expect((await events(s1)).filter((e) => e.startsWith('credit:')).at(-1)).toBe(`credit:${credit}`);
          expect(await events(s1)).toContain('refused:refusals.over-max');
          await press(s1, 'chip-10000');

          await everyLanguage([s1], async (lang) => {
            // Still the betting window: the spots are there.
            expect(await buttonShown(s1, `bet-${main}`)).toBe(true);
            await shot(s1, testInfo, `${game}-station-1-bet-${lang}`);
            // Portuguese has the longest words: the layout check runs on it.
            if (lang === 'pt') await checkLayout(s1, true);
          });
          // Done with the window: no more bets, as a dealer would call it.
          await endBetting(kiosk);
        });

        await test.step('cards arrive on the table and the stations; an offer asked as a question; decisions', async () => {
          await expect.poll(() => drawnCards(table), { timeout: 120_000 }).not.toEqual([]);
          const offer = plan.offer;
          if (!offer) {
            await Promise.all([playToResult(s1), playToResult(s2)]);
            return;
          }
          // The other station plays on meanwhile (blackjack asks seat 1 for insurance first).
          const asked = station[offer.station];
          const other = playToResult(station[offer.station === 1 ? 2 : 1]);
          // It waited in help: the decision closed the panel (the question is not hidden behind it).
          await expect.poll(async () => (await events(asked)).includes('panel:closed-for-decision'), { timeout: 180_000 }).toBe(true);
          await expect.poll(() => drawnTexts(asked), { timeout: 120_000 }).toContain(offer.zh);
          if (game === 'blackjack') {
            // The hand that is asked even money is a natural: the table names it, never counts it as 11/21.
            await expect.poll(() => drawnTexts(table), { timeout: 20_000 }).toContain('《Black Jack》');
            expect(await drawnTexts(table)).not.toContain('11/21');
          }
          await everyLanguage([asked], async (lang) => {
            await shot(asked, testInfo, `${game}-station-${offer.station}-decision-${lang}`);
            if (lang === 'pt') await checkLayout(asked, true);
          });
          await Promise.all([other, playToResult(asked)]);
        });

        await test.step("settlement: each seat's own result with its word, the side-bet win celebrated", async () => {
          await expect
            .poll(async () => (await drawnTexts(table)).filter((t) => /^(贏|輸|和局)\n[+−±]MOP\$/.test(t)).length, { timeout: 30_000 })
            .toBeGreaterThanOrEqual(2);
          // The results stay until the shots below are taken, however slow the machine.
          await post(kiosk, 'freeze-countdown', { kind: 'results' });
          if (!plan.offer) {
            // Baccarat asks no decision: station 2 opens its recall now, while the results last, and
            // leaves it open; the next betting window must close it (checked after the shots below).
            await expect
              .poll(
                async () => {
                  if (!(await drawnTexts(s2)).some((t) => t.startsWith('最近 1 局記錄'))) await press(s2, 'open-recall');
                  return (await drawnTexts(s2)).some((t) => t.startsWith('最近 1 局記錄'));
                },
                { timeout: 30_000, intervals: [1000] },
              )
              .toBe(true);
          }
          const { station: n, bet } = plan.prize;
          expect(await events(table)).toContain(`celebrate:seat:${n}:side-bet:${bet}`);
          expect((await events(station[n])).some((e) => e.startsWith(`celebrate:station:side-bet:${bet}:`))).toBe(true);
          const cards = await drawnCards(table);
          expect(cards.length).toBeGreaterThanOrEqual(game === 'war' ? 3 : 4);
          for (const c of cards) expect(c).toMatch(/^[A2-9TJQK][SHDC]$/);
          // The station shows the dealer's (or banker's and player's) cards and its own, all on the table too.
          const mine = await drawnCards(s1);
          expect(mine.length).toBeGreaterThanOrEqual(2);
          for (const c of mine) expect(cards).toContain(c);
          await everyLanguage([table, s1], async (lang) => {
            // Still the results (frozen above), not the next round.
            expect((await drawnTexts(table)).some((t) => /^(贏|輸|和局|Ganha|Perde|Empate|Win|Lose|Push)\n/.test(t))).toBe(true);
            await shot(table, testInfo, `${game}-table-result-${lang}`);
            await shot(s1, testInfo, `${game}-station-1-result-${lang}`);
            if (lang === 'pt') {
              await checkLayout(table, false);
              await checkLayout(s1, true);
            }
          });
          // The results have been seen: the next round's betting window opens.
          await post(kiosk, 'end-countdown', { kind: 'results' });
        });

        if (!plan.offer) {
          await test.step('the next betting window closes a panel left open', async () => {
            await expect.poll(async () => (await events(s2)).includes('panel:closed-for-betting'), { timeout: 120_000 }).toBe(true);
            expect(await buttonShown(s2, 'bet-banker')).toBe(true);
          });
        }

        // Next: station 2 cashes out (its bets locked until an attendant pays) and station 1's acceptor
        // jams (the station disabled): neither gets the next betting window, which would close the
        // recall, replay and help panels the steps after this one look at.
        await test.step('a pending cash-out and a bill-acceptor fault, in words, in each language', async () => {
          // The results just ended: the press comes once station 2 draws the next betting window (the
          // view it presses on). A press landing as that window opens met a newer view and was refused
          // as stale (a flake: the station drew «請下注 72» and never the cash-out); the station now
          // resends a cash-out once against the newest view, and the refusal, if any, is named below.
          await expect.poll(async () => (await drawnTexts(s2)).some((t) => /^請下注 \d+$/.test(t)), { timeout: 60_000 }).toBe(true);
          await press(s2, 'cash-out');
          await expect
            .poll(
              async () => {
                const refused = (await events(s2)).filter((e) => e.startsWith('refused:'));
                return (await drawnTexts(s2)).includes('兌現處理中') ? 'pending' : `not yet (station 2 refusals: ${refused.join(', ') || 'none'})`;
              },
              { timeout: 20_000 },
            )
            .toBe('pending');
          await post(kiosk, 'bill-fault', { station: 1, fault: 'jam' });
          // The fault's own words across the top of the station, never a code.
          await expect.poll(async () => (await drawnTexts(s1)).some((t) => t.includes('收鈔機卡鈔')), { timeout: 30_000 }).toBe(true);
          await everyLanguage([s1, s2], async (lang) => {
            await shot(s2, testInfo, `${game}-station-2-cashout-${lang}`);
            await shot(s1, testInfo, `${game}-station-1-fault-${lang}`);
          });
          expect((await drawnTexts(s1)).join(' ')).not.toMatch(/bill-jam|tilt\./);
        });
        await test.step('last-hand replay and recall from the ledger', async () => {
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
          expect((await drawnCards(s1)).length).toBeGreaterThanOrEqual(2);
          await press(s2, 'open-recall');
          await expect.poll(async () => (await drawnTexts(s2)).some((t) => t.startsWith('最近 1 局記錄')), { timeout: 10_000 }).toBe(true);
          await everyLanguage([s1, s2], async (lang) => {
            await shot(s1, testInfo, `${game}-station-1-replay-${lang}`);
            await shot(s2, testInfo, `${game}-station-2-recall-${lang}`);
          });
          await press(s1, 'replay-close');
          await press(s2, 'recall-close');
        });

        await test.step('help: the pay table with odds and articles as players read them, in each language', async () => {
          await press(s2, 'open-help');
          await press(s2, 'help-pays');
          await everyLanguage([s2], async (lang) => {
            const want = PAYS[game][LANGUAGES.indexOf(lang)]!;
            await expect.poll(async () => (await drawnTexts(s2)).some((t) => t.split('\n').some((l) => l.endsWith(want))), { timeout: 10_000 }).toBe(true);
            const text = (await drawnTexts(s2)).join('\n');
            // Never the settlement's rule id, a decimal ratio or a negative one.
            expect(text).not.toMatch(/macau-|portugal-|art\.\d|pay-table|0\.95|-1:2/);
            await shot(s2, testInfo, `${game}-station-2-help-${lang}`);
            if (lang === 'pt') await checkLayout(s2, true);
          });
          if (game === 'blackjack') {
            // The additional bets (Art. 13–14) have a page of their own; its lines must fit above the buttons.
            await setLanguage(s2, 'pt');
            await press(s2, 'help-side');
            await expect
              .poll(async () => (await drawnTexts(s2)).some((t) => t.includes('Três «7» do mesmo naipe: 5000 para 1 (Art. 13.º)')), { timeout: 10_000 })
              .toBe(true);
            await shot(s2, testInfo, `${game}-station-2-side-bets-pt`);
            await checkLayout(s2, true);
            await setLanguage(s2, 'zh-Hant');
          } else {
            expect(await s2.evaluate(() => window.__kiosk?.bounds('help-side') ?? null)).toBeNull();
          }
          await press(s2, 'help-close');
        });

        expect(errors).toEqual([]);
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
