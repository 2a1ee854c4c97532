// Tickets in and out across a floor (issue 47, its done-when): two demonstration tables (`etg
// start --headless --sim-controls --upstream URL`: a simulated TCL printer at every station) and
// their validation authority, the upstream on PGlite (tests/browser/tito-floor.ts). A player at a
// station of table A cashes out to a ticket (the screen says it printed, with its amount); the
// validation number the printer printed (POST /sim/take-ticket) goes into the acceptor of a station
// of table B (POST /sim/insert-ticket), which is credited exactly that amount, once; the same
// ticket again, at B and back at A, goes back and the player is told it was already paid, in their
// language. Then the tables' ledgers (verified), their ticket meters and the upstream's row.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import { catalogues, wordAt } from '../../locales/index.js';
import { formatMoney } from '../../locales/money.js';
import { drawnTexts, expect, insertNote, press, test, waitForEvent } from './kiosk-fixture.js';
import { LANGUAGES, pressUntilShown, signIn, simControl, texts, TECH } from './service-kit.js';
import { metersOf, startTitoFloor, verifyLedger, type TitoFloor } from './tito-floor.js';

type Lang = (typeof LANGUAGES)[number];
const money = (lang: Lang, amount: number) => formatMoney(amount, 'MOP', lang).replace(/[\u00a0\u202f]/g, ' ');

/** A catalogue's words as the station draws them, an amount in patacas put in (spaces made plain, as drawnTexts gives them). */
function say(lang: Lang, key: string, amount = 0): string {
  const words = wordAt(catalogues[lang], key);
  if (words === undefined) throw new Error(`no ${key} in ${lang}`);
  return words.replace('{{amount, money}}', formatMoney(amount, 'MOP', lang)).replace(/[\u00a0\u202f]/g, ' ');
}

const shows = async (page: Page, text: string) => (await drawnTexts(page)).includes(text);
const events = async (page: Page) => page.evaluate(() => window.__kiosk?.events ?? []);

/** Switches the station's language as a player does, until its snapshot comes in it. */
async function setLanguage(page: Page, lang: Lang): Promise<void> {
  await expect
    .poll(
      async () => {
        const seen = await events(page);
        if (seen.findLast((e) => e.startsWith('language:')) === `language:${lang}`) return true;
        await press(page, `language-${lang}`).catch(() => undefined);
        return false;
      },
      { timeout: 60_000, intervals: [500, 1_000, 2_000] },
    )
    .toBe(true);
}

/** The station's credit as its screen last heard it. */
async function creditOf(page: Page): Promise<number | null> {
  const last = (await events(page)).findLast((e) => e.startsWith('credit:'));
  return last ? Number(last.slice('credit:'.length)) : null;
}

const shots = path.resolve(import.meta.dirname, '../../artifacts/screenshots');

/**
 * Service mode's Tickets page at a table, in each language: every station's printer ready with
 * its paper, the ticket it printed and the one that went back, each number by its last four
 * digits only, with its amount and state (and why it went back).
 */
