// Tickets in and out across a floor (issue 47, its done-when): two demonstration tables (`etg
// start --headless --sim-controls --upstream URL`: a simulated TCL printer at every station) and
// their validation authority, the upstream on PGlite (tests/browser/tito-floor.ts). A player at a
// station of table A cashes out to a ticket (the screen says it printed, with its amount); the
// validation number the printer printed (POST /sim/take-ticket) goes into the acceptor of a station
// of table B (POST /sim/insert-ticket), which is credited exactly that amount, once; the same
// ticket again, at B and back at A, goes back and the player is told it was already paid, in their
// language. Then the tables' ledgers (verified), their ticket meters and the upstream's row.
import type { Page } from '@playwright/test';
import { catalogues, wordAt } from '../../locales/index.js';
import { formatMoney } from '../../locales/money.js';
import { drawnTexts, expect, insertNote, press, test, waitForEvent, type Kiosk } from './kiosk-fixture.js';
import { metersOf, startTitoFloor, verifyLedger, type TitoFloor } from './tito-floor.js';

type Lang = 'zh-Hant' | 'pt' | 'en';
/** A catalogue's words as the station draws them, an amount in patacas put in (spaces made plain, as drawnTexts gives them). */
function say(lang: Lang, key: string, amount = 0): string {
  const words = wordAt(catalogues[lang], key);
  if (words === undefined) throw new Error(`no ${key} in ${lang}`);
  return words.replace('{{amount, money}}', formatMoney(amount, 'MOP', lang)).replace(/[\u00a0\u202f]/g, ' ');
}

async function sim<T>(kiosk: Kiosk, name: string, body: object): Promise<T> {
  const r = await fetch(`${kiosk.origin}/sim/${name}`, {
    method: 'POST',
    headers: { 'x-sim-token': kiosk.simToken ?? '', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`${name}: ${r.status} ${await r.text()}`);
  return (await r.json()) as T;
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

test('a ticket printed at one table is paid once at another, and refused after, in the player’s language', async ({ openScreen }) => {
  // Two kiosks and an upstream start in about a minute on an idle machine; four under a shared one's load.
  test.setTimeout(480_000);
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
    console.error('tito: floor up');
    await Promise.all([waitForEvent(a, 'snapshot:station/1'), waitForEvent(b, 'snapshot:station/1')]);
    console.error('tito: screens up');

    // Table A: 500 patacas in, cashed out to a ticket at the station's printer.
    await insertNote(A, 1, 500);
    await waitForEvent(a, 'credit:50000');
    console.error('tito: credited at A');
    await press(a, 'cash-out');
    await expect.poll(() => shows(a, say('zh-Hant', 'desk.ticketPrinted', 50_000)), { timeout: 30_000 }).toBe(true);
    await waitForEvent(a, 'credit:0');
    const { barcodes } = await sim<{ barcodes: string[] }>(A, 'take-ticket', { station: 1 });
    expect(barcodes).toHaveLength(1);
    const validation = barcodes[0]!;
    expect(validation).toMatch(/^00\d{16}$/);

    // Table B, a player reading Portuguese: the ticket credits exactly its amount, once.
    await setLanguage(b, 'pt');
    expect(await creditOf(b)).toBe(0);
    await sim(B, 'insert-ticket', { station: 1, barcode: validation });
    await expect.poll(() => shows(b, say('pt', 'desk.ticketCredited', 50_000)), { timeout: 30_000 }).toBe(true);
    await waitForEvent(b, 'credit:50000');

    // The same paper again at B: back to the player, told it was already paid; the credit stays.
    await sim(B, 'insert-ticket', { station: 1, barcode: validation });
    await expect.poll(() => shows(b, say('pt', 'desk.ticketReturned.already-paid')), { timeout: 30_000 }).toBe(true);
    expect(await creditOf(b)).toBe(50_000);

    // And back at A, in English: refused the same way; A's station stays at nothing.
    await setLanguage(a, 'en');
    await sim(A, 'insert-ticket', { station: 1, barcode: validation });
    await expect.poll(() => shows(a, say('en', 'desk.ticketReturned.already-paid')), { timeout: 30_000 }).toBe(true);
    expect(await creditOf(a)).toBe(0);
    expect(await creditOf(b)).toBe(50_000);

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
