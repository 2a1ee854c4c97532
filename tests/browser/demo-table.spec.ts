// Issue 51 item 2, in the browser: a table whose every device is simulated (`npm start`) is a
// demonstration table, and its table display, its stations and service mode say so in the
// screen's language (demo.banner), before anyone signs in.
import { simulatedTableConfig } from '../../host/config/table-config.js';
import { drawnTexts, expect, test, waitForEvent } from './kiosk-fixture.js';
import { press, startServiceKiosk, tr } from './service-kit.js';

test('a demonstration table says so on the table display, a station and service mode, in each language', async ({ openScreen, page }) => {
  test.setTimeout(240_000);
  const { kiosk, stop } = await startServiceKiosk(simulatedTableConfig('blackjack'), ['--sim-controls']);
  const errors: string[] = [];
  try {
    const table = await openScreen(kiosk.screens['table']!, { fps: 15, errors });
    const s1 = await openScreen(kiosk.screens['station/1']!, { fps: 15, errors });
    await waitForEvent(table, 'snapshot:table');
    await waitForEvent(s1, 'snapshot:station/1');
    const banner = tr('zh-Hant', 'demo.banner');
    await expect.poll(() => drawnTexts(table), { timeout: 30_000 }).toContain(banner);
    await expect.poll(() => drawnTexts(s1), { timeout: 30_000 }).toContain(banner);
    await page.goto(kiosk.screens['service']!);
    await waitForEvent(page, 'snapshot:service');
    await expect.poll(() => drawnTexts(page), { timeout: 30_000 }).toContain(banner);
    for (const lang of ['pt', 'en'] as const) {
      await press(page, `language-${lang}`);
      await expect.poll(() => drawnTexts(page), { timeout: 30_000 }).toContain(tr(lang, 'demo.banner'));
    }
    expect(errors).toEqual([]);
  } finally {
    await stop();
  }
});
