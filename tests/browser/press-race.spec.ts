import type { Route } from '@playwright/test';
import { simulatedTableConfig } from '../../host/config/table-config.js';
import { expect, test as base, waitForEvent, type Kiosk } from './kiosk-fixture.js';
import { press, signIn, startServiceKiosk, SUP, texts } from './service-kit.js';

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
