// A ticket in held after an acceptor's dispute, settled by hand in service mode (docs/tito.md, "A
// ticket in held after an acceptor's dispute"). One table on its validation authority, the upstream
// on PGlite (tests/browser/tito-floor.ts), a simulated TCL printer and ID-003 acceptor at every
// station. Station 1 cashes out two tickets (500 and 100 patacas); each is inserted at another
// station (POST /sim/insert-ticket) whose acceptor, once told to STACK, reports another barcode in
// escrow (`swapAfterStack`: `escrow-changed`, a protocol broken after the approval): neither end
// comes, the ticket is approved and held for a person. The Tickets page lists both in every language
// with a catalogue, zh-Hant, zh-Hans, en and pt (station, last four digits, amount approved). The one
// of 500 (above the two-person amount of 300) is refused to a technician alone, then settled in the
// cashbox by a supervisor and a second person: its station credited 500, once (the same paper again
// is already paid). The one of 100 is settled not in the cashbox by a technician alone: nothing
// credited, and the paper is redeemable again.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { simulatedTableConfig } from '../../host/config/table-config.js';
import { catalogues, languages, wordAt } from '../../locales/index.js';
import { formatMoney } from '../../locales/money.js';
import type { CashoutState } from '../../protocol/index.js';
import { expect, insertNote, test, waitForEvent } from './kiosk-fixture.js';
import { screenshot } from './screenshot.js';
import { confirmBy, press, pressUntilShown, signIn, simControl, stationClient, SUP, TECH, texts, tr, type StationClient } from './service-kit.js';
import { metersOf, startTitoFloor, verifyLedger, type TitoFloor } from './tito-floor.js';

const TERMINAL = 'SIM-BJ-01';
const TWO_PERSON_ABOVE = 30_000;
/** What the lying acceptor reports in escrow once told to STACK: digits of no ticket. */
const SWAPPED = '000000000000000042';
/** A language the screens offer: every one with a catalogue (zh-Hant, zh-Hans, en, pt), as the screen matrix walks them. */
type Lang = (typeof languages)[number];
const money = (lang: Lang, amount: number) => formatMoney(amount, 'MOP', lang).replace(/[\u00a0\u202f]/g, ' ');
/** A catalogue's words with their values, `{{x, money}}` as the screen formats an amount (spaces made plain). */
function said(lang: Lang, key: string, values: Record<string, string | number>, amount: number): string {
  const words = wordAt(catalogues[lang], key);
  if (words === undefined) throw new Error(`no ${key} in ${lang}`);
  return words
    .replace(/\{\{\s*amount, money\s*\}\}/, money(lang, amount))
    .replace(/\{\{\s*(\w+)\s*\}\}/g, (_, k: string) => String(values[k] ?? ''))
    .replace(/[\u00a0\u202f]/g, ' ');
}

interface UpstreamTicket {
  ticket: { state: string } | null;
  attempts: { terminalId: string; station: number; outcome: string; reason: string | null }[];
}

/** The authority's row of a ticket (`GET /v1/tickets/:validation`). */
async function upstreamTicket(floor: TitoFloor, validation: string): Promise<UpstreamTicket> {
  const r = await fetch(`${floor.upstream.url}/v1/tickets/${validation}`, { headers: { authorization: `Bearer ${floor.upstream.adminToken}` } });
  if (r.status !== 200 && r.status !== 404) throw new Error(`ticket ${validation}: ${r.status} ${await r.text()}`);
  return (await r.json()) as UpstreamTicket;
}

const ticketOut = (s: StationClient) => (s.state()?.cashout as CashoutState | undefined)?.ticket ?? null;

/** A held ticket in: where it was inserted, its number, the amount approved. */
interface Held {
  station: number;
  validation: string;
  amount: number;
}
const last4 = (h: Held) => h.validation.slice(-4);

/** The held ticket in's line as the Tickets page words it, up to its time (station, last four digits, amount approved). */
const heldInRow = (lang: Lang, h: Held) =>
  tr(lang, 'service.tickets.heldInRow', { station: h.station, last4: last4(h), amount: money(lang, h.amount) })
    .split(' · ')
    .slice(0, 3)
    .join(' · ');

