// Where a table's change of currency takes effect in its journal. The heartbeat that reports it
// was built at one moment (the table's head, and how many entries it had yet to send) and is
// processed at another, after batches that may have landed in between: the change was put at the
// upstream's head at processing plus the table's lag at building, so entries journalled in the new
// currency after the heartbeat was built were labelled in the old one (a second review). The
// table's own head when it built the heartbeat says where the entries before it end.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backofficeKit, signIn } from './backoffice-kit.js';
import { lyingTable, type LyingEntry } from './lying-journal-kit.js';

const TS = '2026-11-25T02:00:00.000Z';
const note = (currency: string): LyingEntry => ({
  type: 'bill.credit',
  ts: TS,
  payload: { station: 1, amount: 100, currency },
  meters: [['table', 'totalBillsIn', 100]],
});

describe("a table's change of currency, reported by a heartbeat built before the last batch landed", () => {
  it('takes effect after the table’s own head when it built the heartbeat', async () => {
    const kit = await backofficeKit();
    try {
      const t = await lyingTable(kit.app, kit.db, 'T1');
      assert.equal((await t.send(Array.from({ length: 10 }, () => note('MOP')))).statusCode, 200);
      assert.equal((await t.heartbeat({ currency: { code: 'MOP', exponent: 2 }, sync: { lagEntries: 0 }, ledger: { head: 10 } })).statusCode, 200);
      // Entries 11–15 in patacas, a restart in Hong Kong dollars, the heartbeat built (head 15, 5 unsent),
      // entries 16–20 in Hong Kong dollars; the batch of 11–20 lands before the heartbeat is processed.
      assert.equal((await t.send([...Array.from({ length: 5 }, () => note('MOP')), ...Array.from({ length: 5 }, () => note('HKD'))])).statusCode, 200);
      assert.equal((await t.heartbeat({ currency: { code: 'HKD', exponent: 2 }, sync: { lagEntries: 5 }, ledger: { head: 15 } })).statusCode, 200);
      const spans = await kit.db.query<{ from_seq: string; code: string }>(
        `SELECT from_seq::text, code FROM currency_spans WHERE terminal_id = 'T1' ORDER BY from_seq`,
      );
      assert.deepEqual(
        spans.rows.map((r) => [Number(r.from_seq), r.code]),
        [
          [1, 'MOP'],
          [16, 'HKD'],
        ],
      );
      // 16–20 were never read against the patacas: no mismatch to alarm. (The currencies' alarms only: the
      // entries are dated 25 November by this test, and came after a heartbeat of today saying nothing
      // was unsent, so they are misdated too: upstream/ingest/misdated.ts.)
      const alarms = await kit.db.query<{ kind: string }>(`SELECT kind FROM alarms WHERE terminal_id = 'T1' AND kind LIKE 'currency-%' ORDER BY id`);
      assert.deepEqual(
        alarms.rows.map((a) => a.kind),
        ['currency-changed'],
      );
      const who = await signIn(kit.app, 'accounting');
      const r = await kit.app.inject({ method: 'GET', url: '/backoffice/api/reports/gaming-day?date=2026-11-25', headers: { cookie: who.cookie } });
      const lines = (r.json() as { lines: { scope: string; currency: { code: string } | null; drop: number }[] }).lines.filter((l) => l.scope === 'table');
      assert.deepEqual(lines.map((l) => [l.currency?.code, l.drop]).sort(), [
        ['HKD', 500],
        ['MOP', 1500],
      ]);
    } finally {
      await kit.close();
    }
  });
});
