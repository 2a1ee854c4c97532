import { readFileSync } from 'node:fs';
import { simulatedTableConfig } from '../../host/config/table-config.js';
import { drawnCards, drawnTexts, expect, insertNote, press as pressNow, test as base, waitForEvent, type Kiosk } from './kiosk-fixture.js';
import { screenshot } from './screenshot.js';
import {
  LANGUAGES,
  press,
  pressUntilShown,
  pressWhenShown,
  signIn,
  simControl,
  startServiceKiosk,
  stationClient,
  SUP,
  TECH,
  texts,
  tr,
  typeOnPad,
  type Lang,
} from './service-kit.js';

/** The table's two-person handpay amount in this kiosk: a 500-pataca cash-out is above it. */
const TWO_PERSON_ABOVE = 30_000;

/** A kiosk whose data folder already holds a supervisor and a technician (as `npm run service -- add-user` would). */
const test = base.extend<object, { serviceKiosk: Kiosk & { dataDir: string } }>({
  serviceKiosk: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const { kiosk, stop } = await startServiceKiosk({ ...simulatedTableConfig('blackjack'), handpayTwoPersonAbove: TWO_PERSON_ABOVE }, [
        '--sim-controls',
        '--seed',
        '7',
        '--betting-seconds',
        '4',
        '--decision-seconds',
        '120',
      ]);
      await use(kiosk);
      await stop();
    },
    { scope: 'worker' },
  ],
});

/** The simulated dealer's next card cannot be read: the table holds for a card entered by hand. */
const unreadableNext = (kiosk: Kiosk) => simControl(kiosk, 'unreadable-next');

/** What each page shows, in a language: a string that only that page draws. */
const PAGES: [string, (lang: Lang) => string][] = [
  ['status', (l) => tr(l, 'service.field.tilts')],
  ['devices', (l) => tr(l, 'service.field.traceOf', { device: 'BA-1' })],
  ['meters', (l) => tr(l, 'service.field.meterUnits', { currency: 'MOP', perUnit: 100 })],
  ['recall', (l) => tr(l, 'service.action.allStations')],
  ['events', (l) => tr(l, 'service.action.types')],
  ['config', (l) => tr(l, 'service.field.config', { key: tr(l, 'service.configKey.profile'), value: 'macau-2009' })],
  ['holds', (l) => tr(l, 'service.field.round', { round: '' }).trim()],
  ['cashout', (l) => tr(l, 'service.field.cancelledCredits')],
  ['sync', (l) => tr(l, 'service.field.syncOff')],
  // A Macau table plays no progressive jackpot: the page says so.
  ['jackpot', (l) => tr(l, 'service.jackpot.none')],
  // This kiosk's stations have no ticket printer: every cash-out is a handpay, and the Tickets page says so.
  ['tickets', (l) => tr(l, 'service.tickets.noPrinter')],
];