/** The row number the page gives a held ticket in (its buttons are named by it), or null if it is not listed. */
async function heldInNumber(page: Page, lang: Lang, h: Held): Promise<number | null> {
  const lines = (await texts(page)).split('\n');
  const row = heldInRow(lang, h);
  return [1, 2, 3].find((n) => lines.some((l) => l.includes(tr(lang, 'punctuation.numbered', { n, text: row })))) ?? null;
}

/** The line of the page that lists this held ticket in. */
async function heldInLine(page: Page, lang: Lang, h: Held): Promise<string> {
  return (await texts(page)).split('\n').find((l) => l.includes(heldInRow(lang, h))) ?? '';
}

/**
 * The button that settles a held ticket in, found by its caption in the catalogue's words for its
 * row: its test id names the attempt (`ticket-in-stacked-<seq>`), which only the host knows.
 */
async function settleButton(page: Page, lang: Lang, h: Held, outcome: 'stacked' | 'returned'): Promise<string> {
  const n = await heldInNumber(page, lang, h);
  if (n === null) throw new Error(`ticket …${last4(h)} is not listed as held`);
  const caption = tr(lang, `service.action.ticket-in-${outcome}-row`, { n });
  const boxes = await page.evaluate(() => window.__kiosk?.boxes() ?? []);
  const owner = boxes.find(
    (b) => b.kind === 'text' && b.label.replace(/[\u00a0\u202f]/g, ' ') === caption && b.owner?.startsWith(`ticket-in-${outcome}-`),
  )?.owner;
  if (!owner) throw new Error(`no button "${caption}" for ticket …${last4(h)}`);
  return owner;
}

/** Whether a line of the page's tickets in names the ticket by its last four digits and says this of it. */
const rowSays = (page: string, h: Held, state: string) => page.split('\n').some((r) => r.includes(`…${last4(h)}`) && r.includes(state));

