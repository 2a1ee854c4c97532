// The gaming day's report reconciled with the tables' ledgers (issue 49 item 4): two kiosks'
// ledgers synced to an upstream, one entry journalled before the gaming day's start hour (Macau
// time) so it belongs to the day before; the CSV of each day, read back to integer minor units,
// adds up to the ledgers' own meters exactly, per table, per station and in the floor's total, in
// every column, each of which the day moved (report-scenario.ts: AFT, handpays, a progressive, a
// void, transfers both ways with one reversed, beside the notes, rounds and tickets).
// On the embedded PGlite and on a PostgreSQL cluster of its own (tests/sync/upstream-databases.ts), with the same assertions.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { reportCsv } from '../../backoffice/src/csv.js';
import { COUNTS, MONEY, type CountColumn, type MoneyColumn } from '../../backoffice/src/report-model.js';
import { correctionCsvCells, correctionPageCells, correctionsHead } from '../../backoffice/src/corrections.js';
import { CORRECTION_ARTICLE, everyColumn, ledgerHandpaidWins, ledgerTransfers, transfer, VOID_RULE } from './report-scenario.js';
import { z } from 'zod';
import { TableDetail } from '../../backoffice/src/api.js';
import { GamingDayReport, Plots } from '../../backoffice/src/report-model.js';
import { words } from '../../backoffice/src/i18n.js';
import { theoreticalPageCells } from '../../backoffice/src/theoretical.js';
import { Ledger, SyncClient } from '../../ledger/index.js';
import { billCredit, settledRound } from '../../ledger/fixtures.js';
import { createI18n } from '../../locales/i18n.js';
import type { NewEntry } from '../../ledger/entries.js';
import { redeemed, ticketIssue, ticketPrinted, ticketVoided } from '../../ledger/ticket-fixtures.js';
import { validationNumber, type ValidationNumber } from '../../terms/validation-number.js';
import { gamingDayOf } from '../../upstream/backoffice/gaming-day.js';
import { betVarianceOf, HOUSE_EDGES } from '../../terms/house-edges.js';
import { enrolTerminal, putUser, startUpstream, type Db } from '../../upstream/index.js';
import { machineIdOf, redeem } from '../../upstream/tickets.js';
import { TheoreticalLine } from '../../upstream/backoffice/theoretical.js';
import { signInHttp } from './backoffice-http.js';
import { DATABASES, openDatabase, type OpenDatabase } from './upstream-databases.js';

const FAST = { N: 2 ** 10, r: 8, p: 1 };
const PASSWORD = 'correct horse battery';

/** An exact decimal ("1234.50", "-0.05") back to integer minor units, by its digits alone. */
function minor(text: string, digits = 2): number {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  assert.ok(m, `not a decimal: ${text}`);
  const frac = (m[3] ?? '').padEnd(digits, '0');
  assert.equal(frac.length, digits, text);
  return (m[1] ? -1 : 1) * Number(`${m[2]}${frac}`);
}

/** RFC 4180 lines of plain cells (ours quote nothing in these figures). */
function parse(csv: string): string[][] {
  return csv
    .replace(/^\ufeff/, '')
    .trimEnd()
    .split('\r\n')
    .map((l) => l.split(','));
}

/** A ticket T1's station 2 prints (or, with `voidIt`, gives back before it prints). */
function ticketOut(v: ValidationNumber, machineId: number, sequence: number, amount: number, voidIt = false): NewEntry[] {
  return [ticketIssue(v, sequence, amount, 2, machineId, '2026-11-25T03:00:30.000Z'), voidIt ? ticketVoided(v, 2, 'paper jam') : ticketPrinted(v, 2)];
}

/** T2's station 1 takes ticket `v` in, approved by the authority for `amount`. */
const ticketIn = (requestId: string, v: ValidationNumber, amount: number): NewEntry[] => redeemed(requestId, v, 1, amount);