test('service pages: sign-in, every page in zh-Hant, pt and en with a screenshot each, exports and the printable report', async ({
  page,
  serviceKiosk,
  pageErrors,
}, testInfo) => {
  // Twelve pages in three languages, a screenshot each (the Tickets page made it twelve); generous for a loaded machine.
  test.setTimeout(330_000);
  await page.goto(serviceKiosk.screens['service']!);
  await waitForEvent(page, 'snapshot:service');
  // Before sign-in: the cabinet label and the pad, no page.
  const before = await texts(page);
  expect(before).toContain(tr('zh-Hant', 'service.signIn.staff'));
  expect(before).not.toContain(tr('zh-Hant', 'service.pages.meters'));
  await screenshot(page, testInfo, 'service-sign-in-zh-Hant');

  // A wrong PIN is refused in words; the right one opens the Status page.
  await typeOnPad(page, 'signin', TECH.staff);
  await typeOnPad(page, 'signin', '000000');
  await expect.poll(() => texts(page)).toContain(tr('zh-Hant', 'service.signIn.bad'));
  await signIn(page, TECH);
  for (const lang of LANGUAGES) {
    await press(page, `language-${lang}`);
    await expect
      .poll(() => texts(page))
      .toContain(tr(lang, 'service.session', { name: TECH.name, role: tr(lang, 'service.role.technician'), staff: TECH.staff }));
    for (const [name, expected] of PAGES) {
      await press(page, `page-${name}`);
      await expect.poll(() => texts(page)).toContain(expected(lang));
      await screenshot(page, testInfo, `service-${name}-${lang}`);
    }
  }
  await press(page, 'page-status');
  await expect.poll(() => texts(page)).toMatch(/Program hash at start: [0-9a-f]{64}/);

  // The event log names each entry's type in words: the sign-in above (the service group's entries
  // only, so the table's own entries since do not push it off the page) is a service sign-in, its code never shown.
  await press(page, 'page-events');
  await pressWhenShown(page, 'filter-type');
  await pressWhenShown(page, 'type-service');
  await expect.poll(() => texts(page)).toContain(`${tr('en', 'entryType.service.enter')}: `);
  expect(await texts(page)).not.toMatch(/service\.(enter|denied)/);
  // Every type again (the picker's first button).
  await pressWhenShown(page, 'type-all');

  // A diagnostic: the test note is read and given back, journalled as a test.
  await press(page, 'page-devices');
  await expect.poll(() => texts(page)).toContain('Test note');
  await pressUntilShown(page, 'device-BA-2', 'Frames of BA-2 (hex and meaning)');
  await expect.poll(() => texts(page)).toMatch(/host→device FC 05 11 27 56 · STATUS REQUEST/);
  await press(page, 'act-test-note');
  await expect.poll(() => texts(page)).toContain('BA-2: note 100 MOP read and returned');
  await screenshot(page, testInfo, 'service-devices-trace-en');

  await press(page, 'page-meters');
  await expect.poll(() => texts(page)).toContain('Export CSV');
  const download = page.waitForEvent('download');
  await press(page, 'export-csv');
  const file = await (await download).path();
  expect(readFileSync(file, 'utf8')).toMatch(/^terminal,table,scope,meter,gli_name,unit,value\r\n/);
  // The printable report opens as a page of its own, in the screen's language.
  const popup = page.waitForEvent('popup');
  await press(page, 'export-print');
  const report = await popup;
  await report.waitForLoadState();
  expect(await report.content()).toContain('Meters report');
  await report.close();

  await press(page, 'sign-out');
  await expect.poll(() => texts(page)).toContain(tr('en', 'service.signIn.staff'));
  expect(pageErrors).toEqual([]);
});

