import { drawnCards, drawnTexts, endBetting, expect, insertNote, press, test, waitForEvent } from './kiosk-fixture.js';
import { screenshot } from './screenshot.js';

test('a baccarat coup: a note credits station 1, a banker bet, cards appear on the table as read, the result is paid', async ({
  openScreen,
  baccaratKiosk,
}, testInfo) => {
  const errors: string[] = [];
  test.setTimeout(180_000);
  const table = await openScreen(baccaratKiosk.screens['table']!, { errors });
  const station = await openScreen(baccaratKiosk.screens['station/1']!, { errors });
  await waitForEvent(table, 'snapshot:table');
  await waitForEvent(station, 'snapshot:station/1');

  await insertNote(baccaratKiosk, 1, 500);
  await waitForEvent(station, 'credit:50000');

  // Betting is open from the start, the shoe-start burns dealt meanwhile (the window closes only once
  // they are done: endBetting asks until then); the spots are the host's list.
  await expect.poll(async () => station.evaluate(() => window.__kiosk?.bounds('bet-banker') ?? null), { timeout: 60_000 }).not.toBeNull();
  await press(station, 'chip-10000');
  await press(station, 'bet-banker');
  // The spot shows its name and, under it, the amount on it.
  await expect.poll(() => drawnTexts(station), { timeout: 20_000 }).toContain('莊\nMOP$100');
  await waitForEvent(station, 'credit:40000');
  await screenshot(station, testInfo, 'baccarat-station-1-bet');
  // The bet taken and seen, the window ends (not waited out).
  await endBetting(baccaratKiosk);

  // The first card on the felt appears after it is read; the table shows where the next one goes.
  await expect.poll(() => drawnCards(table), { timeout: 60_000 }).not.toEqual([]);
  // Results are held 30 s here (--results-seconds), long enough to look at them.
  await expect.poll(async () => (await drawnTexts(table)).some((t) => /^(贏|輸|和局)\n[+−±]MOP\$/.test(t)), { timeout: 60_000 }).toBe(true);
  const cards = await drawnCards(table);
  expect(cards.length).toBeGreaterThanOrEqual(4);
  for (const c of cards) expect(c).toMatch(/^[A2-9TJQK][SHDC]$/);
  // The road maps' box is baked with their marks: the table's still layer holds no vector art and is
  // drawn into a plain texture at each coup, not a multisampled one (issue 52).
  await expect
    .poll(() => table.evaluate(() => window.__kiosk?.layers().filter((l) => l.label === 'still')))
    .toEqual([{ label: 'still', antialias: false, graphics: 0 }]);
  await screenshot(table, testInfo, 'baccarat-table-result');
  await expect.poll(async () => (await drawnTexts(station)).some((t) => t.startsWith('本局結果')), { timeout: 20_000 }).toBe(true);
  await screenshot(station, testInfo, 'baccarat-station-1-result');
  expect(errors).toEqual([]);
});