async function ticketsPage(
  service: Page,
  testInfo: TestInfo,
  validation: string,
  expect_: { table: string; out: boolean; in: ('redeemed' | 'returned')[]; languages: readonly Lang[] },
): Promise<void> {
  await waitForEvent(service, 'snapshot:service');
  await signIn(service, TECH);
  const last4 = validation.slice(-4);
  for (const lang of expect_.languages) {
    await pressUntilShown(service, `language-${lang}`, say(lang, 'service.pages.tickets'));
    await pressUntilShown(service, 'page-tickets', say(lang, 'service.tickets.printers'));
    const page = await texts(service);
    expect(page).toContain(say(lang, 'service.tickets.out'));
    expect(page).toContain(say(lang, 'service.tickets.in'));
    // The demonstration table: a simulated printer at every one of its seven stations, all ready.
    for (let s = 1; s <= 7; s++) expect(page).toMatch(new RegExp(`PR-${s} · .*${escape(say(lang, 'service.tickets.printerState.ready'))}`));
    const rows = page.split('\n').filter((r) => r.includes(`…${last4}`));
    if (expect_.out) expect(rows.some((r) => r.includes(say(lang, 'service.tickets.state.printed')) && r.includes(money(lang, 50_000)))).toBe(true);
    for (const state of expect_.in) expect(rows.some((r) => r.includes(say(lang, `service.tickets.state.${state}`)))).toBe(true);
    if (expect_.in.includes('returned')) expect(rows.some((r) => r.includes(say(lang, 'service.tickets.reason.already-paid')))).toBe(true);
    // Never the whole number: it is the bearer's.
    expect(page).not.toContain(validation.slice(0, 14));
    mkdirSync(shots, { recursive: true });
    const file = path.join(shots, `service-tickets-${expect_.table}-${lang}.png`);
    await service.screenshot({ path: file });
    await testInfo.attach(`service-tickets-${expect_.table}-${lang}`, { path: file, contentType: 'image/png' });
  }
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('a ticket printed at one table is paid once at another, and refused after, in the player’s language', async ({ openScreen }, testInfo) => {
  // Two kiosks and an upstream start in about a minute on an idle machine, five under a shared
  // one's load (average 15–20); the steps after take two more there.
  test.setTimeout(720_000);
  const t0 = Date.now();
  const step = (what: string) => console.error(`tito: ${what} (${Math.round((Date.now() - t0) / 1000)} s)`);
  let floor: TitoFloor | null = null;
  try {
    floor = await startTitoFloor([
      { game: 'blackjack', terminalId: 'SIM-BJ-01', args: ['--seed', '3', '--betting-seconds', '30'] },
      { game: 'baccarat', terminalId: 'SIM-BAC-01', args: ['--seed', '4', '--betting-seconds', '30'] },
    ]);
    const [A, B] = floor.tables;
    if (!A || !B) throw new Error('two tables were asked for');
    const a = await openScreen(A.screens['station/1']!, { fps: 10 });
    const b = await openScreen(B.screens['station/1']!, { fps: 10 });
    step('floor up');
    await Promise.all([waitForEvent(a, 'snapshot:station/1'), waitForEvent(b, 'snapshot:station/1')]);
    step('screens up');

    // Table A: 500 patacas in, cashed out to a ticket at the station's printer.
    await insertNote(A, 1, 500);
    await waitForEvent(a, 'credit:50000');
    step('credited at A');
    await press(a, 'cash-out');
    await expect.poll(() => shows(a, say('zh-Hant', 'desk.ticketPrinted', 50_000)), { timeout: 30_000 }).toBe(true);
    await waitForEvent(a, 'credit:0');
    const { barcodes } = await simControl<{ barcodes: string[] }>(A, 'take-ticket', { station: 1 });
    expect(barcodes).toHaveLength(1);
    const validation = barcodes[0]!;
    expect(validation).toMatch(/^00\d{16}$/);

    // Table B, a player reading Portuguese: the ticket credits exactly its amount, once.
    await setLanguage(b, 'pt');
    expect(await creditOf(b)).toBe(0);
    await simControl(B, 'insert-ticket', { station: 1, barcode: validation });
    await expect.poll(() => shows(b, say('pt', 'desk.ticketCredited', 50_000)), { timeout: 30_000 }).toBe(true);
    await waitForEvent(b, 'credit:50000');

    // The same paper again at B: back to the player, told it was already paid; the credit stays.
    await simControl(B, 'insert-ticket', { station: 1, barcode: validation });
    await expect.poll(() => shows(b, say('pt', 'desk.ticketReturned.already-paid')), { timeout: 30_000 }).toBe(true);
    expect(await creditOf(b)).toBe(50_000);

    // And back at A, in English: refused the same way; A's station stays at nothing.
    await setLanguage(a, 'en');
    await simControl(A, 'insert-ticket', { station: 1, barcode: validation });
    await expect.poll(() => shows(a, say('en', 'desk.ticketReturned.already-paid')), { timeout: 30_000 }).toBe(true);
    expect(await creditOf(a)).toBe(0);
    expect(await creditOf(b)).toBe(50_000);

    step('ticket paid once, refused twice');
    // Service mode's Tickets page: at A the ticket printed and the attempt that went back; at B the one paid and the one returned.
    await ticketsPage(await openScreen(A.screens['service']!, { fps: 10 }), testInfo, validation, {
      table: A.terminalId,
      out: true,
      in: ['returned'],
      languages: LANGUAGES,
    });
    await ticketsPage(await openScreen(B.screens['service']!, { fps: 10 }), testInfo, validation, {
      table: B.terminalId,
      out: false,
      in: ['redeemed', 'returned'],
      languages: ['pt'],
    });

    // The authority's row: printed at A's station 1, redeemed at B's station 1, one attempt approved.
    const r = await fetch(`${floor.upstream.url}/v1/tickets/${validation}`, { headers: { authorization: `Bearer ${floor.upstream.adminToken}` } });
    expect(r.status).toBe(200);
    const row = (await r.json()) as { ticket: Record<string, unknown>; attempts: { terminalId: string; outcome: string; reason: string | null }[] };
    console.error(`tito: the upstream's row: ${JSON.stringify(row)}`);
    expect(row.ticket).toMatchObject({ state: 'redeemed', terminalId: 'SIM-BJ-01', station: 1, amount: 50_000, currency: 'MOP' });
    expect(row.ticket.redemption).toMatchObject({ terminalId: 'SIM-BAC-01', station: 1 });
    // Three attempts: B's paid, B's again and A's refused as paid.
    expect(row.attempts.map((x) => [x.terminalId, x.outcome, x.reason])).toEqual([
      ['SIM-BAC-01', 'stacked', null],
      ['SIM-BAC-01', 'returned', 'already-paid'],
      ['SIM-BJ-01', 'returned', 'already-paid'],
    ]);

    step('service pages shown');
    await floor.stop();
    // Both ledgers verify, and each table's ticket meters say what happened there.
    for (const t of floor.tables) expect(verifyLedger(t.dataDir), t.terminalId).toEqual({ ok: true, problems: [] });
    const meter = (dir: string, name: string) => metersOf(dir, 'table')[name] ?? 0;
    expect({
      out: meter(A.dataDir, 'ticketsOut'),
      outAmount: meter(A.dataDir, 'ticketsOutAmount'),
      in: meter(A.dataDir, 'ticketsIn'),
    }).toEqual({ out: 1, outAmount: 50_000, in: 0 });
    expect({
      in: meter(B.dataDir, 'ticketsIn'),
      inAmount: meter(B.dataDir, 'ticketsInAmount'),
      out: meter(B.dataDir, 'ticketsOut'),
    }).toEqual({ in: 1, inAmount: 50_000, out: 0 });
  } finally {
    await floor?.stop();
    floor?.remove();
  }
});
