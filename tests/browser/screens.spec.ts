import type { Page } from '@playwright/test';
import { drawnTexts, expect, press, test, waitForEvent } from './kiosk-fixture.js';
import { screenshot } from './screenshot.js';

async function switchLanguage(page: Page, lang: 'zh-Hant' | 'pt' | 'en'): Promise<void> {
  await press(page, `language-${lang}`);
  await waitForEvent(page, `language:${lang}`);
}

/**
 * The languages whose catalogues the page fetches, in order: a page holds the source's (zh-Hant) from
 * the start and fetches each other one, a chunk of its own, when it first needs it
 * (locales/catalogue-files.browser.ts), so a screen does not keep four catalogues to show one.
 */
function cataloguesFetched(page: Page): string[] {
  const fetched: string[] = [];
  page.on('request', (r) => {
    const m = /\/assets\/([a-z]{2,3}(?:-[A-Za-z]{4})?)-[\w-]{8}\.js$/.exec(new URL(r.url()).pathname);
    if (m?.[1]) fetched.push(m[1]);
  });
  return fetched;
}

test('the table display draws the felt in zh-Hant, pt and en', async ({ page, kiosk, pageErrors }, testInfo) => {
  const fetched = cataloguesFetched(page);
  await page.goto(kiosk.screens['table']!);
  await waitForEvent(page, 'snapshot:table');
  // Portuguese is printed on the felt whatever the screen's language: its catalogue, and no other, fetched at start.
  expect(fetched).toEqual(['pt']);
  // The bundled face is what draws the Chinese text (fontconfig alone would pick Japanese forms).
  expect(await page.evaluate(() => document.fonts.check('40px "Table Sans HK"', '莊家第門'))).toBe(true);

  let texts = await drawnTexts(page);
  expect(texts).toEqual(expect.arrayContaining(['莊家', '第1門', '第7門', '牌靴', '《Black Jack》二十一點', '«Black Jack» ou «Vinte e Um»']));
  expect(texts).toContain('最低投注額 MOP$100　最高投注額 MOP$10,000');
  // The page's language is the screen's, as the BCP 47 tag Intl formats with.
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-Hant-MO');
  // The felt's rail, cloth and spots are drawn once into textures, their Graphics let go (issue 31: the heap).
  expect(await page.evaluate(() => window.__kiosk?.felt()?.graphics)).toBe(0);
  // ...each on whole design units: its texels on the pixels of the layer that caches it, not between them.
  const baked = await page.evaluate(() => window.__kiosk?.baked() ?? []);
  expect(baked.length).toBeGreaterThan(0);
  expect(baked.filter((b) => !Number.isInteger(b.x) || !Number.isInteger(b.y))).toEqual([]);
  // The still layer (the felt, its words, the history strip) holds only texts and baked art, so it is
  // drawn into a plain texture, not a multisampled one resolved at every redraw (issue 52).
  await expect
    .poll(() => page.evaluate(() => window.__kiosk?.layers().filter((l) => l.label === 'still')))
    .toEqual([{ label: 'still', antialias: false, graphics: 0 }]);
  await screenshot(page, testInfo, 'table-zh-Hant');

  await switchLanguage(page, 'pt');
  texts = await drawnTexts(page);
  expect(texts).toEqual(expect.arrayContaining(['Banca', 'Lugar 1', 'Lugar 7', '«Shoe»']));
  expect(texts).toContain('Aposta mínima 100 MOP$ · Aposta máxima 10 000 MOP$');
  // The printed game name stays bilingual whatever the screen language.
  expect(texts).toContain('《Black Jack》二十一點');
  expect(texts).not.toContain('莊家');
  expect(await page.evaluate(() => [document.documentElement.lang, document.title])).toEqual(['pt-MO', 'Mesa de jogo electrónica']);
  await screenshot(page, testInfo, 'table-pt');

  await switchLanguage(page, 'en');
  expect(fetched).toEqual(['pt', 'en']);
  texts = await drawnTexts(page);
  expect(texts).toEqual(expect.arrayContaining(['Dealer', 'Seat 1', 'Seat 7', 'Shoe']));
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('en-MO');
  await screenshot(page, testInfo, 'table-en');
  await switchLanguage(page, 'zh-Hant');
  expect(pageErrors).toEqual([]);
});

