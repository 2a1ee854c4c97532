// A table whose credentials leaked writes its figures as `5000.0` where a ledger writes `5000`.
// JSON.parse reads both as the integer 5000, so the ingest takes the entry and adds 5000 to the
// table's meters (its page, /metrics); but jsonb keeps a number's digits as written, and the gaming
// day's report and plots read a figure only when its text was digits alone: every figure so written
// counted for nothing there. The table's drop, wagers, transfers and hand pays were left out of the
// day's report while its meters held them, and the report no longer reconciled with the meters.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { kitOfSuite, type BackofficeKit } from './backoffice-kit.js';
import { lyingTable, type LyingEntry } from './lying-journal-kit.js';
import { GamingDayReport, Plots } from '../../backoffice/src/report-model.js';

const DAY = '2026-11-26';
const TS = '2026-11-26T02:00:00.000Z'; // 10:00 in Macau, inside the gaming day from 06:00

/** A day of one station's play, as a ledger writes it (its figures are what matters here). */
const DAY_OF_PLAY: LyingEntry[] = [
  {
    type: 'bill.credit',
    ts: TS,
    payload: { station: 1, amount: 5000, currency: 'MOP' },
    meters: [
      ['table', 'totalBillsIn', 5000],
      ['station:1', 'totalBillsIn', 5000],
      ['station:1', 'billsIn.5000', 1],
    ],
  },
  {
    type: 'bet.place',
    ts: TS,
    payload: { roundId: 'R1', station: 1, bets: [{ bet: 'player', seat: 1, amount: 1000 }] },
    meters: [
      ['table', 'creditsWagered', 1000],
      ['station:1', 'creditsWagered', 1000],
    ],
  },
  {
    type: 'round.settle',
    ts: TS,
    payload: { roundId: 'R1', game: 'baccarat', profile: 'macau-commission', lines: [{ bet: 'player', station: 1, net: 1000 }] },
    meters: [
      ['table', 'creditsWon', 2000],
      ['station:1', 'creditsWon', 2000],
    ],
  },
  { type: 'transfer.out', ts: TS, payload: { transfer: { station: 2, amount: 300 } } },
  { type: 'handpay.request', ts: TS, payload: { station: 1, amount: 700, reason: 'win-limit' } },
];

/** Every integer of the body written with a fraction of zeros: `5000` as `5000.0` (the seq too: JSON.parse reads it as the same). */
const withFractions = (body: string): string => body.replace(/([:,[])(-?\d+)(?=[,\]}])/g, '$1$2.0');

async function get(kit: BackofficeKit, cookie: string, url: string): Promise<unknown> {
  const r = await kit.app.inject({ method: 'GET', url, headers: { cookie } });
  assert.equal(r.statusCode, 200, r.body.slice(0, 300));
  return r.json();
}

/** A table's figures in a report or plots answer, its name taken out, so that two tables' compare. */
const figuresOf = <T extends { terminalId: string }>(rows: readonly T[], terminal: string) =>
  rows.filter((l) => l.terminalId === terminal).map(({ terminalId: _t, ...rest }) => rest);

describe('a journal whose integers are written with a fraction of zeros', () => {
  const suite = kitOfSuite('accounting');

  it("counts them in the day's report and plots as the ingest took them into the meters", async () => {
    const { kit, who } = suite;
    const honest = await lyingTable(kit.app, kit.db, 'T1');
    assert.equal((await honest.send(DAY_OF_PLAY)).statusCode, 200);
    const liar = await lyingTable(kit.app, kit.db, 'T9');
    const sent = await liar.send(DAY_OF_PLAY.map((e) => ({ ...e, text: withFractions })));
    // Taken, as JSON.parse reads it: the same integers.
    assert.equal(sent.statusCode, 200, sent.body);
    const stored = await kit.db.query<{ body: string }>(`SELECT body FROM journal WHERE terminal_id = 'T9' AND seq = 1`);
    assert.match(stored.rows[0]?.body ?? '', /"totalBillsIn",5000\.0\]/);

    // The table's meters, one group per currency (migration 20): this table named none, one group.
    // The drop as the upstream's meters hold it (the table's page answers only the meters it shows).
    const held = await kit.db.query<{ value: number }>(`SELECT value FROM meters WHERE terminal_id = 'T9' AND scope = 'table' AND name = 'totalBillsIn'`);
    assert.equal(held.rows.length, 1);
    const meters = { table: { totalBillsIn: Number(held.rows[0]?.value) } };
    assert.equal(meters.table.totalBillsIn, 5000, "the upstream's meters hold the drop");

    const report = GamingDayReport.parse(await get(kit, who.cookie, `/backoffice/api/reports/gaming-day?date=${DAY}`));
    const t9 = report.lines.find((l) => l.terminalId === 'T9' && l.scope === 'table');
    assert.equal(t9?.drop, meters.table.totalBillsIn, "the day's drop is the meters' (before: 0)");
    assert.deepEqual(figuresOf(report.lines, 'T9'), figuresOf(report.lines, 'T1'), 'every line as the honest table’s');
    assert.equal(figuresOf(report.theoretical, 'T1').length, 1, 'the honest table bet on the player');
    assert.deepEqual(figuresOf(report.theoretical, 'T9'), figuresOf(report.theoretical, 'T1'), 'hold against theoretical as the honest table’s');
    assert.equal(t9?.transfersOut, 300);
    assert.equal(t9?.handpaidWins, 700);

    const plots = Plots.parse(await get(kit, who.cookie, `/backoffice/api/reports/plots?date=${DAY}`));
    // Money hour by hour (the sync lag is each table's own).
    const money = (t: string) => figuresOf(plots.tables, t).map(({ lagMax: _lag, ...rest }) => rest);
    assert.deepEqual(money('T9'), money('T1'), 'the plots as the honest table’s');
  });
});
