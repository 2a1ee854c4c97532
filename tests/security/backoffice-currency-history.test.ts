// A table that changes currency within a gaming day: each of the day's figures stays in the
// currency the table held when it journalled it. The reports labelled every line with the table's
// currency of now (its last heartbeat's): T3 took 1,000.00 HKD, switched to patacas and took
// 500.00 MOP in the same gaming day, and the day then read "T3, MOP 1,500.00", the Hong Kong
// dollars added to the patacas and the day's earlier figures relabelled. The upstream now keeps
// each table's currency by journal seq (migration 13) and reads every entry in the currency in
// force at its seq: one line per table, scope and currency, each totalled in its own currency. On
// the embedded PGlite and on a PostgreSQL cluster of its own, with the same assertions.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { reportCsv } from '../../backoffice/src/csv.js';
import { GamingDayReport, Plots, totalsByCurrency } from '../../backoffice/src/report-model.js';
import { createI18n } from '../../locales/i18n.js';
import { backofficeKit, signIn, type BackofficeKit } from './backoffice-kit.js';
import { lyingTable, type LyingEntry, type LyingTable } from './lying-journal-kit.js';
import { DATABASES } from '../sync/upstream-databases.js';

const HKD = { code: 'HKD', exponent: 2 };
const MOP = { code: 'MOP', exponent: 2 };
const DAY = '2026-11-25'; // from 06:00 in Macau on the 25th (22:00 UTC on the 24th) to 06:00 on the 26th

/** Notes credited at station 1: the table's and the station's drop. */
const notes = (ts: string, amount: number, currency: string): LyingEntry => ({
  type: 'bill.credit',
  ts,
  payload: { station: 1, amount, currency },
  meters: [
    ['table', 'totalBillsIn', amount],
    ['station:1', 'totalBillsIn', amount],
  ],
});

/** A baccarat round at station 1: `amount` on the banker, which loses. */
const round = (ts: string, id: string, amount: number): LyingEntry[] => [
  { type: 'bet.place', ts, payload: { roundId: id, station: 1, bets: [{ bet: 'banker', amount }] } },
  { type: 'round.settle', ts, payload: { roundId: id, game: 'baccarat', profile: 'macau-commission', lines: [{ station: 1, bet: 'banker', net: -amount }] } },
];

async function sent(t: LyingTable, entries: LyingEntry[]): Promise<void> {
  const r = await t.send(entries);
  assert.equal(r.statusCode, 200, r.body);
}

async function heartbeat(t: LyingTable, health: Record<string, unknown>): Promise<void> {
  const r = await t.heartbeat(health);
  assert.equal(r.statusCode, 200, r.body);
}

async function read<T>(kit: BackofficeKit, cookie: string, url: string, schema: { parse(v: unknown): T }): Promise<T> {
  const r = await kit.app.inject({ method: 'GET', url, headers: { cookie } });
  assert.equal(r.statusCode, 200, r.body);
  return schema.parse(r.json());
}

const report = (kit: BackofficeKit, cookie: string, date = DAY) => read(kit, cookie, `/backoffice/api/reports/gaming-day?date=${date}`, GamingDayReport);

/** A terminal's lines of one scope: [currency, drop]. */
const drops = (r: GamingDayReport, terminal: string, scope: string) =>
  r.lines.filter((l) => l.terminalId === terminal && l.scope === scope).map((l) => [l.currency?.code ?? null, l.drop]);

