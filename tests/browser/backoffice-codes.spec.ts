// The back office shows no code where the catalogues have words (issue 49): a table's faults and
// rule profile on the floor, its faults and its journal entries' types on its page, a round's
// profile, decisions and bets on its recall — in every catalogue's language, each equal to the
// catalogue's words for it, never the code the upstream sent. A code no catalogue knows (a newer
// table's fault, a profile added later) is shown as itself. The built page (npm run
// build:backoffice) is served with a stand-in for the upstream's API answering those codes, so
// the test needs no upstream and no table.
import { expect, test, type Page } from '@playwright/test';
import { createReadStream, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { catalogues, languages, wordAt } from '../../locales/index.js';
import { citationWords } from '../../locales/citation.js';
import { createI18n } from '../../locales/i18n.js';
import { intlLocale } from '../../locales/money.js';
import { cutOrWide, domBoxes } from './backoffice-layout.js';
import { overlapping } from './layout-check.js';

const root = path.resolve(import.meta.dirname, '../../dist/backoffice');
const NEW_FAULT = 'coffee-spilled';
const NEW_PROFILE = 'macau-2031';
const NEW_ENTRY = 'transfer.teleport';
const NEW_ACTION = 'peek';
const NEW_BET = 'dragonBonus';
const at = '2026-11-27T10:00:00.000Z';

const row = (terminalId: string, game: string, profile: string, faults: string[]) => ({
  terminalId,
  tableId: null,
  game,
  currency: { code: 'MOP', exponent: 2 },
  profile,
  lastRound: { roundId: `${terminalId}-r1`, at },
  state: faults.length ? 'tilted' : 'betting',
  hold: false,
  faults,
  occupied: 1,
  stations: 2,
  lastSeenAt: at,
  lagEntries: 0,
  lagSeconds: 0,
  headSeq: 10,
  openAlarms: 0,
  unacknowledged: 0,
  configWaiting: 0,
});
const FLOOR = [
  row('T1', 'blackjack', 'macau-2009', ['shoe-lid-open', 'card-hold', NEW_FAULT]),
  row('T2', 'baccarat', 'macau-no-commission', []),
  row('T3', 'war', 'macau', []),
  row('T4', 'blackjack', 'portugal-2001', []),
  row('T5', 'blackjack', NEW_PROFILE, []),
];
const ENTRY_TYPES = {
  jackpots: ['jackpot.settle', 'jackpot.reset'],
  handpays: ['handpay.request', 'handpay.confirm'],
  transfers: ['transfer.out', 'transfer.in', 'transfer.complete', 'transfer.reverse', 'transfer.refuse', 'transfer.recall', NEW_ENTRY],
};
let seq = 100;
const entries = (types: string[]) => types.map((type) => ({ seq: seq++, type, ts: at, payload: { amount: 1000 } }));
const TABLE = {
  terminalId: 'T1',
  health: { tableId: 'BJ-1', game: 'blackjack' },
  currency: { code: 'MOP', exponent: 2 },
  faults: ['bill-jam', 'ledger-integrity', NEW_FAULT],
  table: [],
  stations: [],
  rounds: [],
  jackpots: entries(ENTRY_TYPES.jackpots),
  handpays: entries(ENTRY_TYPES.handpays),
  transfers: entries(ENTRY_TYPES.transfers),
  tickets: { issued: [], redeemed: [], outstanding: [] },
  alarms: [],
};
/**
 * A table whose journal holds amounts no ledger writes, in entries the ingest stores without
 * reading their figures (a jackpot's, a transfer's completion, a hand pay's confirmation): the
 * journal is the table's.
 */
const ODD_TABLE = {
  ...TABLE,
  terminalId: 'T2',
  jackpots: [{ seq: 1, type: 'jackpot.settle', ts: at, payload: { amount: 0.5 } }],
  handpays: [{ seq: 2, type: 'handpay.confirm', ts: at, payload: { amount: -1e300 } }],
  transfers: [{ seq: 3, type: 'transfer.complete', ts: at, payload: { transfer: { amount: 2 ** 60 } } }],
};
const ACTIONS = ['hit', 'stand', 'double', 'split', 'surrender', 'insurance', 'decline-insurance', 'even-money', NEW_ACTION];
const BETS = ['main', 'perfectPairs', 'sevens', 'over13', 'behind', 'insurance', 'double', 'split', NEW_BET];
/** The citation a settlement line of each profile cites, as the engines write it; a profile no text names, a citation no reader knows. */
const RULES: Record<string, string> = {
  'macau-2009': 'macau-2009 art.13 5)(2) i), art.14 n.5',
  macau: 'macau-war [art.7] n.5 al.2',
};
const round = (terminalId: string, roundId: string, game: string, profile: string, actions: string[], bets: string[]) => ({
  kind: 'macau-etg-round-evidence',
  terminalId,
  round: {
    roundId,
    game,
    profile,
    status: 'settled',
    seq: 50,
    ts: at,
    cards: [{ card: 'AS', to: 'dealer' }],
    decisions: actions.map((action, i) => ({ seat: 1, action, ...(i === 0 ? { auto: true } : {}) })),
    bets: bets.map((bet) => ({ station: 1, seat: 1, bet, amount: 100 })),
    lines: bets.map((bet) => ({ station: 1, seat: 1, bet, stake: 100, net: 100, rule: RULES[profile] ?? 'art.12' })),
    credits: [{ station: 1, before: 1000, after: 1100 }],
    entrySeqs: [49, 50],
  },
  proof: { links: [[49, 'a', 'b']] },
  head: { seq: 60 },
  rules: { seq: 1 },
});
const ROUNDS: Record<string, ReturnType<typeof round>> = {
  'T1-r1': round('T1', 'T1-r1', 'blackjack', 'macau-2009', ACTIONS, BETS),
  // War's surrender and tie bet have words of their own (the engine's war game names them so).
  'T1-r2': round('T1', 'T1-r2', 'war', 'macau', ['war', 'surrender'], ['main', 'tie']),
  'T1-r3': round('T1', 'T1-r3', 'blackjack', NEW_PROFILE, ['hit'], ['main']),
  // A dealing error corrected, then one no correction could mend: the round voided under its article.
  'T1-r4': voided(round('T1', 'T1-r4', 'blackjack', 'macau-2009', ['hit'], ['main'])),
};

function voided(r: ReturnType<typeof round>): ReturnType<typeof round> {
  return {
    ...r,
    round: {
      ...r.round,
      status: 'void',
      reason: 'shoe',
      authorisedBy: ['ana', 'bo'],
      uncorrectable: 'no-correction-in-text',
      voidRule: 'macau-2009 art.5 n.1 2)',
      corrections: [{ correction: 'exposed-card', card: 'KH', article: 'macau-2009 art.5 n.1 1)', confirmedBy: ['ana', 'bo'] }],
    },
  } as ReturnType<typeof round>;
}

/** An alarm that holds the most acknowledgements it takes (upstream/backoffice/alarm-acks.ts ALARM_ACKS_MAX). */
const FULL_ALARM = {
  id: 7,
  terminalId: 'T1',
  kind: 'divergence',
  detail: {},
  raisedAt: at,
  clearedAt: null,
  acks: Array.from({ length: 20 }, (_, i) => ({ by: 'ana', at, note: `look ${i}` })),
};
/** One short of the most: its form is offered, and somebody else takes the last place before it is sent. */
const LAST_PLACE_ALARM = { ...FULL_ALARM, id: 8, acks: FULL_ALARM.acks.slice(1) };

/**
 * A table that changed from Hong Kong dollars to patacas at seq 55: a jackpot paid before (seq 10)
 * and after (seq 60), and a round closed before (seq 50).
 */
const CHANGED_TABLE = {
  ...TABLE,
  terminalId: 'T3',
  currency: { code: 'MOP', exponent: 2 },
  currencies: [
    { fromSeq: 1, code: 'HKD', exponent: 2 },
    { fromSeq: 55, code: 'MOP', exponent: 2 },
  ],
  jackpots: [
    { seq: 60, type: 'jackpot.settle', ts: at, payload: { amount: 2000 } },
    { seq: 10, type: 'jackpot.settle', ts: at, payload: { amount: 1000 } },
  ],
  handpays: [],
  transfers: [],
};

let server: Server;
let origin = '';
test.beforeAll(async () => {
  if (!existsSync(path.join(root, 'index.html'))) throw new Error('build the page first: npm run build:backoffice');
  server = createServer((req, res) => {
    const url = (req.url ?? '/').replace(/[?#].*$/, '');
    const json = (v: unknown) => void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(v));
    if (url === '/backoffice/api/session')
      return json({ name: 'ana', role: 'supervisor', permissions: ['floor', 'acknowledge', 'report', 'evidence'], csrf: 'x' });
    if (url === '/backoffice/api/floor') return json(FLOOR);
    if (url === '/backoffice/api/floor/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      return void res.write(`event: floor\ndata: ${JSON.stringify(FLOOR)}\n\n`);
    }
    if (url === '/backoffice/api/config-requests') return json([]);
    if (url === '/backoffice/api/alarms') return json([FULL_ALARM, LAST_PLACE_ALARM]);
    // The upstream's answer to one more acknowledgement of an alarm that holds the most it takes.
    if (url === `/backoffice/api/alarms/${FULL_ALARM.id}/acknowledge` || url === `/backoffice/api/alarms/${LAST_PLACE_ALARM.id}/acknowledge`)
      return void res.writeHead(409, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'acks-full', message: 'full' }));
    if (url === '/backoffice/api/tables/T1') return json(TABLE);
    if (url === '/backoffice/api/tables/T2') return json(ODD_TABLE);
    if (url === '/backoffice/api/tables/T3') return json(CHANGED_TABLE);
    if (url === '/backoffice/api/tables/T3/rounds/T3-r1/evidence') return json(round('T3', 'T3-r1', 'blackjack', 'macau-2009', ['hit'], ['main']));
    const evidence = /^\/backoffice\/api\/tables\/T1\/rounds\/([^/]+)\/evidence$/.exec(url)?.[1];
    if (evidence && ROUNDS[evidence]) return json(ROUNDS[evidence]);
    const file = path.join(root, url.replace(/^\/backoffice\//, '') || 'index.html');
    if (!file.startsWith(root) || !existsSync(file)) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': file.endsWith('.js') ? 'text/javascript' : file.endsWith('.css') ? 'text/css' : 'text/html' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const a = server.address();
  origin = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
});
test.afterAll(() => new Promise<void>((r) => server.close(() => r())));

async function open(page: Page, language: string, hash: string): Promise<void> {
  await page.addInitScript((l) => localStorage.setItem('backoffice.language', l), language);
  await page.goto(`${origin}/backoffice/#${hash}`);
}

/** The words are longer than the codes: the page still fits a 1366×768 window, nothing on another (the layout test's rules). */
async function fits(page: Page, where: string): Promise<void> {
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(null)))));
  expect(overlapping(await domBoxes(page)), where).toEqual([]);
  expect(await cutOrWide(page), where).toEqual([]);
}

