// A cash-out ticket held after a jam, settled by hand in service mode (issue 47; docs/tito.md, "A
// ticket held after a jam"). A table with a simulated TCL printer at every station; each station's
// next ticket jams once its number is printed (POST /sim/printer-fault `jam-mid-ticket`), so the
// printer cannot say whether it came out whole: the credit left the meter with `ticket.issue` and
// the ticket waits for a person. Station 1's (100 patacas, below the two-person amount) is voided by
// a technician alone and the credit comes back; station 2's (500 patacas, above it) is settled as
// printed by a supervisor and confirmed by a second person, as a handpay, and the floor owes its paper.
import { rmSync } from 'node:fs';
import { simulatedTableConfig } from '../../host/config/table-config.js';
import { formatMoney } from '../../locales/money.js';
import { validationNumber } from '../../terms/validation-number.js';
import { expect, insertNote, test, waitForEvent } from './kiosk-fixture.js';
import { screenshot } from './screenshot.js';
import {
  confirmBy,
  LANGUAGES,
  press,
  pressUntilShown,
  signIn,
  simControl,
  startServiceKiosk,
  stationClient,
  SUP,
  TECH,
  texts,
  tr,
  type Lang,
} from './service-kit.js';
import { metersOf, verifyLedger } from './tito-floor.js';

const MACHINE_ID = 4242;
const TWO_PERSON_ABOVE = 30_000;
const money = (lang: Lang, amount: number) => formatMoney(amount, 'MOP', lang).replace(/[\u00a0\u202f]/g, ' ');
/** The held ticket's line as the Tickets page words it, up to its time. */
const heldRow = (lang: Lang, station: number, last4: string, amount: number) =>
  tr(lang, 'service.tickets.heldRow', { station, last4, amount: money(lang, amount) })
    .split(' · ')
    .slice(0, 3)
    .join(' · ');

/** Whether a line of the Tickets page names the ticket by its last four digits and says it is in this state. */
const rowSays = (page: string, last4: string, state: string) => page.split('\n').some((r) => r.includes(`…${last4}`) && r.includes(state));

test('a ticket held after a jam is settled by hand: voided by one person below the two-person amount, printed by two above it', async ({
  page,
  pageErrors,
}, testInfo) => {
  test.setTimeout(300_000);
  const c = simulatedTableConfig('blackjack');
  const { kiosk, stop } = await startServiceKiosk(
    {
      ...c,
      handpayTwoPersonAbove: TWO_PERSON_ABOVE,
      tickets: { ...c.tickets, machineId: MACHINE_ID },
      stations: c.stations.map((s) => ({ ...s, printer: 'sim' })),
    },
    ['--sim-controls', '--seed', '7', '--betting-seconds', '30'],
  );
  const stations = [] as Awaited<ReturnType<typeof stationClient>>[];
  try {
    // Two tickets, numbered in the order the stations cash out: station 1's first.
    const held = [
      { station: 1, note: 100, amount: 10_000, last4: validationNumber(MACHINE_ID, 1).slice(-4) },
      { station: 2, note: 500, amount: 50_000, last4: validationNumber(MACHINE_ID, 2).slice(-4) },
    ];
    for (const h of held) {
      const s = await stationClient(kiosk.screens[`station/${h.station}`]!);
      stations.push(s);
      await insertNote(kiosk, h.station, h.note);
      await expect.poll(() => s.state()?.credit, { timeout: 30_000 }).toBe(h.amount);
      await simControl(kiosk, 'printer-fault', { station: h.station, fault: 'jam-mid-ticket' });
      s.cashOut();
      // The credit left the meter with ticket.issue; the printer jammed: the ticket is held.
      await expect.poll(() => s.state()?.credit, { timeout: 30_000 }).toBe(0);
      await expect.poll(() => JSON.stringify(s.state()?.cashout ?? null), { timeout: 30_000 }).toContain('unresolved');
    }

    await page.goto(kiosk.screens['service']!);
    await waitForEvent(page, 'snapshot:service');
    await signIn(page, TECH);
    // The held tickets in each language: the heading, each by station, last four digits and amount.
    for (const lang of LANGUAGES) {
      await pressUntilShown(page, `language-${lang}`, tr(lang, 'service.pages.tickets'));
      await pressUntilShown(page, 'page-tickets', tr(lang, 'service.tickets.held'));
      const shown = await texts(page);
      for (const h of held) expect(shown, `${lang}: station ${h.station}`).toContain(heldRow(lang, h.station, h.last4, h.amount));
      expect(shown).toContain(tr(lang, 'service.field.twoPerson').trim());
      // Never the whole number.
      expect(shown).not.toContain(validationNumber(MACHINE_ID, 1).slice(0, 14));
      await screenshot(page, testInfo, `service-tickets-held-${lang}`);
    }

    // Station 1 (below the two-person amount): the technician alone voids it; the credit comes back.
    const [s1, s2] = stations;
    await press(page, 'ticket-void-1');
    await expect.poll(() => s1?.state()?.credit, { timeout: 30_000 }).toBe(10_000);
    await expect.poll(async () => rowSays(await texts(page), held[0]!.last4, tr('en', 'service.tickets.state.voided'))).toBe(true);

    // Station 2 (above it): a technician may not settle it alone; a supervisor starts, a second person confirms.
    await press(page, 'sign-out');
    await signIn(page, SUP);
    await pressUntilShown(page, 'page-tickets', tr('en', 'service.tickets.held'));
    await press(page, 'ticket-printed-2');
    await expect.poll(() => texts(page)).toContain(`…${held[1]!.last4}`);
    await expect.poll(() => texts(page)).toContain(tr('en', 'service.tickets.settle.printed'));
    await screenshot(page, testInfo, 'service-tickets-held-confirm-en');
    await confirmBy(page, TECH);
    // Printed and handed over: the floor owes the paper, the credit stays off the meter.
    await expect.poll(async () => (await texts(page)).includes(tr('en', 'service.tickets.held')), { timeout: 30_000 }).toBe(false);
    await expect.poll(async () => rowSays(await texts(page), held[1]!.last4, tr('en', 'service.tickets.state.printed'))).toBe(true);
    expect(s2?.state()?.credit).toBe(0);
    await screenshot(page, testInfo, 'service-tickets-settled-en');
    expect(pageErrors).toEqual([]);
  } finally {
    for (const s of stations) s.close();
    await stop({ keep: true });
  }
  try {
    // The journal says the same: one ticket out (the printed one), the voided one's credit back, the ledger whole.
    expect(verifyLedger(kiosk.dataDir)).toEqual({ ok: true, problems: [] });
    const m = metersOf(kiosk.dataDir, 'table');
    expect({ out: m['ticketsOut'] ?? 0, outAmount: m['ticketsOutAmount'] ?? 0 }).toEqual({ out: 1, outAmount: 50_000 });
  } finally {
    rmSync(kiosk.dataDir, { recursive: true, force: true });
  }
});