test('a player station shows its seat and credit meter in each language, and keeps the choice', async ({ page, kiosk, pageErrors }, testInfo) => {
  const fetched = cataloguesFetched(page);
  await page.goto(kiosk.screens['station/1']!);
  await waitForEvent(page, 'snapshot:station/1');
  expect(fetched).toEqual([]);
  let texts = await drawnTexts(page);
  expect(texts).toEqual(expect.arrayContaining(['餘額', '您的座位：第1門', 'MOP$0', '《Black Jack》二十一點']));
  // The words a snapshot does not change (the limits, the desk's buttons) are drawn too, in each language.
  expect(texts).toEqual(expect.arrayContaining(['最低投注額 MOP$100　最高投注額 MOP$10,000', '重複投注', '撤回', '清除', '說明']));
  // Its buttons' faces are drawn into textures shared by look, their Graphics let go (issue 31: the
  // heap), each on whole design units like the felt's.
  const faces = await page.evaluate(() => window.__kiosk?.faces());
  expect(faces?.buttons).toBeGreaterThan(10);
  expect(faces?.graphics).toBe(0);
  const baked = await page.evaluate(() => window.__kiosk?.baked() ?? []);
  expect(baked.length).toBeGreaterThanOrEqual(faces?.buttons ?? 0);
  expect(baked.filter((b) => !Number.isInteger(b.x) || !Number.isInteger(b.y))).toEqual([]);
  await screenshot(page, testInfo, 'station-1-zh-Hant');

  await switchLanguage(page, 'pt');
  expect(fetched).toEqual(['pt']);
  texts = await drawnTexts(page);
  expect(texts).toEqual(expect.arrayContaining(['Créditos', 'O seu lugar: 1', '0 MOP$', '«Black Jack» ou «Vinte e Um»']));
  expect(texts).toEqual(expect.arrayContaining(['Aposta mínima 100 MOP$ · Aposta máxima 10 000 MOP$', 'Repetir', 'Desfazer', 'Limpar', 'Ajuda']));
  await screenshot(page, testInfo, 'station-1-pt');

  await switchLanguage(page, 'en');
  texts = await drawnTexts(page);
  expect(texts).toEqual(expect.arrayContaining(['Credit', 'Your seat: 1', 'MOP$0']));
  expect(texts).toEqual(expect.arrayContaining(['Minimum bet MOP$100 · Maximum bet MOP$10,000', 'Repeat', 'Undo', 'Clear', 'Help']));
  await screenshot(page, testInfo, 'station-1-en');

  // The host remembers the station's language: a reload (or a renderer crash) comes back in English.
  await page.reload();
  await waitForEvent(page, 'snapshot:station/1');
  expect(await drawnTexts(page)).toContain('Your seat: 1');
  expect(fetched).not.toContain('zh-Hans');
  await switchLanguage(page, 'zh-Hant');
  expect(pageErrors).toEqual([]);
});

test('a screen with a wrong launch token is refused and says so in words', async ({ page, kiosk }, testInfo) => {
  const url = new URL(kiosk.screens['station/2']!);
  url.searchParams.set('token', 'this-token-was-never-issued-by-the-kiosk');
  await page.goto(url.toString());
  await waitForEvent(page, 'error:unauthorized');
  await expect.poll(() => drawnTexts(page)).toContain('此螢幕未獲授權，請通知職員');
  await screenshot(page, testInfo, 'station-2-unauthorized');
});

test.describe('station clock', () => {
  // The kiosk's operating system may keep any zone (often UTC): the clock must still read Macau's.
  test.use({ timezoneId: 'America/New_York' });

  test("shows the 12-hour Macau local time in the bottom-right corner, whatever the machine's zone", async ({ page, kiosk }, testInfo) => {
    // Date.now is pinned; timers and animation frames run as usual (the flash logic is unit-tested).
    // 3:05 pm in Macau is 2:05 am in New York the same day.
    await page.clock.setFixedTime(new Date('2026-11-21T15:05:00+08:00'));
    await page.goto(kiosk.screens['station/3']!);
    await waitForEvent(page, 'snapshot:station/3');
    expect(await page.evaluate(() => new Date().getHours())).toBe(2);
    await expect.poll(() => drawnTexts(page)).toContain('下午3:05');
    expect(await drawnTexts(page)).not.toContain('上午2:05');
    const clock = await page.evaluate(() => (window.__kiosk?.boxes() ?? []).find((b) => b.label === '下午3:05') ?? null);
    // Bottom-right corner of the page (the last sixth of its width, the last ninth of its height).
    const size = page.viewportSize()!;
    expect(clock && clock.x > (size.width * 5) / 6 && clock.y > (size.height * 8) / 9).toBe(true);
    await screenshot(page, testInfo, 'station-3-clock-zh-Hant');
  });
});