/**
 * A list as the page's language joins it (A、B及C, A, B e C): the browser's own Intl.ListFormat for
 * the language's locale, asked in the page, so the page is held to its browser's conventions, not
 * to a separator written in the test.
 */
function listIn(page: Page, language: (typeof languages)[number], items: readonly string[]): Promise<string> {
  return page.evaluate(([locale, list]) => new Intl.ListFormat(locale, { type: 'conjunction' }).format(list), [intlLocale(language), [...items]] as const);
}

for (const language of languages) {
  const catalogue = catalogues[language];
  /** The catalogue's words for `key`; the test is void unless they differ from the code they stand for. */
  const word = (key: string, code: string): string => {
    const w = wordAt(catalogue, key);
    if (w === undefined) throw new Error(`${language} has no ${key}`);
    expect(w, `${language} ${key} is a word, not the code`).not.toBe(code);
    return w;
  };
  const fault = (f: string) => (f === NEW_FAULT ? f : word(`tilt.${f}`, f));
  const profile = (p: string) => (p === NEW_PROFILE ? p : word(`backoffice.profile.${p}`, p));

  test(`${language}: the floor words each table's rule profile and faults, an unknown code shown as itself`, async ({ page }) => {
    await open(page, language, '/floor');
    for (const r of FLOOR) {
      const tr = page.locator(`tr[data-terminal=${r.terminalId}]`);
      await expect(tr.locator('td').nth(3)).toHaveText(profile(r.profile));
      if (r.faults.length) await expect(tr.locator('td').nth(4)).toContainText(` — ${await listIn(page, language, r.faults.map(fault))}`);
    }
    await fits(page, `${language} floor`);
  });

  test(`${language}: a table's page words its faults and its entries' types`, async ({ page }) => {
    await open(page, language, '/table/T1');
    await expect(page.getByTestId('table-faults')).toHaveText(`⚠ ${await listIn(page, language, TABLE.faults.map(fault))}`);
    const listed = [...TABLE.jackpots, ...TABLE.handpays, ...TABLE.transfers].map(
      (e) => `${e.seq} ${e.type === NEW_ENTRY ? e.type : word(`entryType.${e.type}`, e.type)}`,
    );
    await expect(page.locator('[data-testid=table-page] table.grid tbody tr td:first-child')).toHaveText(listed);
    await fits(page, `${language} table`);
  });

  test(`${language}: a round's recall words its profile, decisions and bets`, async ({ page }) => {
    for (const [id, e] of Object.entries(ROUNDS)) {
      await open(page, language, `/table/T1/round/${id}`);
      const recall = page.getByTestId('round-recall');
      await expect(recall).toHaveAttribute('data-round', id);
      const war = e.round.game === 'war';
      const action = (a: string) => (a === NEW_ACTION ? a : war && a === 'surrender' ? word('action.warSurrender', a) : word(`action.${a}`, a));
      const bet = (b: string) => (b === NEW_BET ? b : war && b === 'tie' ? word('help.item.tieBet', b) : word(`bet.${b}`, b));
      await expect(recall.locator('p').nth(0)).toContainText(profile(e.round.profile));
      const decisions = recall.locator('ol > li');
      await expect(decisions).toHaveCount(e.round.decisions.length);
      for (const [i, d] of e.round.decisions.entries()) await expect(decisions.nth(i)).toContainText(action(d.action));
      // The bets' table, then the settlement lines': the third column of each names the bet.
      const grids = recall.locator('table.grid');
      for (const g of [0, 1]) await expect(grids.nth(g).locator('tbody tr td:nth-child(3)')).toHaveText(e.round.bets.map((b) => bet(b.bet)));
      // The settlement lines' last column: the citation in words, the text by its name; one of no text known, as written.
      const i18n = createI18n(language);
      await expect(grids.nth(1).locator('tbody tr td:nth-child(6)')).toHaveText(e.round.lines.map((l) => citationWords(i18n.t.bind(i18n), l.rule)));
      // A correction and a void: what was done and why by their words, each under its article in words.
      const r = e.round as typeof e.round & { voidRule?: string; uncorrectable?: string; corrections?: { correction: string; article: string }[] };
      for (const c of r.corrections ?? []) {
        await expect(recall).toContainText(word(`service.correction.${c.correction}`, c.correction));
        await expect(recall).toContainText(citationWords(i18n.t.bind(i18n), c.article));
      }
      if (r.voidRule && r.uncorrectable) {
        await expect(recall).toContainText(citationWords(i18n.t.bind(i18n), r.voidRule));
        await expect(recall).toContainText(word(`service.uncorrectable.${r.uncorrectable}`, r.uncorrectable));
      }
      if (e.round.profile === 'macau-2009') await expect(recall).not.toContainText(/art\.\d|exposed-card|no-correction/);
      await fits(page, `${language} round ${id}`);
    }
  });
}

