// Portugal's progressive jackpot (rules 38–50) played through the screens: the chip placed at a
// station, worded in the three languages, the table display's pools rising when the chips are
// collected (rule 41), the round settled on the table display and in the station's recall, and
// the ledger verified once the kiosk has stopped.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { drawnTexts, endBetting, expect, insertNote, press, test, waitForEvent, withKiosk, type Kiosk } from './kiosk-fixture.js';
import { playToResult, setLanguage } from './play-station.js';

const SCREEN = { width: 1280, height: 720 };
const LANGUAGES = ['zh-Hant', 'pt', 'en'] as const;
/** The jackpot spot's small type in each language: the example program's chip of MOP$1. */
const CHIP = { 'zh-Hant': '一個籌碼 MOP$1', pt: 'uma ficha de 1 MOP$', en: 'one chip of MOP$1' } as const;
const TITLE = { 'zh-Hant': '累積獎金', pt: 'Prémio acumulado', en: 'Progressive jackpot' } as const;

async function post(kiosk: Kiosk, what: string, body: object): Promise<void> {
  const r = await fetch(`${kiosk.origin}/sim/${what}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-sim-token': kiosk.simToken ?? '' },
    body: JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`${what}: ${r.status} ${await r.text()}`);
}

/** The jackpot spot's caption and small type as drawn. */
async function jackpotSpot(page: Page): Promise<string> {
  return page.evaluate(() =>
    (window.__kiosk?.boxes() ?? [])
      .filter((b) => b.owner === 'bet-jackpot')
      .map((b) => b.label.replace(/[\u00a0\u202f]/g, ' '))
      .join(' | '),
  );
}

test('Portugal jackpot: the chip at a station in three languages, the pools rising, settled on the table display and in recall, the ledger verified', async ({
  openScreen,
}) => {
  test.setTimeout(600_000);
  const args = ['--jackpot', '--sim-controls', '--seed', '4', '--betting-seconds', '90', '--decision-seconds', '90', '--results-seconds', '60'];
  await withKiosk(
    args,
    async (kiosk) => {
      const errors: string[] = [];
      const table = await openScreen(kiosk.screens['table']!, { fps: 15, errors, viewport: SCREEN });
      const s1 = await openScreen(kiosk.screens['station/1']!, { fps: 15, errors, viewport: SCREEN });
      await waitForEvent(table, 'snapshot:table');
      await waitForEvent(s1, 'snapshot:station/1');

      // The table display's panel: each level at its start value (rule 44), in the screen's language.
      await expect.poll(() => drawnTexts(table), { timeout: 30_000 }).toContain(TITLE['zh-Hant']);
      expect((await drawnTexts(table)).join('\n')).toContain('MAIN  MOP$10,000.00');

      await insertNote(kiosk, 1, 500);
      await waitForEvent(s1, 'credit:50000');
      await expect
        .poll(async () => (await drawnTexts(s1)).some((t) => Number(/^請下注 (\d+)$/.exec(t)?.[1] ?? 0) >= 30), { timeout: 240_000, intervals: [250] })
        .toBe(true);
      await post(kiosk, 'freeze-countdown', { kind: 'betting' });

      // The spot says its one chip (rule 47) in every language.
      for (const lang of LANGUAGES) {
        await setLanguage(s1, lang);
        await expect.poll(() => jackpotSpot(s1), { timeout: 20_000 }).toContain(CHIP[lang]);
      }
      await setLanguage(s1, 'zh-Hant');

      await press(s1, 'chip-10000');
      await press(s1, 'bet-main');
      await waitForEvent(s1, 'credit:40000');
      // Whatever chip is chosen, the jackpot spot takes its one chip of MOP$1.
      await press(s1, 'bet-jackpot');
      await waitForEvent(s1, 'credit:39900');
      await endBetting(kiosk);

      // Rule 41: collected, the chip raises the pools at once (20% of MOP$1: 16 avos to MAIN, 4 to MINOR).
      await expect.poll(async () => (await drawnTexts(table)).join('\n'), { timeout: 60_000 }).toContain('MAIN  MOP$10,000.16');
      expect((await drawnTexts(table)).join('\n')).toContain('MINOR  MOP$10,000.04');

      // Play to the result: stand when asked (Portugal rule 18 may ask for a hit below 12).
      await playToResult(s1, ['action-stand', 'action-hit']);
      // Settled on the table display: seat 1's result with its word.
      await expect.poll(async () => (await drawnTexts(table)).some((t) => /^(贏|輸|和局)\n[+−±]MOP\$/.test(t)), { timeout: 30_000 }).toBe(true);
      await post(kiosk, 'freeze-countdown', { kind: 'results' });

      // In the station's recall: the jackpot's own line, in each language.
      await expect
        .poll(
          async () => {
            if (!(await drawnTexts(s1)).some((t) => t.startsWith('最近 1 局記錄'))) await press(s1, 'open-recall');
            return (await drawnTexts(s1)).join('\n');
          },
          { timeout: 30_000, intervals: [1000] },
        )
        .toContain('累積獎金');
      for (const lang of ['pt', 'en'] as const) {
        await setLanguage(s1, lang);
        await setLanguage(table, lang);
        await expect.poll(async () => (await drawnTexts(s1)).join('\n'), { timeout: 20_000 }).toContain(lang === 'pt' ? 'Prémio acumulado' : 'Jackpot');
        await expect.poll(async () => (await drawnTexts(table)).join('\n'), { timeout: 20_000 }).toContain(TITLE[lang]);
      }
      expect(errors).toEqual([]);
    },
    async (dataDir) => {
      // The ledger of the whole session verifies from genesis: the chip, its pools, the settlement.
      const r = spawnSync(process.execPath, ['bin/etg.js', 'ledger', 'verify', '--data-dir', dataDir, '--full', '--json'], {
        cwd: path.resolve(import.meta.dirname, '../..'),
        encoding: 'utf8',
      });
      expect(r.status, r.stdout + r.stderr).toBe(0);
    },
  );
});