test('a ticket in held after the acceptor broke its protocol is settled by hand: in the cashbox by two people above the two-person amount, credited once; not in the cashbox by one, nothing credited', async ({
  page,
  pageErrors,
}, testInfo) => {
  // An upstream and a kiosk start in about a minute on an idle machine, several under load.
  test.setTimeout(600_000);
  const t0 = Date.now();
  const step = (what: string) => console.error(`ticket-in-held: ${what} (${Math.round((Date.now() - t0) / 1000)} s)`);
  const configDir = mkdtempSync(path.join(os.tmpdir(), 'ticket-in-held-config-'));
  const configFile = path.join(configDir, 'table.json');
  const c = simulatedTableConfig('blackjack');
  expect(c.tableId).toBe(TERMINAL);
  // The demonstration table's printers, the two-person amount at 300 patacas; the validation id is the upstream's.
  writeFileSync(configFile, JSON.stringify({ ...c, handpayTwoPersonAbove: TWO_PERSON_ABOVE, stations: c.stations.map((s) => ({ ...s, printer: 'sim' })) }));
  let floor: TitoFloor | null = null;
  const stations = new Map<number, StationClient>();
  try {
    floor = await startTitoFloor([{ game: 'blackjack', terminalId: TERMINAL, args: ['--config', configFile, '--seed', '7', '--betting-seconds', '30'] }]);
    const up = floor;
    const [table] = up.tables;
    if (!table) throw new Error('one table was asked for');
    for (const n of [1, 2, 3, 4]) stations.set(n, await stationClient(table.screens[`station/${n}`]!));
    const at = (n: number) => stations.get(n)!;
    step('floor up');

    // Two tickets printed at station 1: 500 patacas (above the two-person amount), then 100 (below it).
    const printed: string[] = [];
    for (const { note, amount } of [
      { note: 500, amount: 50_000 },
      { note: 100, amount: 10_000 },
    ]) {
      await insertNote(table, 1, note);
      await expect.poll(() => at(1).state()?.credit, { timeout: 30_000 }).toBe(amount);
      at(1).cashOut();
      await expect
        .poll(
          () => {
            const t = ticketOut(at(1));
            return t && !printed.includes(t.validation) ? [t.state, t.amount] : null;
          },
          { timeout: 60_000 },
        )
        .toEqual(['printed', amount]);
      const { barcodes } = await simControl<{ barcodes: string[] }>(table, 'take-ticket', { station: 1 });
      expect(barcodes).toEqual([ticketOut(at(1))?.validation]);
      printed.push(barcodes[0]!);
      expect(at(1).state()?.credit).toBe(0);
    }
    // Redeemable once the authority has it printed (before that it is refused as unknown).
    for (const v of printed) await expect.poll(async () => (await upstreamTicket(up, v)).ticket?.state, { timeout: 60_000 }).toBe('printed');
    step('two tickets printed');

    // Each inserted at a station whose acceptor, once told to STACK, reports another barcode: approved, never stacked nor returned.
    const big: Held = { station: 2, validation: printed[0]!, amount: 50_000 };
    const small: Held = { station: 3, validation: printed[1]!, amount: 10_000 };
    for (const h of [big, small]) {
      await simControl(table, 'insert-ticket', { station: h.station, barcode: h.validation, swapAfterStack: SWAPPED });
      // The authority holds it pending for that attempt: approved.
      await expect.poll(async () => (await upstreamTicket(up, h.validation)).ticket?.state, { timeout: 60_000 }).toBe('pending');
    }

    await page.goto(table.screens['service']!);
    await waitForEvent(page, 'snapshot:service');
    await signIn(page, TECH);
    // The held tickets in, in each language: the heading, each by station, last four digits and amount approved, with its two buttons.
    expect(languages).toEqual(expect.arrayContaining(['zh-Hant', 'zh-Hans', 'en', 'pt']));
    for (const lang of languages) {
      await pressUntilShown(page, `language-${lang}`, tr(lang, 'service.pages.tickets'));
      await pressUntilShown(page, 'page-tickets', tr(lang, 'service.tickets.heldIn'));
      for (const h of [big, small]) await expect.poll(() => heldInNumber(page, lang, h), { message: `${lang}: station ${h.station} listed` }).not.toBeNull();
      const shown = await texts(page);
      // Above the two-person amount it says so; below it, not.
      expect(await heldInLine(page, lang, big)).toContain(tr(lang, 'service.field.twoPerson').trim());
      expect(await heldInLine(page, lang, small)).not.toContain(tr(lang, 'service.field.twoPerson').trim());
      for (const h of [big, small]) for (const outcome of ['stacked', 'returned'] as const) expect(await settleButton(page, lang, h, outcome)).toMatch(/-\d+$/);
      // Never the whole number.
      for (const v of printed) expect(shown).not.toContain(v.slice(0, 14));
      await screenshot(page, testInfo, `service-tickets-in-held-${lang}`);
    }
    // The rest is read in English (the walk above, in the screens' order, ends in another language).
    await pressUntilShown(page, 'language-en', tr('en', 'service.pages.tickets'));
    await pressUntilShown(page, 'page-tickets', tr('en', 'service.tickets.heldIn'));
    // Held: never credited on the word of a unit in dispute.
    expect([at(2).state()?.credit, at(3).state()?.credit]).toEqual([0, 0]);
    // Said held, not being stacked: in the last tickets in, and in the player's own recall at the station.
    for (const h of [big, small]) {
      expect(rowSays(await texts(page), h, tr('en', 'service.tickets.state.held'))).toBe(true);
      const own = () => (at(h.station).state()?.tickets ?? []).filter((k) => k.direction === 'in' && k.last4 === last4(h)).map((k) => k.state);
      await expect.poll(own, { message: `station ${h.station}'s own recall` }).toEqual(['held']);
    }
    step('both listed as held');

    // The 500 (above the two-person amount): a technician may not settle it alone.
    await press(page, await settleButton(page, 'en', big, 'stacked'));
    await waitForEvent(page, 'refused:service.refused.role');
    expect(await heldInNumber(page, 'en', big)).not.toBeNull();
    expect(at(2).state()?.credit).toBe(0);

    // The 100 (below it): not in the cashbox, by the technician alone. Nothing credited; the paper is the player's again.
    await press(page, await settleButton(page, 'en', small, 'returned'));
    await expect.poll(() => texts(page)).toContain(said('en', 'service.done.ticketInReturned', { station: small.station, last4: last4(small) }, small.amount));
    await expect.poll(() => heldInNumber(page, 'en', small)).toBeNull();
    await expect.poll(async () => rowSays(await texts(page), small, tr('en', 'service.tickets.reason.acceptor-fault'))).toBe(true);
    await expect.poll(async () => (await upstreamTicket(up, small.validation)).ticket?.state, { timeout: 30_000 }).toBe('printed');
    expect(at(3).state()?.credit).toBe(0);

    // The 500: a supervisor starts it, a second person confirms; its station is credited the amount.
    await press(page, 'sign-out');
    await signIn(page, SUP);
    await pressUntilShown(page, 'page-tickets', tr('en', 'service.tickets.heldIn'));
    await press(page, await settleButton(page, 'en', big, 'stacked'));
    // The confirmation names the ticket by its last four digits and what is done with it.
    await expect
      .poll(() => texts(page))
      .toContain(tr('en', 'punctuation.joined', { first: `…${last4(big)}`, second: tr('en', 'service.tickets.settleIn.stacked') }));
    expect(at(2).state()?.credit).toBe(0);
    await screenshot(page, testInfo, 'service-tickets-in-held-confirm-en');
    await confirmBy(page, TECH);
    await expect.poll(() => at(2).state()?.credit, { timeout: 30_000 }).toBe(big.amount);
    // The done notice whole, its amount in the table's currency (it said "50000 credited", minor units, before the host sent the currency).
    const done = said('en', 'service.done.ticketInStacked', { station: big.station, last4: last4(big) }, big.amount);
    expect(done).toContain(money('en', big.amount));
    await expect.poll(() => texts(page), { timeout: 30_000 }).toContain(done);
    await expect.poll(async () => (await texts(page)).includes(tr('en', 'service.tickets.heldIn'))).toBe(false);
    await expect.poll(async () => rowSays(await texts(page), big, tr('en', 'service.tickets.state.redeemed'))).toBe(true);
    await expect.poll(async () => (await upstreamTicket(up, big.validation)).ticket?.state, { timeout: 30_000 }).toBe('redeemed');
    await screenshot(page, testInfo, 'service-tickets-in-settled-en');
    step('both settled');

    // At station 4, an honest acceptor: the 100 settled not in the cashbox is paid there; the 500 is already paid.
    await simControl(table, 'insert-ticket', { station: 4, barcode: small.validation });
    await expect.poll(() => at(4).state()?.credit, { timeout: 30_000 }).toBe(small.amount);
    await simControl(table, 'insert-ticket', { station: 4, barcode: big.validation });
    await expect
      .poll(async () => (await upstreamTicket(up, big.validation)).attempts.map((a) => [a.station, a.outcome, a.reason]), { timeout: 30_000 })
      .toContainEqual([4, 'returned', 'already-paid']);
    expect([at(2).state()?.credit, at(3).state()?.credit, at(4).state()?.credit]).toEqual([big.amount, 0, small.amount]);
    expect(pageErrors).toEqual([]);

    // The journal says the same, the table stopped: two tickets out, in at station 2 by hand and at station 4, none at 3; the ledger whole.
    for (const s of stations.values()) s.close();
    await up.stop();
    expect(verifyLedger(table.dataDir)).toEqual({ ok: true, problems: [] });
    const m = (scope: string) => {
      const x = metersOf(table.dataDir, scope);
      return { in: x['ticketsIn'] ?? 0, inAmount: x['ticketsInAmount'] ?? 0, out: x['ticketsOut'] ?? 0, outAmount: x['ticketsOutAmount'] ?? 0 };
    };
    expect(m('table')).toEqual({ in: 2, inAmount: 60_000, out: 2, outAmount: 60_000 });
    expect([m('station:2').in, m('station:2').inAmount, m('station:3').in, m('station:4').inAmount]).toEqual([1, 50_000, 0, 10_000]);
  } finally {
    for (const s of stations.values()) s.close();
    await floor?.stop();
    floor?.remove();
    rmSync(configDir, { recursive: true, force: true });
  }
});
