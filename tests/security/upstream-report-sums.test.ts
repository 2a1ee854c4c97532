// The report's sums past 2^53. Ingest holds each transfer's amount to a safe integer, not their sum,
// and the report added a table's transfers one entry at a time in JavaScript: out 2^53 − 1 twice
// and 1, then both reversed, made transfers out 0 where the journal says 1 (2^54 − 1 is no double),
// a figure within the day's bound, shown as if exact, and the table not named. A figure the report cannot hold exactly must
// leave the table out and name it (DAY_FIGURE_BOUND), never be shown wrong.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GamingDayReport } from '../../backoffice/src/report-model.js';
import { kitOfSuite } from './backoffice-kit.js';
import { lyingTable, type LyingEntry } from './lying-journal-kit.js';

const DAY = '2026-11-26';
const TS = '2026-11-26T02:00:00.000Z'; // 10:00 in Macau, inside the gaming day from 06:00
const huge = Number.MAX_SAFE_INTEGER;
const transfer = (type: string, amount: number): LyingEntry => ({ type, ts: TS, payload: { transfer: { station: 1, amount } } });

describe("a table's transfers summed past 2^53", () => {
  const suite = kitOfSuite('accounting');

  it('out 2^53 − 1 twice and 1, both reversed: the table is named and left out, never shown with a figure its sum could not hold', async () => {
    const { kit, who } = suite;
    const honest = await lyingTable(kit.app, kit.db, 'TS1');
    assert.equal((await honest.send([transfer('transfer.out', 500), transfer('transfer.reverse', 200)])).statusCode, 200);
    const liar = await lyingTable(kit.app, kit.db, 'TS9');
    const sent = await liar.send([
      transfer('transfer.out', huge),
      transfer('transfer.out', huge),
      transfer('transfer.out', 1),
      transfer('transfer.reverse', huge),
      transfer('transfer.reverse', huge),
    ]);
    assert.equal(sent.statusCode, 200, 'each amount is one a ledger may write');
    const r = await kit.app.inject({ method: 'GET', url: `/backoffice/api/reports/gaming-day?date=${DAY}`, headers: { cookie: who.cookie } });
    assert.equal(r.statusCode, 200, r.body.slice(0, 300));
    const page = GamingDayReport.parse(r.json());
    assert.deepEqual(
      page.lines.filter((l) => l.terminalId === 'TS9').map((l) => [l.scope, l.transfersOut]),
      [],
      'no line of the liar, and none with a figure the sum could not hold',
    );
    assert.ok(page.sync.outOfRange.includes('TS9'), JSON.stringify(page.sync.outOfRange));
    assert.deepEqual(
      page.lines.filter((l) => l.terminalId === 'TS1').map((l) => [l.scope, l.transfersOut]),
      [
        ['table', 300],
        ['station:1', 300],
      ],
    );
    assert.ok(!page.sync.outOfRange.includes('TS1'));
  });
});