// An acknowledgement the upstream refuses is said under its form in the page's language; before,
// the form dropped the refusal (an unhandled rejection) and nothing on the page changed.
test('an acknowledgement refused (somebody took the last place first) is said under its form, in each language', async ({ browser }) => {
  for (const language of languages) {
    const page = await browser.newPage();
    await open(page, language, '/alarms');
    const alarm = page.locator(`li[data-alarm="${LAST_PLACE_ALARM.id}"]`);
    await alarm.locator('input[name=note]').fill('one more');
    await alarm.locator('form.ack button[type=submit]').click();
    const said = wordAt(catalogues[language], 'backoffice.alarms.refused.acks-full')?.replace('{{max}}', '20');
    expect(said, language).toBeTruthy();
    await expect(alarm.getByTestId('ack-refused')).toHaveText(said ?? '');
    await page.close();
  }
});

// An alarm that holds the most acknowledgements it takes offers no form: the upstream would refuse
// one more (409 acks-full). It says so in the page's language in the form's place; before, the form
// was offered and a note typed there was only refused (said under it, since an earlier review).
test('an alarm that holds the most acknowledgements it takes says so in place of its form, in each language', async ({ browser }) => {
  for (const language of languages) {
    // A page of its own for each language: the same address again would only move its hash.
    const page = await browser.newPage();
    await open(page, language, '/alarms');
    const alarm = page.locator(`li[data-alarm="${FULL_ALARM.id}"]`);
    const said = wordAt(catalogues[language], 'backoffice.alarms.refused.acks-full')?.replace('{{max}}', '20');
    expect(said, language).toBeTruthy();
    await expect(alarm.getByTestId('acks-full')).toHaveText(said ?? '');
    await expect(alarm.locator('form.ack')).toHaveCount(0);
    await page.close();
  }
});