for (const kind of DATABASES) {
  describe(`back office: the gaming day reconciles with the ledgers (${kind})`, () => {
    let opened: OpenDatabase;
    let db: Db;
    let up: Awaited<ReturnType<typeof startUpstream>>;
    const ledgers: Ledger[] = [];
    const tickets: ValidationNumber[] = [];
    let cookie = '';
    before(async () => {
      opened = await openDatabase(kind);
      db = opened.db;
      await putUser(db, { name: 'cash', role: 'accounting', password: PASSWORD, by: 'test' }, FAST);
      await putUser(db, { name: 'eye', role: 'viewer', password: PASSWORD, by: 'test' }, FAST);
      up = await startUpstream({ db, backoffice: {} });
      for (const [i, id] of ['T1', 'T2'].entries()) {
        const cred = await enrolTerminal(db, id, false);
        // 05:30 Macau on 25 November: before the 06:00 start, so the gaming day of the 24th.
        let at = Date.parse('2026-11-24T21:30:00Z');
        const ledger = Ledger.open({ file: ':memory:', terminalId: id, clock: () => new Date(at) });
        ledger.append(billCredit(1, 50_000, `early-${id}`, 'MOP'));
        at = Date.parse('2026-11-25T03:00:00Z');
        const stations = [1, 2, 3, 4].slice(0, 3 + i);
        for (const s of stations) ledger.append(billCredit(s, s % 2 ? 10_000 : 100_000, `b${s}`, 'MOP'));
        // Tickets: T1 prints two and gives one back before it prints; T2 takes the first in. The
        // second stays on the floor: the liability.
        if (id === 'T1') {
          const m = await machineIdOf(db, id);
          tickets.push(validationNumber(m, 1), validationNumber(m, 2), validationNumber(m, 3));
          ledger.appendMany([...ticketOut(tickets[0]!, m, 1, 20_000), ...ticketOut(tickets[1]!, m, 2, 15_000), ...ticketOut(tickets[2]!, m, 3, 5_000, true)]);
        } else {
          const asked = await redeem(db, id, { requestId: 'report-in-1', validation: tickets[0]!, station: 1, currency: 'MOP', limit: 1_000_000 });
          assert.equal(asked.kind, 'approved', JSON.stringify(asked));
          ledger.appendMany(ticketIn('report-in-1', tickets[0]!, 20_000));
        }
        for (let r = 0; r < 6; r++) {
          at += 60_000;
          const { bets, settle } = settledRound(`${id}-r${r}`, stations, 2_500 + 500 * r, r);
          ledger.appendMany([...bets, settle]);
        }
        // Then every other column's movement, at station 1, on its first round; and the other table's transfer to it.
        at += 60_000;
        ledger.appendMany(everyColumn(id, id === 'T1' ? 'T2' : 'T1', `${id}-r0`, transfer(id === 'T1' ? 'T2' : 'T1', id, 1, 4_000)));
        if (id === 'T2') {
          // A seventh round at station 1 with a winning-streak bet beside the main bet, lost at once:
          // a bet with no published house edge.
          at += 60_000;
          const round = { roundId: 'T2-r6', tableId: 'T1', game: 'blackjack' as const, profile: 'macau-2009', shoeId: 'shoe-1', cards: [], decisions: [] };
          const line = (name: string, stake: number, net: number, rule: string) => ({ station: 1, seat: 1, bet: name, hand: 0, stake, net, rule });
          ledger.appendMany([
            {
              type: 'bet.place',
              txId: 'T2-r6:bet:1',
              payload: {
                station: 1,
                roundId: 'T2-r6',
                tableId: 'T1',
                bets: [
                  { seat: 1, bet: 'main', amount: 2_500 },
                  { seat: 1, bet: 'streak2', amount: 1_000 },
                ],
              },
            },
            {
              type: 'round.settle',
              txId: 'T2-r6:settle',
              payload: {
                ...round,
                lines: [line('main', 2_500, 2_500, 'macau-2009 art.9'), line('streak2', 1_000, -1_000, 'macau-2009 art.13 5)(2) vi)')],
              },
            },
          ]);
        }
        // Both tables in patacas, as their heartbeats say: one currency, so one total line.
        const client = new SyncClient(ledger, {
          url: up.url,
          credentials: { ...cred, upstream: up.url },
          heartbeat: { snapshot: () => ({ currency: { code: 'MOP', exponent: 2 } }) },
        });
        while ((await client.syncOnce()) === 'sent');
        assert.equal(await client.sendHeartbeat(), true);
        ledgers.push(ledger);
      }
      ({ cookie } = await signInHttp(up.url, 'cash', PASSWORD));
    });
    after(async () => {
      ledgers.forEach((l) => l.close());
      await up.close();
      await opened.close();
    });

    const report = async (date: string) =>
      GamingDayReport.parse(await (await fetch(`${up.url}/backoffice/api/reports/gaming-day?date=${date}`, { headers: { cookie } })).json());

    it("adds up, over the two gaming days, to every table's and station's meters to the avo, in every column, each of which moved", async () => {
      const days = [await report('2026-11-24'), await report('2026-11-25')];
      assert.equal(days[1]?.from, '2026-11-24T22:00:00.000Z', '06:00 in Macau is 22:00 UTC the day before');
      const en = createI18n('en');
      const csvs = days.map((d) => parse(reportCsv(en, d)));
      const head = csvs[0]?.[0] ?? [];
      const col = (c: MoneyColumn | CountColumn | 'notes') => {
        const i = head.indexOf(en.t(`backoffice.report.col.${c}`));
        assert.ok(i >= 0, `the CSV has the column ${c}`);
        return i;
      };
      // What each column is in the ledger: its meters at that scope (a table's or a station's), or, for
      // the transfers, which no meter counts, its postings. Every column of the report is here (the type says so).
      type Meters = Record<string, number>;
      const m = (name: string) => (x: Meters) => x[name] ?? 0;
      const ledgerSays: Record<MoneyColumn | CountColumn, (x: Meters, l: Ledger, station?: number) => number> = {
        drop: m('totalBillsIn'),
        ticketDrop: m('ticketsInAmount'),
        creditsIn: m('totalIn'),
        creditsOut: m('totalOut'),
        handpaid: (x) => m('handpaidCancelledCredits')(x) + m('jackpotHandpays')(x),
        jackpots: (x) => Object.entries(x).reduce((a, [k, v]) => a + (k.startsWith('progressiveWins.') ? v : 0), 0),
        wagered: m('creditsWagered'),
        won: m('creditsWon'),
        // The round payouts paid by hand are no credit won: their `handpay.request` is where the house's loss is.
        handpaidWins: (_x, l, s) => ledgerHandpaidWins(l, s),
        win: (x, l, s) => m('creditsWagered')(x) - m('creditsWon')(x) - m('voidRefunds')(x) - ledgerHandpaidWins(l, s),
        voidRefunds: m('voidRefunds'),
        transfersIn: (_x, l, s) => ledgerTransfers(l, s).in,
        transfersOut: (_x, l, s) => ledgerTransfers(l, s).out,
        aftInAmount: m('aftInAmount'),
        aftOutAmount: m('aftOutAmount'),
        ticketsOutAmount: m('ticketsOutAmount'),
        handpays: m('handpays'),
        rounds: m('gamesPlayed'),
        voids: m('voidedRounds'),
        ticketsIn: m('ticketsIn'),
        ticketsOut: m('ticketsOut'),
        ticketsVoided: m('ticketsVoided'),
      };
      const money = new Set<string>(MONEY);
      const value = (c: string, text: string) => (money.has(c) ? minor(text) : Number(text));
      const cell = (table: string, station: string, c: MoneyColumn | CountColumn) =>
        csvs.reduce((acc, rows) => acc + rows.filter((r) => r[0] === table && r[1] === station).reduce((a, r) => a + value(c, r[col(c)] ?? ''), 0), 0);
      /** The notes cell ("100.00x2 1000.00x1") of both days, as meters are: `billsIn.<denomination>` → count. */
      const notes = (table: string, station: string) => {
        const out: Meters = {};
        for (const rows of csvs)
          for (const r of rows.filter((x) => x[0] === table && x[1] === station))
            for (const part of (r[col('notes')] ?? '').split(' ').filter(Boolean)) {
              const [d, n] = part.split('x');
              out[`billsIn.${minor(d ?? '')}`] = (out[`billsIn.${minor(d ?? '')}`] ?? 0) + Number(n);
            }
        return out;
      };
      const billsIn = (x: Meters) => Object.fromEntries(Object.entries(x).filter(([k, v]) => k.startsWith('billsIn.') && v !== 0));
      for (const [i, ledger] of ledgers.entries()) {
        const id = ledger.terminalId;
        const scopes: [string, string, number | undefined][] = [
          [id, 'table', undefined],
          ...[1, 2, 3, 4].slice(0, 3 + i).map((s) => [String(s), `station:${s}`, s] as [string, string, number]),
        ];
        for (const [station, scope, n] of scopes) {
          const x = ledger.meters(scope);
          const where = `${id} ${scope}`;
          for (const c of [...MONEY, ...COUNTS]) assert.equal(cell(id, n === undefined ? '' : station, c), ledgerSays[c](x, ledger, n), `${where} ${c}`);
          assert.deepEqual(notes(id, n === undefined ? '' : station), billsIn(x), `${where} notes`);
        }
      }
      // The floor's total line: both ledgers together, in every column; and every column moved.
      for (const c of [...MONEY, ...COUNTS]) {
        const want = ledgers.reduce((a, l) => a + ledgerSays[c](l.meters('table'), l), 0);
        assert.equal(cell('Total', '', c), want, `total ${c}`);
        assert.notEqual(want, 0, `the scenario moves ${c}`);
      }
      // The reversed transfer went back: each table sent 4,000 and 1,500, and 1,500 came back.
      assert.deepEqual(
        ledgers.map((l) => ledgerTransfers(l)),
        [
          { in: 4_000, out: 4_000 },
          { in: 4_000, out: 4_000 },
        ],
      );
      // The early note is in the 24th's report, and only there.
      assert.deepEqual(
        days[0]?.lines.filter((l) => l.scope === 'table').map((l) => [l.terminalId, l.drop, l.rounds]),
        [
          ['T1', 50_000, 0],
          ['T2', 50_000, 0],
        ],
      );
    });

    it('sets each table’s and bet’s actual win beside its theoretical win from the engine’s exact edge, on the page and in the CSV', async () => {
      const json: unknown = await (await fetch(`${up.url}/backoffice/api/reports/gaming-day?date=2026-11-25`, { headers: { cookie } })).json();
      // The API's figures, read through the upstream's own schema; the page's schema reads the same.
      const api = z.object({ theoretical: z.array(TheoreticalLine) }).parse(json).theoretical;
      const day = GamingDayReport.parse(json);
      assert.deepEqual(day.theoretical, api);
      const edge = HOUSE_EDGES.blackjack?.['macau-2009']?.main;
      assert.ok(edge !== undefined);
      for (const [i, ledger] of ledgers.entries()) {
        const id = ledger.terminalId;
        const line = api.find((l) => l.terminalId === id && l.bet === 'main');
        assert.ok(line, id);
        // Six rounds of 2,500 to 5,000 avos at each of its stations (3 at T1, 4 at T2), the round of
        // 1,000 at station 1 whose jackpot was paid by hand, and at T2 one more of 2,500 at station 1
        // beside a winning-streak bet: the initial bets.
        const stations = 3 + i;
        const [rounds, wagered] = id === 'T2' ? [8, stations * 22_500 + 1_000 + 2_500] : [7, stations * 22_500 + 1_000];
        assert.deepEqual(
          [line.game, line.profile, line.bet, line.rounds, line.wagered, line.currency?.code],
          ['blackjack', 'macau-2009', 'main', rounds, wagered, 'MOP'],
        );
        assert.equal(line.edge, edge);
        assert.equal(line.theoretical, Math.round((wagered * edge) / 100));
        assert.equal(line.difference, line.actual - (line.theoretical ?? 0));
        // The table's bets' actual wins add up to the meters' win.
        const m = ledger.meters('table');
        const actual = api.filter((l) => l.terminalId === id).reduce((a, l) => a + l.actual, 0);
        const win = (m.creditsWagered ?? 0) - (m.creditsWon ?? 0) - (m.voidRefunds ?? 0) - ledgerHandpaidWins(ledger);
        assert.equal(actual, win, `${id}: the actual wins are the meters’ win, less the payouts paid by hand`);
        // And the report's own win says the same: the jackpot paid by hand is the house's loss, not its win.
        const reported = day.lines.find((l) => l.terminalId === id && l.scope === 'table');
        assert.deepEqual([reported?.win, reported?.handpaidWins], [actual, 8_000], `${id}: the report's win is the house's result`);
      }
      // The streak bet has no published edge: no theoretical win and no difference, never a 0.
      const streak = api.find((l) => l.bet === 'streak2');
      assert.deepEqual(streak, {
        terminalId: 'T2',
        currency: { code: 'MOP', exponent: 2 },
        game: 'blackjack',
        profile: 'macau-2009',
        bet: 'streak2',
        rounds: 1,
        wagered: 1_000,
        edge: null,
        theoretical: null,
        actual: 1_000,
        difference: null,
      });
      assert.deepEqual(
        api.filter((l) => l.bet === 'jackpot').map((l) => [l.terminalId, l.wagered, l.actual]),
        [
          ['T1', 500, -7_500],
          ['T2', 500, -7_500],
        ],
        'the jackpot paid by hand: the house lost its net',
      );
      assert.equal(api.length, 5, 'T1 main and jackpot, T2 main, jackpot and streak2');

      // The CSV: its own section under its title, each line's figures back to minor units equal to the API's.
      const rows = parse(reportCsv(createI18n('en'), day));
      const title = rows.findIndex((r) => r[0] === 'Hold against theoretical');
      assert.ok(title > 0, 'the section is in the CSV');
      const head = rows[title + 1] ?? [];
      assert.deepEqual(head, [
        'Table',
        'Currency',
        'Game',
        'Rules',
        'Bet',
        'Rounds',
        'Initial bets',
        'House edge',
        'Theoretical win',
        'Actual win',
        'Difference (actual − theoretical)',
      ]);
      const csvLines = rows.slice(title + 2, title + 2 + api.length);
      for (const l of api) {
        const r = csvLines.find((x) => x[0] === l.terminalId && x[4] === l.bet);
        assert.ok(r, `${l.terminalId} ${l.bet} in the CSV`);
        assert.deepEqual(r.slice(1, 6), [l.currency?.code, l.game, l.profile, l.bet, String(l.rounds)]);
        assert.equal(minor(r[6] ?? ''), l.wagered);
        assert.equal(minor(r[9] ?? ''), l.actual);
        if (l.edge === null) {
          assert.deepEqual([r[7], r[8], r[10]], ['no published edge', '', ''], 'says so, prints no 0');
        } else {
          assert.equal(Number(r[7]), Number(l.edge.toFixed(4)));
          assert.equal(minor(r[8] ?? ''), l.theoretical);
          assert.equal(minor(r[10] ?? ''), l.difference);
        }
      }
      // The ledgers' reconciliation is untouched: the section's lines are no table's nor station's.
      assert.equal(rows.filter((r) => r[0] === 'T2' && r[1] === '').length, 1);

      // The printable page's cells, in each language: the same figures, by Intl in the Macau locale.
      const en = words('en');
      const money = (text: string | undefined) => minor((text ?? '').replace(/[^\d.-]/g, ''));
      for (const l of api) {
        const c = theoreticalPageCells(en, l);
        assert.deepEqual([money(c[6]), money(c[9])], [l.wagered, l.actual]);
        if (l.theoretical !== null && l.difference !== null) assert.deepEqual([money(c[8]), money(c[10])], [l.theoretical, l.difference]);
      }
      const noEdge = { en: 'no published edge', 'zh-Hant': '沒有公佈的莊家優勢', 'zh-Hans': '未公布庄家优势', pt: 'sem vantagem publicada' } as const;
      for (const [language, says] of Object.entries(noEdge)) {
        const c = theoreticalPageCells(words(language === 'en' || language === 'pt' || language === 'zh-Hans' ? language : 'zh-Hant'), streak);
        assert.deepEqual([c[7], c[8], c[10]], [says, '—', '—'], language);
      }
    });

    it('plots the same initial bets and house wins hour by hour as the day’s hold against theoretical, with the band of blackjack’s main bet', async () => {
      const json: unknown = await (await fetch(`${up.url}/backoffice/api/reports/gaming-day?date=2026-11-25`, { headers: { cookie } })).json();
      const lines = z
        .object({ theoretical: z.array(TheoreticalLine) })
        .parse(json)
        .theoretical.filter((l) => l.edge !== null);
      const plots = Plots.parse(await (await fetch(`${up.url}/backoffice/api/reports/plots?date=2026-11-25`, { headers: { cookie } })).json());
      for (const ledger of ledgers) {
        const id = ledger.terminalId;
        const hours = plots.tables.find((s) => s.terminalId === id)?.theoretical ?? [];
        assert.equal(hours.length, 24, id);
        // The hours' win adds up to the ledger's: a voided round's stakes went back, they are no win.
        const m = ledger.meters('table');
        assert.equal(
          (plots.tables.find((x) => x.terminalId === id)?.win ?? []).reduce((x, y) => x + y, 0),
          (m.creditsWagered ?? 0) - (m.creditsWon ?? 0) - (m.voidRefunds ?? 0) - ledgerHandpaidWins(ledger),
          `${id}: the hours' win, less the payouts paid by hand`,
        );
        const mine = lines.filter((l) => l.terminalId === id);
        assert.ok(mine.length > 0, id);
        const sum = (pick: (h: (typeof hours)[number]) => number) => hours.reduce((a, h) => a + pick(h), 0);
        assert.equal(
          sum((h) => h.initial),
          mine.reduce((a, l) => a + l.wagered, 0),
          `${id}: initial bets`,
        );
        assert.equal(
          sum((h) => h.house),
          mine.reduce((a, l) => a + l.actual, 0),
          `${id}: house wins`,
        );
        const expected = mine.reduce((a, l) => a + (l.wagered * (l.edge ?? 0)) / 100, 0);
        assert.ok(Math.abs(sum((h) => h.expected) - expected) < 1e-6, `${id}: expectation`);
        // Every round in one hour: T1's 3 stations, T2's 4, each staking 2,500 + 500r on the main bet in
        // round r, the hand-paid jackpot's round 1,000 at one station, T2's last round 2,500 at one station;
        // σ² = Σ_rounds (Σ stakes · s)².
        const s = Math.sqrt(betVarianceOf('blackjack', 'macau-2009', 'main') ?? Number.NaN);
        const stations = id === 'T1' ? 3 : 4;
        let sq = (1_000 * s) ** 2 + (id === 'T2' ? (2_500 * s) ** 2 : 0);
        for (let r = 0; r < 6; r++) sq += (stations * (2_500 + 500 * r) * s) ** 2;
        const busy = hours.filter((h) => h.initial > 0);
        assert.equal(busy.length, 1, `${id}: one hour of rounds`);
        assert.ok(Math.abs((busy[0]?.sd ?? Number.NaN) - Math.sqrt(sq)) < 1e-6, `${id}: the band's σ ${busy[0]?.sd} ≠ ${Math.sqrt(sq)}`);
      }
    });

    it("states the floor's outstanding ticket liability at the day's end, and now for today", async () => {
      // The register heard of the redemption and the void now, after the 25th ended; the journals
      // that end them say both happened on the 25th, as that day's ticket meters count them (ticketsIn,
      // ticketsVoided): at its end only the unredeemed ticket was owed (until 7 December all three were,
      // by the register's times). Today too.
      const day = await report('2026-11-25');
      assert.equal(day.liability.asOf, '2026-11-25T22:00:00.000Z');
      assert.deepEqual(day.liability.currencies, [{ currency: 'MOP', tickets: 1, amount: 15_000 }]);
      // The day before, none was issued yet.
      assert.deepEqual((await report('2026-11-24')).liability.currencies, []);
      const today = await report(gamingDayOf(new Date(), day.startHour));
      assert.deepEqual(today.liability.currencies, [{ currency: 'MOP', tickets: 1, amount: 15_000 }]);
      const csv = parse(reportCsv(createI18n('en'), today));
      assert.deepEqual(
        csv.find((r) => r[0] === 'Outstanding ticket liability'),
        ['Outstanding ticket liability', today.liability.asOf, 'MOP', '1', '150.00'],
      );
      // Then, last, whether the day was over when read: today's is not.
      assert.match(csv.at(-1)?.[0] ?? '', /^The gaming day is not over/);
    });

    it('lists each table’s tickets on its page from the register: issued there with their state, redeemed there, and what is outstanding', async () => {
      const page = async (id: string) =>
        TableDetail.parse(await (await fetch(`${up.url}/backoffice/api/tables/${id}`, { headers: { cookie } })).json()).tickets;
      const t1 = await page('T1');
      // T1's station 2 printed two tickets and voided a third; T2's station 1 took the first in.
      assert.deepEqual(
        t1.issued.map((x) => [x.last4, x.station, x.amount, x.state]).sort(),
        [
          [tickets[0]!.slice(-4), 2, 20_000, 'redeemed'],
          [tickets[1]!.slice(-4), 2, 15_000, 'printed'],
          [tickets[2]!.slice(-4), 2, 5_000, 'voided'],
        ].sort(),
      );
      assert.ok(
        t1.issued.every((x) => x.last4.length === 4 && !JSON.stringify(x).includes(tickets[0]!)),
        'never the whole number',
      );
      assert.deepEqual(t1.outstanding, [{ currency: 'MOP', tickets: 1, amount: 15_000 }]);
      assert.deepEqual(t1.redeemed, []);
      const t2 = await page('T2');
      assert.deepEqual(
        t2.redeemed.map((x) => [x.last4, x.station, x.amount, x.state, x.issuedBy]),
        [[tickets[0]!.slice(-4), 1, 20_000, 'redeemed', 'T1']],
      );
      assert.deepEqual([t2.issued, t2.outstanding], [[], []]);
    });

    it('lists the day’s voids and corrections with their articles, in the CSV as on the printable page', async () => {
      const day = await report('2026-11-25');
      // Each table voided a round under its article and corrected an exposed card under its own. At
      // T2 the void lifted a hold for a dealing error: one line, the void's, with the misread's
      // detail, never the misread again. At T1 a hold after its round was paid was lifted by a
      // "void" that voided nothing: no round voided, said so.
      assert.deepEqual(
        day.corrections.map((c) => [c.terminalId, c.type, c.kind, c.roundId, c.article]),
        [
          ['T1', 'round.void', 'void', 'T1-void', VOID_RULE],
          ['T1', 'misread', 'corrected', 'T1-r0', CORRECTION_ARTICLE],
          ['T1', 'misread', 'hold-lifted', 'T1-r0', ''],
          ['T2', 'round.void', 'error-void', 'T2-void', VOID_RULE],
          ['T2', 'misread', 'corrected', 'T2-r0', CORRECTION_ARTICLE],
        ],
      );
      assert.equal(day.corrections[3]?.detail, 'the shoe jammed; out-of-turn hold lifted by a void: the shoe jammed');
      const en = createI18n('en');
      const rows = parse(reportCsv(en, day));
      const title = rows.findIndex((r) => r[0] === 'Voids and corrections');
      assert.ok(title > 0, 'the section is in the CSV');
      assert.deepEqual(rows[title - 1], [''], 'after a blank line');
      assert.deepEqual(rows[title + 1], ['Table', 'Round', 'Time', 'What', 'Article', 'Detail']);
      assert.deepEqual(rows[title + 1], correctionsHead(en.t));
      const lines = rows.slice(title + 2, title + 2 + day.corrections.length);
      assert.deepEqual(
        lines,
        day.corrections.map((c) => correctionCsvCells(en.t, c)),
      );
      assert.deepEqual(lines[0], ['T1', 'T1-void', day.corrections[0]?.ts, 'Round voided', VOID_RULE, 'the shoe jammed']);
      assert.deepEqual(lines[1], [
        'T1',
        'T1-r0',
        day.corrections[1]?.ts,
        'Dealing error corrected',
        CORRECTION_ARTICLE,
        'exposed-card; the dealer exposed a card',
      ]);
      assert.deepEqual(lines[2]?.slice(3), ['Dealing error: hold lifted (round not voided)', '', 'out-of-turn hold lifted by a void: the shoe jammed']);
      assert.deepEqual(lines[3]?.slice(3), ['Dealing error: round voided', VOID_RULE, 'the shoe jammed; out-of-turn hold lifted by a void: the shoe jammed']);
      // The ledgers' reconciliation is untouched: the section's lines are no table's nor station's.
      assert.equal(rows.filter((r) => r[0] === 'T1' && r[1] === '').length, 1);
      const lifted = {
        en: 'Dealing error: hold lifted (round not voided)',
        pt: 'Erro de distribuição: espera levantada (jogada não anulada)',
        'zh-Hant': '派牌錯誤：解除暫停，牌局未作廢',
        'zh-Hans': '派牌错误：解除暂停，牌局未作废',
      } as const;
      for (const [language, word] of Object.entries(lifted)) {
        const w = words(language === 'en' || language === 'pt' || language === 'zh-Hans' ? language : 'zh-Hant');
        assert.equal(correctionPageCells(w, day.corrections[2]!)[3], word, language);
      }
      // The printable page: the same article and words, its time in Macau's, in each language.
      const says = { en: 'Round voided', pt: 'Jogada anulada', 'zh-Hant': '牌局作廢', 'zh-Hans': '牌局作废' } as const;
      for (const [language, word] of Object.entries(says)) {
        const w = words(language === 'en' || language === 'pt' || language === 'zh-Hans' ? language : 'zh-Hant');
        const c = day.corrections[0]!;
        assert.deepEqual(correctionPageCells(w, c), ['T1', 'T1-void', w.time(c.ts), word, VOID_RULE, 'the shoe jammed'], language);
        assert.ok(
          correctionsHead(w.t).every((x) => x.length > 0 && !x.startsWith('backoffice.')),
          language,
        );
      }
      // A day with none has the section all the same, its title and header and no line: none were made.
      const none = parse(reportCsv(en, { ...day, corrections: [] }));
      const at = none.findIndex((r) => r[0] === 'Voids and corrections');
      assert.ok(at > 0);
      assert.deepEqual(none.slice(at + 1, at + 3), [correctionsHead(en.t), ['']], 'the header, then the blank line before the liability');
    });

    it('writes its header in each language, and a viewer may not read it', async () => {
      const day = await report('2026-11-25');
      assert.match(reportCsv(createI18n('zh-Hant'), day), /^\ufeff博彩桌,投注機,貨幣,收鈔金額/);
      assert.match(reportCsv(createI18n('pt'), day), /^\ufeffMesa de jogo,Posto,Moeda,Drop \(notas\)/);
      const viewer = (await signInHttp(up.url, 'eye', PASSWORD)).cookie;
      assert.equal((await fetch(`${up.url}/backoffice/api/reports/gaming-day?date=2026-11-25`, { headers: { cookie: viewer } })).status, 403);
      const audited = await db.query<{ n: number }>("SELECT COUNT(*)::int AS n FROM audit_log WHERE action = 'report.read' AND actor = 'cash'");
      assert.ok((audited.rows[0]?.n ?? 0) >= 3);
    });
  });
}
