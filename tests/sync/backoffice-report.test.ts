// The gaming day's report reconciled with the tables' ledgers (issue 49 item 4): two kiosks'
// ledgers synced to an upstream, one entry journalled before the gaming day's start hour (Macau
// time) so it belongs to the day before; the CSV of each day, read back to integer minor units,
// adds up to the ledgers' own meters exactly, per table, per station and in the floor's total.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { reportCsv } from '../../backoffice/src/csv.js';
import { GamingDayReport } from '../../backoffice/src/report-model.js';
import { Ledger, SyncClient } from '../../ledger/index.js';
import { billCredit, settledRound } from '../../ledger/fixtures.js';
import { createI18n } from '../../locales/i18n.js';
import type { NewEntry } from '../../ledger/entries.js';
import { redeemed, ticketIssue, ticketPrinted, ticketVoided } from '../../ledger/ticket-fixtures.js';
import { validationNumber, type ValidationNumber } from '../../terms/validation-number.js';
import { gamingDayOf } from '../../upstream/backoffice/gaming-day.js';
import { HOUSE_EDGES } from '../../terms/house-edges.js';
import { enrolTerminal, migrateUpstream, openPglite, putUser, startUpstream, type Db } from '../../upstream/index.js';
import { machineIdOf, redeem } from '../../upstream/tickets.js';

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

