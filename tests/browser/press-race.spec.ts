import type { Route } from '@playwright/test';
import { simulatedTableConfig } from '../../host/config/table-config.js';
import { expect, insertNote, test as base, waitForEvent, withKiosk, type Kiosk } from './kiosk-fixture.js';
import { press, signIn, simControl, startServiceKiosk, stationClient, SUP, texts } from './service-kit.js';

/**
 * A press right after a language is chosen, while the page fetches that language's words (a
 * chunk of its own from the host: locales/catalogue-files.screens.ts). The CI run of 27 November
 * pressed English, then the Config page: the page stayed on the Status page in English for 20 s.
 * The Config page's snapshot came while English was fetched and was drawn, then the Status
 * page's from before it, once English had come (renderer/src/boot/show-snapshots.ts). Here the
 * English words are held back until the Config page's snapshot has come, every time.
 */
const test = base.extend<object, { serviceKiosk: Kiosk }>({
  serviceKiosk: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const { kiosk, stop } = await startServiceKiosk(simulatedTableConfig('blackjack'), ['--seed', '7']);
      await use(kiosk);
      await stop();
    },
    { scope: 'worker' },
  ],
});

test('a page pressed while the language just chosen is fetched is the page shown', async ({ page, serviceKiosk, pageErrors }) => {
  // The host's messages to the page, as they come.
  const received: string[] = [];
  page.on('websocket', (ws) => ws.on('framereceived', (f) => void received.push(String(f.payload))));
  let held: Route | null = null;
  await page.route('**/assets/en-*.js', (route) => void (held = route));
  await page.goto(serviceKiosk.screens['service']!);
  await waitForEvent(page, 'snapshot:service');
  await signIn(page, SUP);
  await press(page, 'language-en');
  await expect.poll(() => held !== null, { message: 'the page asks for the English words' }).toBe(true);
  const before = received.length;
  await press(page, 'page-config');
  await expect.poll(() => received.slice(before).some((m) => m.includes('"config"')), { message: "the Config page's snapshot has come" }).toBe(true);
  await (held as Route | null)?.continue();
  await expect.poll(() => texts(page)).toMatch(/Two-person handpay above = MOP\$/);
  expect(pageErrors).toEqual([]);
});

/**
 * A finger on a station's bet spot while a snapshot draws the station's buttons anew (another
 * language here; a decision asked does the same): the spot under the finger when it is lifted is
 * a new button with the same id, and pixi gave the tap to neither (renderer/src/ui/button.ts).
 */
test('a bet spot pressed while the station draws its buttons anew takes the bet', async ({ page, pageErrors }) => {
  test.setTimeout(180_000);
  await withKiosk(['--sim-controls', '--seed', '7', '--betting-seconds', '120', '--decision-seconds', '120'], async (kiosk) => {
    const station = await stationClient(kiosk.screens['station/1']!);
    await page.goto(kiosk.screens['station/1']!);
    await waitForEvent(page, 'snapshot:station/1');
    await insertNote(kiosk, 1, 500);
    await waitForEvent(page, 'credit:50000');
    await expect.poll(() => station.state()?.betting.open, { timeout: 60_000 }).toBe(true);
    // The window stays open while the test looks (a slow machine is not overtaken by the deal).
    await simControl(kiosk, 'freeze-countdown', { kind: 'betting' });
    await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => r())));
    const spot = await page.evaluate(() => window.__kiosk?.bounds('bet-main') ?? null);
    expect(spot).not.toBeNull();
    await page.mouse.move(spot!.x + spot!.width / 2, spot!.y + spot!.height / 2);
    await page.mouse.down();
    // Portuguese chosen at the station meanwhile (a command made against an older version is refused: asked again).
    await expect
      .poll(async () => {
        const events = await page.evaluate(() => window.__kiosk?.events ?? []);
        if (!events.includes('language:pt')) station.language('pt');
        return events.includes('language:pt');
      })
      .toBe(true);
    expect(await page.evaluate(() => window.__kiosk?.bounds('bet-main') ?? null)).toEqual(spot);
    await page.mouse.up();
    await expect.poll(() => station.state()?.betting.bets.main ?? 0).toBeGreaterThan(0);
    station.close();
    // Here, before the kiosk stops (the page then says it cannot reach it).
    expect(pageErrors).toEqual([]);
  });
});
