import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import { simulatedTableConfig } from '../../host/config/table-config.js';
import { drawnTexts, endBetting, expect, insertNote, press, test, waitForEvent, withKiosk, type Kiosk } from './kiosk-fixture.js';
import { overlapping } from './layout-check.js';
import { playToResult as play, setLanguage } from './play-station.js';

/**
 * The bets of Macau 2009 Art. 13 a station places beyond its own seat's: the winning streak
 * (5)) on its own seat, and any pair (1)) on another seat's hand by a station betting behind
 * that seat (Art. 20). Two rounds through the simulated shoe with seed 298, whose first cards
 * (after the six shoe-start burns) are: seat 1 T♦ T♣ (a pair, 20) against the dealer's 9-4-6
 * (19), then seat 1 6♠ 7♦ (13) against J-5-J (bust): seat 1 wins both. So station 2's any pair
 * on seat 1 wins 11:1 in round 1, station 1's streak "2" is held with the marker at one win, and
 * round 2 pays it 3:1 from the held stake. Each is placed in the three languages, settles on the
 * table display and in recall, and the ledger verifies at the end.
 */
const LANGUAGES = ['zh-Hant', 'pt', 'en'] as const;
const SCREEN = { width: 1280, height: 720 };
const SIDE = { min: 10_000, max: 50_000 };

const events = (page: Page) => page.evaluate(() => window.__kiosk?.events ?? []);
/** Presses a button and waits for an event it causes, seen after the press (an earlier one does not count). */
async function pressFor(page: Page, id: string, event: string): Promise<void> {
  const since = (await events(page)).length;
  await press(page, id);
  await expect.poll(async () => (await events(page)).slice(since).includes(event), { timeout: 30_000 }).toBe(true);
}
const hasText = async (page: Page, part: string) => (await drawnTexts(page)).some((t) => t.replace(/[\u00a0\u202f]/g, ' ').includes(part));

async function post(kiosk: Kiosk, what: string, body: object): Promise<void> {
  const r = await fetch(`${kiosk.origin}/sim/${what}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-sim-token': kiosk.simToken ?? '' },
    body: JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`${what}: ${r.status} ${await r.text()}`);
}

/** The words each language draws: the streak's spot and marker, any pair on seat 1, the recall's lines. */
const WORDS = {
  'zh-Hant': {
    streakSpot: '連勝 2',
    tab: '任何對子',
    felt: '連勝 1 局',
    marker: '連勝：1局 · 未定 連勝 2',
    onSeat: '第1門 任何對子',
    before: '連勝：0局 · 未定 連勝 2 → 連勝：1局 · 未定 連勝 2',
    carried: '連勝 2（於之前牌局投注）',
    after: '→ 無',
  },
  pt: {
    streakSpot: '«Winning Streak» 2',
    tab: '«Qualquer par»',
    felt: '«Streak»: 1 ganhas',
    marker: '«Winning Streak»: 1 ganhas · em aberto «Winning Streak» 2',
    onSeat: '«Qualquer par» · lugar 1',
    before: '«Winning Streak»: 0 ganhas · em aberto «Winning Streak» 2 → «Winning Streak»: 1 ganhas',
    carried: '«Winning Streak» 2 (apostada numa jogada anterior)',
    after: '→ nenhuma',
  },
  en: {
    streakSpot: 'Winning streak 2',
    tab: 'Any pair',
    felt: 'Streak: 1 won',
    marker: 'Winning streak: 1 won · open Winning streak 2',
    onSeat: 'Any pair · seat 1',
    before: 'Winning streak: 0 won · open Winning streak 2 → Winning streak: 1 won',
    carried: 'Winning streak 2 (staked in an earlier round)',
    after: '→ none',
  },
} as const;

/** Part of the cash-out's warning with a streak stake held (desk.cashoutStreak), and the button's label while it waits for the second press. */
const CASHOUT_WARNING = {
  'zh-Hant': { part: '連勝即告結束', again: '再按一次以兌現' },
  pt: { part: 'a sequência termina e perdem-se', again: 'Carregue de novo para levantar' },
  en: { part: 'the streak ends and it is lost', again: 'Press again to cash out' },
} as const;

/**
 * One press of Cash out with the streak stake held, in each language: the warning is drawn whole,
 * over nothing else, the button asks for the second press, and a screenshot of each is kept for a
 * person to read. No second press: the warning's time runs out (its label goes back) before the next.
 */
async function cashoutWarningReads(station: Page, testInfo: TestInfo): Promise<void> {
  for (const lang of LANGUAGES) {
    await setLanguage(station, lang);
    await pressFor(station, 'cash-out', 'cashout:confirm-streak');
    await expect.poll(() => hasText(station, CASHOUT_WARNING[lang].part), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => hasText(station, CASHOUT_WARNING[lang].again), { timeout: 20_000 }).toBe(true);
    const boxes = await station.evaluate(() => window.__kiosk?.boxes() ?? []);
    expect(overlapping(boxes), `${lang}: the warning covers nothing`).toEqual([]);
    const warning = boxes.find((b) => b.kind === 'text' && b.label.includes(CASHOUT_WARNING[lang].part));
    expect(warning, `${lang}: the warning's box`).toBeDefined();
    if (warning) {
      expect(
        warning.x >= 0 && warning.y >= 0 && warning.x + warning.width <= SCREEN.width && warning.y + warning.height <= SCREEN.height,
        `${lang}: on screen`,
      ).toBe(true);
      console.log(`cash-out warning ${lang}: ${Math.round(warning.width)}×${Math.round(warning.height)} px at ${SCREEN.width}×${SCREEN.height}`);
      // Set smaller and wrapped across its panel (650 design pixels less 48 of margin), not scaled
      // into the panel's middle: before, Portuguese took 212 of 401 px, in glyphs of about 12 px.
      expect(warning.width, `${lang}: the warning uses its panel's width`).toBeGreaterThanOrEqual(0.75 * (650 - 48) * (SCREEN.width / 1920));
    }
    const file = testInfo.outputPath(`cashout-streak-${lang}.png`);
    await station.screenshot({ path: file });
    await testInfo.attach(`cashout-streak-${lang}`, { path: file, contentType: 'image/png' });
    await expect.poll(() => hasText(station, CASHOUT_WARNING[lang].again), { timeout: 30_000 }).toBe(false);
  }
}