describe('back office: the gaming day reconciles with the ledgers', () => {
  let db: Db;
  let up: Awaited<ReturnType<typeof startUpstream>>;
  const ledgers: Ledger[] = [];
  const tickets: ValidationNumber[] = [];
  let cookie = '';
  before(async () => {
    db = await openPglite();
    await migrateUpstream(db);
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
    const r = await fetch(`${up.url}/backoffice/api/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'cash', password: PASSWORD }),
    });
    cookie = (r.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  });
  after(async () => {
    ledgers.forEach((l) => l.close());
    await up.close();
    await db.close();
  });

  const report = async (date: string) =>
    GamingDayReport.parse(await (await fetch(`${up.url}/backoffice/api/reports/gaming-day?date=${date}`, { headers: { cookie } })).json());

  it("adds up, over the two gaming days, to every table's and station's meters to the avo", async () => {
    const days = [await report('2026-11-24'), await report('2026-11-25')];
    assert.equal(days[1]?.from, '2026-11-24T22:00:00.000Z', '06:00 in Macau is 22:00 UTC the day before');
    const en = createI18n('en');
    const csvs = days.map((d) => parse(reportCsv(en, d)));
    const head = csvs[0]?.[0] ?? [];
    const col = (name: string) => head.indexOf(name);
    const fields: [string, string][] = [
      ['Drop (notes)', 'totalBillsIn'],
      ['Credits in', 'totalIn'],
      ['Wagered', 'creditsWagered'],
      ['Won', 'creditsWon'],
      ['Drop (tickets)', 'ticketsInAmount'],
      ['Tickets out (value)', 'ticketsOutAmount'],
    ];
    const counts: [string, string][] = [
      ['Tickets in', 'ticketsIn'],
      ['Tickets out', 'ticketsOut'],
      ['Tickets voided', 'ticketsVoided'],
    ];
    const count = (table: string, station: string, header: string) =>
      csvs.reduce((acc, rows) => acc + rows.filter((r) => r[0] === table && r[1] === station).reduce((a, r) => a + Number(r[col(header)] ?? ''), 0), 0);
    for (const [header] of fields) assert.ok(col(header) >= 0, header);
    const sum = (table: string, station: string, header: string) =>
      csvs.reduce((acc, rows) => acc + rows.filter((r) => r[0] === table && r[1] === station).reduce((a, r) => a + minor(r[col(header)] ?? ''), 0), 0);
    for (const ledger of ledgers) {
      const id = ledger.terminalId;
      const meters = ledger.meters('table');
      for (const [header, meter] of fields) assert.equal(sum(id, '', header), meters[meter] ?? 0, `${id} ${header}`);
      assert.equal(sum(id, '', 'Win'), (meters.creditsWagered ?? 0) - (meters.creditsWon ?? 0), `${id} win`);
      assert.equal(
        csvs.reduce((a, rows) => a + Number(rows.find((r) => r[0] === id && r[1] === '')?.[col('Rounds')] ?? 0), 0),
        meters.gamesPlayed,
      );
      for (const [header, meter] of counts) assert.equal(count(id, '', header), meters[meter] ?? 0, `${id} ${header}`);
      for (const s of [1, 2, 3]) {
        const m = ledger.meters(`station:${s}`);
        for (const [header, meter] of fields) assert.equal(sum(id, String(s), header), m[meter] ?? 0, `${id} station ${s} ${header}`);
        for (const [header, meter] of counts) assert.equal(count(id, String(s), header), m[meter] ?? 0, `${id} station ${s} ${header}`);
      }
    }
    // The floor's total line: both ledgers' meters together.
    for (const [header, meter] of fields) {
      const total = csvs.reduce((a, rows) => a + minor(rows.find((r) => r[0] === 'Total')?.[col(header)] ?? '0'), 0);
      assert.equal(
        total,
        ledgers.reduce((a, l) => a + (l.meters('table')[meter] ?? 0), 0),
        `total ${header}`,
      );
    }
    // Not vacuous: the tickets moved the meters the report reads.
    assert.deepEqual(
      [ledgers[0]?.meters('station:2').ticketsOut, ledgers[0]?.meters('station:2').ticketsVoided, ledgers[1]?.meters('station:1').ticketsInAmount],
      [2, 1, 20_000],
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

  it('sets each table’s and bet’s actual win beside its theoretical win from the engine’s exact edge', async () => {
    const raw = (await (await fetch(`${up.url}/backoffice/api/reports/gaming-day?date=2026-11-25`, { headers: { cookie } })).json()) as {
      theoretical: {
        terminalId: string;
        game: string;
        profile: string;
        bet: string;
        rounds: number;
        wagered: number;
        edge: number | null;
        theoretical: number | null;
        actual: number;
        difference: number | null;
      }[];
    };
    const edge = HOUSE_EDGES.blackjack?.['macau-2009']?.main;
    assert.ok(edge !== undefined);
    for (const [i, ledger] of ledgers.entries()) {
      const id = ledger.terminalId;
      const line = raw.theoretical.find((l) => l.terminalId === id);
      assert.ok(line, id);
      assert.equal(raw.theoretical.filter((l) => l.terminalId === id).length, 1, 'one game, profile and bet at each table');
      // Six rounds of 2,500 to 5,000 avos at each of its stations (3 at T1, 4 at T2): the initial bets.
      const stations = 3 + i;
      assert.deepEqual([line.game, line.profile, line.bet, line.rounds, line.wagered], ['blackjack', 'macau-2009', 'main', 6, stations * 22_500]);
      assert.equal(line.edge, edge);
      assert.equal(line.theoretical, Math.round((stations * 22_500 * edge) / 100));
      const m = ledger.meters('table');
      assert.equal(line.actual, (m.creditsWagered ?? 0) - (m.creditsWon ?? 0), 'the actual win is the meters’ win');
      assert.equal(line.difference, line.actual - (line.theoretical ?? 0));
    }
  });

  it("states the floor's outstanding ticket liability at the day's end, and now for today", async () => {
    // The register's times are the database's: the redemption and the void happened now, after the
    // 25th ended, so at that day's end all three tickets were still owed; today only the unredeemed one is.
    const day = await report('2026-11-25');
    assert.equal(day.liability.asOf, '2026-11-25T22:00:00.000Z');
    assert.deepEqual(day.liability.currencies, [{ currency: 'MOP', tickets: 3, amount: 40_000 }]);
    const today = await report(gamingDayOf(new Date(), day.startHour));
    assert.deepEqual(today.liability.currencies, [{ currency: 'MOP', tickets: 1, amount: 15_000 }]);
    const csv = parse(reportCsv(createI18n('en'), today));
    assert.deepEqual(csv.at(-1), ['Outstanding ticket liability', today.liability.asOf, 'MOP', '1', '150.00']);
  });

  it('writes its header in each language, and a viewer may not read it', async () => {
    const day = await report('2026-11-25');
    assert.match(reportCsv(createI18n('zh-Hant'), day), /^\ufeff博彩桌,投注站,貨幣,收鈔金額/);
    assert.match(reportCsv(createI18n('pt'), day), /^\ufeffMesa de jogo,Posto,Moeda,Drop \(notas\)/);
    const r = await fetch(`${up.url}/backoffice/api/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'eye', password: PASSWORD }),
    });
    const viewer = (r.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    assert.equal((await fetch(`${up.url}/backoffice/api/reports/gaming-day?date=2026-11-25`, { headers: { cookie: viewer } })).status, 403);
    const audited = await db.query<{ n: number }>("SELECT COUNT(*)::int AS n FROM audit_log WHERE action = 'report.read' AND actor = 'cash'");
    assert.ok((audited.rows[0]?.n ?? 0) >= 3);
  });
});