// A table's journal is its own: an entry the ingest stores without reading its figures can name an
// amount no ledger writes (half a minor unit, past 2^53). Its page is still shown, that amount as
// the table wrote it behind ⚠; before, formatting it threw, and the whole page (stations, alarms,
// tickets) was «Could not load».
test("a table's page shows an amount no ledger writes as written, and the rest of the page", async ({ page }) => {
  await open(page, 'en', '/table/T2');
  await expect(page.getByTestId('table-page')).toBeVisible();
  const amounts = page.locator('[data-testid=table-page] table.grid tbody tr td:nth-child(3)');
  await expect(amounts).toHaveText(['⚠ 0.5', '⚠ -1e+300', `⚠ ${2 ** 60}`]);
});

// A table that changed currency: a jackpot and a round are shown in the currency the table held
// when it journalled them (the spans the upstream keeps, as the reports read them). Before, each
// was in the table's currency of now: the jackpot paid and the round played in Hong Kong dollars
// were labelled patacas.
test("a table's entries and a round's recall are in the currency the table held at their seq", async ({ page }) => {
  const fmt = (code: string, minor: number) =>
    page.evaluate(
      ([c, m]) => new Intl.NumberFormat('en-MO', { style: 'currency', currency: c, minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(m / 100),
      [code, minor] as const,
    );
  await open(page, 'en', '/table/T3');
  await expect(page.getByTestId('table-page')).toBeVisible();
  await expect(page.locator('[data-testid=table-page] table.grid tbody tr td:nth-child(3)')).toHaveText([await fmt('MOP', 2000), await fmt('HKD', 1000)]);
  await page.goto(`${origin}/backoffice/#/table/T3/round/T3-r1`);
  const recall = page.getByTestId('round-recall');
  await expect(recall).toHaveAttribute('data-round', 'T3-r1');
  await expect(recall.locator('table.grid').first().locator('tbody tr td:nth-child(4)')).toHaveText([await fmt('HKD', 100)]);
});