/** Presses stand (or declines an offer) whenever the station is asked, until its result is shown (play-station.ts). */
const playToResult = (station: Page) => play(station, ['action-stand', 'action-decline-insurance', 'action-decline-even-money']);

/** Waits for a betting window with a minute left, then holds it open for the test. */
async function holdBetting(kiosk: Kiosk, station: Page): Promise<void> {
  await expect
    .poll(async () => (await drawnTexts(station)).some((t) => Number(/^請下注 (\d+)$/.exec(t)?.[1] ?? 0) >= 60), { timeout: 240_000, intervals: [250] })
    .toBe(true);
  await post(kiosk, 'freeze-countdown', { kind: 'betting' });
}

test('blackjack: the winning streak and any pair on another seat, placed at stations, settled on the table and in recall, in three languages', async ({
  openScreen,
}, testInfo) => {
  test.setTimeout(900_000);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'streak-spec-'));
  const configFile = path.join(dir, 'table.json');
  writeFileSync(
    configFile,
    JSON.stringify({
      ...simulatedTableConfig('blackjack'),
      profileOptions: { winningStreak: true },
      profileAuthorisation: 'DICJ-TEST-16',
      betLimits: { anyPair: SIDE, streak2: SIDE, streak3: SIDE, streak4: SIDE, streak5: SIDE },
    }),
  );
  const args = ['--config', configFile, '--sim-controls', '--seed', '298', '--betting-seconds', '90', '--decision-seconds', '90', '--results-seconds', '60'];
  try {
    await withKiosk(args, async (kiosk) => {
      const errors: string[] = [];
      const table = await openScreen(kiosk.screens['table']!, { fps: 15, errors, viewport: SCREEN });
      const s1 = await openScreen(kiosk.screens['station/1']!, { fps: 15, errors, viewport: SCREEN });
      const s2 = await openScreen(kiosk.screens['station/2']!, { fps: 15, errors, viewport: SCREEN });
      await waitForEvent(s1, 'snapshot:station/1');
      await waitForEvent(s2, 'snapshot:station/2');
      await insertNote(kiosk, 1, 500);
      await insertNote(kiosk, 2, 1000);
      await waitForEvent(s1, 'credit:50000');
      await waitForEvent(s2, 'credit:100000');

      await test.step('round 1: a streak bet on seat 1, a bet behind seat 1 and any pair on its hand', async () => {
        await holdBetting(kiosk, s1);
        await press(s1, 'chip-10000');
        await press(s1, 'bet-main');
        await waitForEvent(s1, 'credit:40000');
        await press(s1, 'bet-streak2');
        await waitForEvent(s1, 'credit:30000');
        await press(s2, 'chip-10000');
        await press(s2, 'bet-behind:1');
        await waitForEvent(s2, 'credit:90000');
        await press(s2, 'kind-anyPair');
        // The seat buttons turn to "any pair" on the next frame.
        await expect.poll(() => s2.evaluate(() => window.__kiosk?.bounds('bet-anyPair:1') !== null), { timeout: 20_000 }).toBe(true);
        await press(s2, 'bet-anyPair:1');
        await waitForEvent(s2, 'credit:80000');
        for (const lang of LANGUAGES) {
          await Promise.all([setLanguage(s1, lang), setLanguage(s2, lang)]);
          await expect.poll(() => hasText(s1, WORDS[lang].streakSpot), { timeout: 20_000 }).toBe(true);
          await expect.poll(() => hasText(s2, WORDS[lang].tab), { timeout: 20_000 }).toBe(true);
        }
        await Promise.all([setLanguage(s1, 'zh-Hant'), setLanguage(s2, 'zh-Hant')]);
        await endBetting(kiosk);
        await playToResult(s1);
        await post(kiosk, 'freeze-countdown', { kind: 'results' });
        // Station 2's any pair on seat 1's T-T won 11:1, celebrated at station 2 (the table display
        // celebrates only the seat's own player's wins: a bettor's on the seat stay at its station).
        await expect.poll(async () => (await events(s2)).some((e) => e === 'celebrate:station:side-bet:anyPair:110000'), { timeout: 60_000 }).toBe(true);
        for (const lang of LANGUAGES) {
          await Promise.all([setLanguage(table, lang), setLanguage(s1, lang)]);
          // The marker moved to one win: on the table display by the seat, and at station 1.
          await expect.poll(() => hasText(table, WORDS[lang].felt), { timeout: 20_000 }).toBe(true);
          await expect.poll(() => hasText(s1, WORDS[lang].marker), { timeout: 20_000 }).toBe(true);
        }
        expect(await hasText(s2, '連勝：'), "station 2 never sees seat 1's marker").toBe(false);
        for (const lang of LANGUAGES) {
          await Promise.all([setLanguage(s1, lang), setLanguage(s2, lang)]);
          await press(s1, 'open-recall');
          await press(s2, 'open-recall');
          await expect.poll(() => hasText(s1, WORDS[lang].before), { timeout: 20_000 }).toBe(true);
          await expect.poll(() => hasText(s2, WORDS[lang].onSeat), { timeout: 20_000 }).toBe(true);
          await press(s1, 'recall-close');
          await press(s2, 'recall-close');
        }
        // Station 1's streak stake is held: a cash-out now says what it leaves, first.
        await cashoutWarningReads(s1, testInfo);
        await Promise.all([setLanguage(table, 'zh-Hant'), setLanguage(s1, 'zh-Hant'), setLanguage(s2, 'zh-Hant')]);
        await post(kiosk, 'end-countdown', { kind: 'results' });
      });

      await test.step('round 2: the open streak bet rides, wins again and is paid 3:1 from its held stake', async () => {
        await holdBetting(kiosk, s1);
        // Round 1 paid the main bet (20,000 back on the 50,000 left after the two bets): 50,000 before this one.
        await pressFor(s1, 'bet-main', 'credit:40000');
        await endBetting(kiosk);
        await playToResult(s1);
        await post(kiosk, 'freeze-countdown', { kind: 'results' });
        await expect.poll(async () => (await events(s1)).some((e) => e === 'celebrate:station:side-bet:streak2:30000'), { timeout: 60_000 }).toBe(true);
        for (const lang of LANGUAGES) {
          await setLanguage(s1, lang);
          await press(s1, 'open-recall');
          await expect.poll(() => hasText(s1, WORDS[lang].carried), { timeout: 20_000 }).toBe(true);
          await expect.poll(() => hasText(s1, WORDS[lang].after), { timeout: 20_000 }).toBe(true);
          await press(s1, 'recall-close');
        }
        // The table display settles the streak bet among seat 1's results, and its marker is gone
        // once every streak bet is decided.
        expect(await events(table)).toContain('celebrate:seat:1:side-bet:streak2');
        expect((await drawnTexts(table)).some((t) => /連勝 \d+ 局/.test(t))).toBe(false);
      });

      const verified = JSON.parse(
        execFileSync(process.execPath, ['bin/etg.js', 'ledger', 'verify', '--data-dir', kiosk.dataDir!, '--json'], { encoding: 'utf8' }),
      ) as {
        ok: boolean;
      };
      expect(verified.ok).toBe(true);
      expect(errors).toEqual([]);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
