// A table's meters after its currency changed. The upstream's meters projection was one sum per
// table, scope and name over the whole journal: a table that took 5,000 in Hong Kong dollars and
// then 700 in patacas showed «totalIn MOP 57.00» on its page, in /v1/terminals/:id/meters and in
// the floor's /metrics, adding HKD to MOP. Migration 20 keeps the projection per currency (the one
// in force at each entry's seq, currency_spans), and moves the entries a change dates before their
// ingest (a batch landed between the table's heartbeat and its processing) to the new currency.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TableDetail } from '../../backoffice/src/api.js';
import { meters, terminalFigures } from '../../upstream/queries.js';
import { METER_COUNTERS } from '../../upstream/metrics.js';
import { backofficeKit, signIn, type BackofficeKit } from './backoffice-kit.js';
import { lyingTable } from './lying-journal-kit.js';
import { DATABASES } from '../sync/upstream-databases.js';

const HKD = { code: 'HKD', exponent: 2 };
const MOP = { code: 'MOP', exponent: 2 };
const note = (amount: number) => ({
  type: 'bill.credit',
  ts: new Date().toISOString(),
  payload: {},
  meters: [
    ['table', 'totalIn', amount],
    ['station:1', 'totalIn', amount],
  ],
});

for (const database of DATABASES) {
  describe(`a table's meters across a change of currency (${database})`, () => {
    let kit: BackofficeKit;
    before(async () => {
      kit = await backofficeKit({ database });
    });
    after(() => kit.close());

    const page = async (id: string) => {
      const { cookie } = await signIn(kit.app, 'viewer');
      const r = await kit.app.inject({ method: 'GET', url: `/backoffice/api/tables/${id}`, headers: { cookie } });
      assert.equal(r.statusCode, 200, r.body);
      return TableDetail.parse(r.json());
    };
    const byCurrency = (groups: { currency: { code: string } | null; meters: Record<string, number> }[]) =>
      groups.map((g) => [g.currency?.code ?? null, g.meters.totalIn ?? 0]);

    it('are kept and shown per currency: HKD never added to MOP', async () => {
      const t = await lyingTable(kit.app, kit.db, 'M1');
      assert.equal((await t.heartbeat({ currency: HKD })).statusCode, 200);
      assert.equal((await t.send([note(5_000)])).statusCode, 200);
      assert.equal((await t.heartbeat({ currency: MOP })).statusCode, 200);
      assert.equal((await t.send([note(700)])).statusCode, 200);
      const d = await page('M1');
      const want = [
        ['HKD', 5_000],
        ['MOP', 700],
      ];
      assert.deepEqual(byCurrency(d.table), want);
      assert.deepEqual(byCurrency(d.stations.find((s) => s.station === 1)?.meters ?? []), want);
      const api = await meters(kit.db, 'M1', 'table');
      assert.deepEqual(
        api.map((m) => [m.currency?.code ?? null, m.name, Number(m.value)]),
        [
          ['HKD', 'totalIn', 5_000],
          ['MOP', 'totalIn', 700],
        ],
      );
      const figures = (
        await terminalFigures(
          kit.db,
          METER_COUNTERS.map((c) => c.meter),
        )
      ).find((f) => f.terminalId === 'M1');
      assert.deepEqual(
        figures?.meters.map((g) => [g.currency?.code ?? null, g.values.totalIn]),
        [
          ['HKD', 5_000],
          ['MOP', 700],
        ],
      );
    });

    it('an entry ingested before the heartbeat that dates a change before it moves to the new currency', async () => {
      const t = await lyingTable(kit.app, kit.db, 'M2');
      assert.equal((await t.heartbeat({ currency: HKD })).statusCode, 200);
      assert.equal((await t.send([note(5_000)])).statusCode, 200);
      // Entry 2 is journalled in MOP; its batch lands before the heartbeat built at head 1 that says so.
      assert.equal((await t.send([note(700)])).statusCode, 200);
      assert.equal((await t.heartbeat({ currency: MOP, ledger: { head: 1 } })).statusCode, 200);
      assert.equal((await t.send([note(30)])).statusCode, 200);
      const d = await page('M2');
      assert.deepEqual(byCurrency(d.table), [
        ['HKD', 5_000],
        ['MOP', 730],
      ]);
    });

    it('a table that names its first currency after journalling has its meters in it, none left apart', async () => {
      const t = await lyingTable(kit.app, kit.db, 'M3');
      assert.equal((await t.send([note(400)])).statusCode, 200);
      assert.deepEqual(byCurrency((await page('M3')).table), [[null, 400]]);
      assert.equal((await t.heartbeat({ currency: MOP })).statusCode, 200);
      assert.deepEqual(byCurrency((await page('M3')).table), [['MOP', 400]]);
    });
  });
}
