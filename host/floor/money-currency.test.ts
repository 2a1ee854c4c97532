// A credit cancelled, a handpay paid and stakes placed journalled no currency: after a change of
// the table's currency (a new configuration file, a restart) nothing said which one they were in,
// and the event log said them in the new one. Each now names the table's currency as journalled.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { credit, submitted, testTable, type TestTable } from '../testing/table-kit.js';

const cmd = (t: TestTable, station: number, command: Parameters<TestTable['hub']['commands']['submit']>[2]) =>
  submitted(t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), command));

/** The `currency` of each entry of `type`, in journal order. */
function currenciesOf(t: TestTable, type: string): unknown[] {
  const all = Array.from({ length: t.ledger.headOf().seq }, (_, i) => t.ledger.entry(i + 1)).filter((e) => e !== undefined);
  return all.filter((e) => e.type === type).map((e) => (JSON.parse(e.body) as { payload: { currency?: unknown } }).payload.currency);
}

describe("the entries that move the table's money name its currency", () => {
  it('a credit cancelled, its handpay paid and stakes placed name the configured currency', () => {
    const t = testTable({ config: { currency: 'HKD' } });
    try {
      credit(t.ledger, 1, 30_000);
      credit(t.ledger, 2, 30_000);
      assert.equal(cmd(t, 2, { name: 'place-bet', spot: { bet: 'main' }, amount: 10_000 }).ok, true);
      t.clock.runOut(t.table.reads.view().endsAt);
      assert.equal(cmd(t, 1, { name: 'cash-out' }).ok, true);
      const [p] = t.floor.handpays.pending();
      assert.ok(p);
      assert.equal(t.floor.handpays.confirm(p.requestTxId, 'att-3').ok, true);
      assert.deepEqual(currenciesOf(t, 'bet.place'), ['HKD']);
      assert.deepEqual(currenciesOf(t, 'credit.cancel'), ['HKD']);
      assert.deepEqual(currenciesOf(t, 'handpay.confirm'), ['HKD']);
    } finally {
      t.close();
    }
  });

  it("a handpay asked for in one currency and paid after a change names the request's, not the table's now", () => {
    const t = testTable({ config: { currency: 'MOP' } });
    try {
      // A cash-out journalled by a run in HKD, left pending over the restart that changed the currency.
      credit(t.ledger, 1, 5_000);
      t.ledger.append({ type: 'credit.cancel', txId: 'old-cancel', payload: { station: 1, amount: 5_000, reason: 'cash-out by handpay', currency: 'HKD' } });
      const [p] = t.floor.handpays.pending();
      assert.ok(p);
      assert.equal(t.floor.handpays.confirm(p.requestTxId, 'att-3').ok, true);
      assert.deepEqual(currenciesOf(t, 'handpay.confirm'), ['HKD']);
    } finally {
      t.close();
    }
  });
});
