// A table's page and a round's recall show amounts a table journalled: each in the currency the
// table held when it journalled it, as the reports read them (currency_spans, migration 13). The
// page read every amount in the table's currency of now: a jackpot paid in Hong Kong dollars, and
// the recall of a round played in them, were labelled patacas once the table changed currency (a
// review of 6 December). The table's page now carries its spans (`currencies`: from which seq, which
// currency), and the page reads each entry and round in the span in force at its seq.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TableDetail } from '../../backoffice/src/api.js';
import { currencyAt } from '../../backoffice/src/money.js';
import { backofficeKit, signIn, type BackofficeKit } from './backoffice-kit.js';
import { lyingTable } from './lying-journal-kit.js';

const HKD = { code: 'HKD', exponent: 2 };
const MOP = { code: 'MOP', exponent: 2 };

describe("a table's page after its currency changed", () => {
  let kit: BackofficeKit;
  before(async () => {
    kit = await backofficeKit();
  });
  after(() => kit.close());

  it('carries its currency spans, and each entry is read in the one in force at its seq', async () => {
    const t = await lyingTable(kit.app, kit.db, 'T4');
    assert.equal((await t.heartbeat({ currency: HKD })).statusCode, 200);
    const paid = (amount: number) => ({ type: 'jackpot.settle', ts: new Date().toISOString(), payload: { amount } });
    assert.equal((await t.send([paid(5_000)])).statusCode, 200);
    assert.equal((await t.heartbeat({ currency: MOP })).statusCode, 200);
    assert.equal((await t.send([paid(7_000)])).statusCode, 200);
    const { cookie } = await signIn(kit.app, 'viewer');
    const r = await kit.app.inject({ method: 'GET', url: '/backoffice/api/tables/T4', headers: { cookie } });
    assert.equal(r.statusCode, 200, r.body);
    const d = TableDetail.parse(r.json());
    assert.deepEqual(d.currency, MOP);
    assert.deepEqual(
      d.jackpots.map((e) => [e.seq, currencyAt(d, e.seq)?.code]),
      [
        [2, 'MOP'],
        [1, 'HKD'],
      ],
    );
  });

  // A station's credit is what the journal last left on it: a station that took credit in Hong
  // Kong dollars and has not moved since the table changed to patacas holds dollars. The page read
  // every credit in the table's currency of now (a second review of 6 December).
  it("carries the seq of each station's credit, which is read in the span in force there", async () => {
    const t = await lyingTable(kit.app, kit.db, 'T5');
    assert.equal((await t.heartbeat({ currency: HKD })).statusCode, 200);
    const credit = (station: number, after: number) => ({ type: 'note', ts: new Date().toISOString(), payload: {}, credits: [[station, 0, after]] });
    assert.equal((await t.send([credit(1, 5_000), credit(2, 300)])).statusCode, 200);
    assert.equal((await t.heartbeat({ currency: MOP })).statusCode, 200);
    assert.equal((await t.send([credit(2, 700)])).statusCode, 200);
    const { cookie } = await signIn(kit.app, 'viewer');
    const r = await kit.app.inject({ method: 'GET', url: '/backoffice/api/tables/T5', headers: { cookie } });
    assert.equal(r.statusCode, 200, r.body);
    const d = TableDetail.parse(r.json());
    assert.deepEqual(
      d.stations.map((s) => [s.station, s.credit, s.creditSeq, s.creditSeq === undefined ? null : currencyAt(d, s.creditSeq)?.code]),
      [
        [1, 5_000, 1, 'HKD'],
        [2, 700, 3, 'MOP'],
      ],
    );
  });
});