test('two-person void of a round in play: a supervisor asks, a technician confirms, the bet comes back', async ({
  page,
  serviceKiosk,
  pageErrors,
}, testInfo) => {
  test.setTimeout(150_000);
  const station = await stationClient(serviceKiosk.screens['station/1']!);
  await insertNote(serviceKiosk, 1, 500);
  await expect.poll(() => station.state()?.credit, { timeout: 30_000 }).toBe(50_000);
  // Betting is open while the shoe-start burns are dealt; the window closes once they are done, and
  // the bet plays then.
  await expect.poll(() => station.state()?.betting.open, { timeout: 60_000 }).toBe(true);
  station.bet(10_000);
  await expect.poll(() => station.state()?.decision ?? null, { timeout: 60_000 }).not.toBeNull();
  expect(station.state()?.credit).toBe(40_000);

  await page.goto(serviceKiosk.screens['service']!);
  await waitForEvent(page, 'snapshot:service');
  await signIn(page, SUP);
  await press(page, 'language-en');
  await press(page, 'page-holds');
  await expect.poll(() => texts(page)).toContain('Void round');
  expect(await texts(page)).toContain('Phase: dealing');
  await press(page, 'act-void-round');
  await expect.poll(() => texts(page)).toMatch(/Two-person action: Void round/);
  await screenshot(page, testInfo, 'service-void-confirm');
  // The supervisor cannot confirm their own action.
  await typeOnPad(page, 'confirm', SUP.staff);
  await typeOnPad(page, 'confirm', SUP.pin);
  await expect.poll(() => texts(page)).toContain('The second person must be someone else');
  await typeOnPad(page, 'confirm', TECH.staff);
  await typeOnPad(page, 'confirm', TECH.pin);
  await expect.poll(() => texts(page)).toMatch(/Round .* voided: every bet returned/);
  await expect.poll(() => station.state()?.credit).toBe(50_000);
  await screenshot(page, testInfo, 'service-void-done');
  // Game recall holds the voided round, with who authorised it, and replays its cards in order.
  await press(page, 'page-recall');
  await expect.poll(() => texts(page)).toMatch(/Void: the card cannot be identified · by Ana Lei \(3001\) and Bo Chan \(3002\)/);
  await press(page, 'replay-1');
  await expect.poll(async () => (await drawnCards(page)).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
  for (const c of await drawnCards(page)) expect(c).toMatch(/^[A2-9TJQK][SHDC]$/);
  await screenshot(page, testInfo, 'service-recall-replay');
  station.close();
  expect(pageErrors).toEqual([]);
});

test("two-person meter clear with the regulator's authorisation number", async ({ page, serviceKiosk, pageErrors }, testInfo) => {
  await page.goto(serviceKiosk.screens['service']!);
  await waitForEvent(page, 'snapshot:service');
  await signIn(page, SUP);
  await press(page, 'language-en');
  await press(page, 'page-holds');
  await expect.poll(() => texts(page)).toContain('Clear meters');
  await press(page, 'clear-scope');
  await expect.poll(() => texts(page)).toContain('Scope: Station 1');
  await press(page, 'act-meter-clear');
  // The regulator's reference has letters, '-' and '/': the reference pad types them.
  await typeOnPad(page, 'ref', 'DICJ-2024/117');
  await expect.poll(() => texts(page)).toMatch(/Two-person action: Clear meters · Station 1 · DICJ-2024\/117/);
  await typeOnPad(page, 'confirm', TECH.staff);
  await typeOnPad(page, 'confirm', TECH.pin);
  await expect.poll(() => texts(page)).toContain('Meters of Station 1 cleared');
  await screenshot(page, testInfo, 'service-meter-clear-done');
  // The Meters page comes from the host: its station buttons are there once its snapshot is drawn
  // (pressed one frame after the page's button, in the CI run of 25 November on 08de614, they were not yet).
  await pressUntilShown(page, 'page-meters', 'Export CSV');
  await pressWhenShown(page, 'meters-station-1');
  // Every meter of station 1 reads zero, money and counts alike.
  await expect
    .poll(async () => {
      const rows = await drawnTexts(page);
      const from = rows.indexOf('Station 1');
      const mine = rows.slice(from + 1).filter((r) => r.startsWith('  '));
      return from >= 0 && mine.length > 0 && mine.every((r) => /: (MOP\$)?0$|Nothing counted yet/.test(r));
    })
    .toBe(true);
  expect(pageErrors).toEqual([]);
});

test("two-person configuration change: edited field by field, the regulator's reference typed, journalled before and after", async ({
  page,
  serviceKiosk,
  pageErrors,
}, testInfo) => {
  test.setTimeout(150_000);
  await page.goto(serviceKiosk.screens['service']!);
  await waitForEvent(page, 'snapshot:service');
  await signIn(page, SUP);
  await press(page, 'language-en');
  await press(page, 'page-config');
  await expect.poll(() => texts(page)).toMatch(/Two-person handpay above = MOP\$300/);
  await press(page, 'edit-handpayTwoPersonAbove');
  await expect.poll(() => texts(page)).toContain('Changing: Two-person handpay above');
  await press(page, 'field-amount');
  await typeOnPad(page, 'number', '400');
  await expect.poll(() => texts(page)).toMatch(/New: MOP\$400/);
  await screenshot(page, testInfo, 'service-config-edit-en');
  await press(page, 'config-authorise');
  await typeOnPad(page, 'ref', 'DICJ-2026/123');
  await expect
    .poll(() => texts(page))
    .toMatch(/Two-person action: Change configuration · Two-person handpay above: MOP\$300 → MOP\$400 · authorisation DICJ-2026\/123/);
  await screenshot(page, testInfo, 'service-config-confirm-en');
  await typeOnPad(page, 'confirm', TECH.staff);
  await typeOnPad(page, 'confirm', TECH.pin);
  await expect.poll(() => texts(page)).toMatch(/Configuration changed|takes effect after this round/);
  await expect.poll(() => texts(page)).toMatch(/Two-person handpay above: MOP\$300 → MOP\$400 · Ana Lei \(3001\) \/ Bo Chan \(3002\)/);
  await screenshot(page, testInfo, 'service-config-done-en');
  expect(pageErrors).toEqual([]);
});

test('two-person manual card entry on an unreadable-card hold: ranks and suits on the pad, a second person, the round settles', async ({
  page,
  serviceKiosk,
  pageErrors,
}, testInfo) => {
  test.setTimeout(180_000);
  const station = await stationClient(serviceKiosk.screens['station/3']!);
  await insertNote(serviceKiosk, 3, 500);
  await expect.poll(() => station.state()?.credit ?? 0, { timeout: 30_000 }).toBeGreaterThanOrEqual(50_000);
  await expect.poll(() => station.state()?.betting.open, { timeout: 60_000 }).toBe(true);
  // The bet first, then, once the deal has begun, the next card the table asks for cannot be read
  // (armed earlier it could be a burn between rounds, and a hold then takes the chips off the spots).
  station.bet(10_000);
  await expect.poll(() => station.round()?.phase, { timeout: 60_000 }).toBe('dealing');
  await unreadableNext(serviceKiosk);

  await page.goto(serviceKiosk.screens['service']!);
  await waitForEvent(page, 'snapshot:service');
  await signIn(page, SUP);
  await press(page, 'language-en');
  await press(page, 'page-holds');
  await expect.poll(() => texts(page), { timeout: 60_000 }).toContain('Unreadable card: table on hold');
  await press(page, 'act-enter-card');
  await expect.poll(() => texts(page)).toContain('Card to enter: … …');
  await press(page, 'card-K');
  await press(page, 'card-S');
  await expect.poll(() => texts(page)).toContain('Card to enter: K ♠');
  await screenshot(page, testInfo, 'service-card-entry-en');
  await pressNow(page, 'card-ok');
  await expect.poll(() => texts(page)).toMatch(/Two-person action: Enter card · .* · KS/);
  await typeOnPad(page, 'confirm', TECH.staff);
  await typeOnPad(page, 'confirm', TECH.pin);
  await expect.poll(() => texts(page)).toContain('Card entered');
  await expect.poll(() => texts(page)).toContain('No hold');
  await screenshot(page, testInfo, 'service-card-entry-done-en');
  // The round goes on (the held read may have been the shoe's burn, before the deal): the station
  // stands on every decision until its recall holds the settled round.
  await expect
    .poll(
      () => {
        const d = station.state()?.decision;
        if (d) station.decide(d.legal.includes('stand') ? 'stand' : (d.legal[0] ?? 'stand'));
        return station.state()?.recall?.[0]?.status ?? null;
      },
      { timeout: 120_000 },
    )
    .toBe('settled');
  await press(page, 'page-recall');
  await expect.poll(() => texts(page)).toMatch(/#\d+ .* · settled · /);
  station.close();
  expect(pageErrors).toEqual([]);
});

test("two-person handpay above the table's amount: a second person confirms it", async ({ page, serviceKiosk, pageErrors }, testInfo) => {
  test.setTimeout(150_000);
  const station = await stationClient(serviceKiosk.screens['station/2']!);
  await insertNote(serviceKiosk, 2, 500);
  await expect.poll(() => station.state()?.credit ?? 0, { timeout: 30_000 }).toBeGreaterThan(TWO_PERSON_ABOVE);
  station.cashOut();
  await expect.poll(() => station.state()?.credit, { timeout: 30_000 }).toBe(0);

  await page.goto(serviceKiosk.screens['service']!);
  await waitForEvent(page, 'snapshot:service');
  await signIn(page, SUP);
  await press(page, 'language-en');
  await press(page, 'page-cashout');
  await expect.poll(() => texts(page)).toMatch(/1\. Station 2 · MOP\$500 · two people/);
  await press(page, 'handpay-1');
  await expect.poll(() => texts(page)).toMatch(/Two-person action: Confirm handpay · 2 · /);
  await screenshot(page, testInfo, 'service-handpay-confirm-en');
  await typeOnPad(page, 'confirm', TECH.staff);
  await typeOnPad(page, 'confirm', TECH.pin);
  await expect.poll(() => texts(page)).toContain('Handpay confirmed');
  await expect.poll(() => texts(page)).toContain('No pending handpays');
  await screenshot(page, testInfo, 'service-handpay-done-en');
  station.close();
  expect(pageErrors).toEqual([]);
});

test('a note jammed after the host answered "stack" is held for a person: listed on the Devices page in every language, settled in the cashbox by a technician, credited once', async ({
  page,
  serviceKiosk,
  pageErrors,
}, testInfo) => {
  test.setTimeout(180_000);
  const station = await stationClient(serviceKiosk.screens['station/4']!);
  // The simulated acceptor jams in the stacker once the host has journalled the note in escrow.
  await simControl(serviceKiosk, 'insert-note', { station: 4, note: 100, jamAfterStack: true });
  await page.goto(serviceKiosk.screens['service']!);
  await waitForEvent(page, 'snapshot:service');
  await signIn(page, TECH);
  /** The test id of the held note's settlement, found by its caption (it names the escrow entry, which only the host knows). */
  const settleButton = async (lang: Lang, outcome: 'stacked' | 'returned'): Promise<string | null> => {
    const caption = tr(lang, `service.action.note-${outcome}-row`, { n: 1 });
    const boxes = await page.evaluate(() => window.__kiosk?.boxes() ?? []);
    return boxes.find((b) => b.kind === 'text' && b.label === caption && b.owner?.startsWith(`note-${outcome}-`))?.owner ?? null;
  };
  for (const lang of LANGUAGES) {
    await pressUntilShown(page, `language-${lang}`, tr(lang, 'service.pages.devices'));
    await pressUntilShown(page, 'page-devices', tr(lang, 'service.notesHeld.title'));
    const row = tr(lang, 'service.notesHeld.row', { station: 4 }).split(' · ')[0]!;
    expect(await texts(page)).toContain(tr(lang, 'punctuation.numbered', { n: 1, text: row }));
    for (const outcome of ['stacked', 'returned'] as const) await expect.poll(() => settleButton(lang, outcome)).toMatch(new RegExp(`^note-${outcome}-\\d+$`));
    await screenshot(page, testInfo, `service-notes-held-${lang}`);
  }
  await pressUntilShown(page, 'language-en', tr('en', 'service.pages.devices'));
  await pressUntilShown(page, 'page-devices', tr('en', 'service.notesHeld.title'));
  expect(await texts(page)).toMatch(/1\. station 4 · MOP\$100 · since /);
  // Never credited on the jam: the attendant takes the note out and says where it was.
  expect(station.state()?.credit ?? 0).toBe(0);
  await press(page, (await settleButton('en', 'stacked'))!);
  await expect.poll(() => station.state()?.credit, { timeout: 30_000 }).toBe(10_000);
  await expect.poll(() => texts(page)).not.toContain(tr('en', 'service.notesHeld.title'));
  await screenshot(page, testInfo, 'service-notes-held-settled-en');
  await simControl(serviceKiosk, 'bill-fault', { station: 4, fault: 'clear' });
  station.close();
  expect(pageErrors).toEqual([]);
});