for (const kind of DATABASES) {
  describe(`back office: a table that changes currency within a gaming day (${kind})`, () => {
    let kit: BackofficeKit;
    before(async () => {
      kit = await backofficeKit({ database: kind });
    });
    after(() => kit?.close());

    it('keeps each figure in the currency of its entry: one line per currency, totalled apart, never relabelled', async () => {
      const t3 = await lyingTable(kit.app, kit.db, 'T3');
      await heartbeat(t3, { currency: HKD });
      await sent(t3, [notes('2026-11-25T02:00:00.000Z', 100_000, 'HKD'), ...round('2026-11-25T02:30:00.000Z', 'R1', 10_000)]);
      const { cookie } = await signIn(kit.app, 'accounting');

      const whileHkd = await report(kit, cookie);
      assert.deepEqual(drops(whileHkd, 'T3', 'table'), [['HKD', 100_000]]);
      assert.deepEqual(drops(whileHkd, 'T3', 'station:1'), [['HKD', 100_000]]);

      // Reconfigured to patacas (the upstream raises currency-changed), then 500.00 MOP at 04:00 in
      // Macau on the 26th: still the gaming day of the 25th.
      await heartbeat(t3, { currency: MOP });
      await sent(t3, [notes('2026-11-25T20:00:00.000Z', 50_000, 'MOP'), ...round('2026-11-25T20:30:00.000Z', 'R2', 20_000)]);
      const switched = await report(kit, cookie);
      assert.deepEqual(drops(switched, 'T3', 'table'), [
        ['HKD', 100_000],
        ['MOP', 50_000],
      ]);
      assert.deepEqual(drops(switched, 'T3', 'station:1'), [
        ['HKD', 100_000],
        ['MOP', 50_000],
      ]);
      for (const l of switched.lines) assert.equal(l.currency?.exponent, 2, `${l.terminalId} ${l.scope}`);
      // The page's totals: one per currency, each its own figures only.
      assert.deepEqual(
        totalsByCurrency(switched.lines).map((t) => [t.currency?.code, t.drop, t.wagered, t.rounds]),
        [
          ['HKD', 100_000, 0, 0],
          ['MOP', 50_000, 0, 0],
        ],
      );
      // The CSV as the page writes it: T3's two table lines and two station lines, each in its own currency; a total per currency.
      const en = createI18n('en');
      const csv = reportCsv(en, switched).split('\r\n');
      // The lines and totals: the file's first part, up to its first blank line.
      const lines = csv.slice(0, csv.indexOf('')).map((l) => l.split(','));
      assert.deepEqual(
        lines.filter((c) => c[0] === 'T3').map((c) => c.slice(1, 4)),
        [
          ['', 'HKD', '1000.00'],
          ['', 'MOP', '500.00'],
          ['1', 'HKD', '1000.00'],
          ['1', 'MOP', '500.00'],
        ],
      );
      assert.deepEqual(
        lines.filter((c) => c[0] === en.t('backoffice.report.total')).map((c) => c.slice(2, 4)),
        [
          ['HKD', '1000.00'],
          ['MOP', '500.00'],
        ],
      );
      // Hold against theoretical: the same table, game, profile and bet, one line per currency.
      assert.deepEqual(
        switched.theoretical.map((l) => [l.terminalId, l.currency?.code, l.game, l.bet, l.rounds, l.wagered, l.actual]),
        [
          ['T3', 'HKD', 'baccarat', 'banker', 1, 10_000, 10_000],
          ['T3', 'MOP', 'baccarat', 'banker', 1, 20_000, 20_000],
        ],
      );
      // The plots: one series per table and currency, each hour's figures in their own.
      const plots = await read(kit, cookie, `/backoffice/api/reports/plots?date=${DAY}`, Plots);
      assert.deepEqual(
        plots.tables.map((s) => [s.terminalId, s.currency?.code, s.drop.reduce((a, b) => a + b, 0), s.theoretical.reduce((a, h) => a + h.initial, 0)]),
        [
          ['T3', 'HKD', 100_000, 10_000],
          ['T3', 'MOP', 50_000, 20_000],
        ],
      );
      assert.equal(plots.tables[0]?.drop[4], 100_000, '02:00 UTC is the fifth hour from 22:00');
      assert.equal(plots.tables[1]?.drop[22], 50_000);

      // Later heartbeats and the next day's patacas change nothing of the 25th.
      await heartbeat(t3, { currency: MOP });
      await sent(t3, [notes('2026-11-26T02:00:00.000Z', 7_000, 'MOP')]);
      assert.deepEqual((await report(kit, cookie)).lines, switched.lines);
      assert.deepEqual(drops(await report(kit, cookie, '2026-11-26'), 'T3', 'table'), [['MOP', 7_000]]);
    });

    it('reads the entries the table had yet to send when it changed in the currency they were journalled in', async () => {
      const t4 = await lyingTable(kit.app, kit.db, 'T4');
      await heartbeat(t4, { currency: HKD });
      await sent(t4, [notes('2026-11-25T02:00:00.000Z', 1_000, 'HKD')]);
      // The change, with two entries journalled before it and not yet sent.
      await heartbeat(t4, { currency: MOP, sync: { lagEntries: 2 } });
      await sent(t4, [notes('2026-11-25T03:00:00.000Z', 2_000, 'HKD'), notes('2026-11-25T03:10:00.000Z', 4_000, 'HKD')]);
      await sent(t4, [notes('2026-11-25T04:00:00.000Z', 8_000, 'MOP')]);
      const { cookie } = await signIn(kit.app, 'accounting');
      assert.deepEqual(drops(await report(kit, cookie), 'T4', 'table'), [
        ['HKD', 7_000],
        ['MOP', 8_000],
      ]);
      const alarms = await read(kit, cookie, '/backoffice/api/alarms', { parse: (v) => v as { kind: string; terminalId: string }[] });
      assert.deepEqual(
        alarms.filter((a) => a.terminalId === 'T4').map((a) => a.kind),
        ['currency-changed'],
      );
    });
  });
}
