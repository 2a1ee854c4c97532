// A handpay under a request's id pays at most what that request held (`upTo`, docs/sas.md). A
// request that held nothing, less than nothing or a part of a minor unit must be refused clearly,
// with nothing journalled: never a cancel of 0 or a negative one (credit created), never a throw
// from the journal's schema surfacing at the station as an internal error.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { entryCount } from '../../ledger/index.js';
import { credit, testTable } from '../testing/table-kit.js';

describe('a handpay under a request’s id, for an amount held that pays nothing', () => {
  for (const upTo of [0, -500, 0.5, Number.NaN]) {
    it(`upTo ${upTo}: refused as a cash-out of nothing, nothing journalled, the credit left on the station`, () => {
      const t = testTable({ game: 'war' });
      credit(t.ledger, 1, 30_000);
      const before = entryCount(t.ledger, ['credit.cancel']);
      const r = t.floor.handpays.cashOut(1, 'request-1:handpay', upTo);
      assert.equal(r.ok, false);
      assert.equal(r.ok ? null : r.refusal, 'cash-out-empty');
      assert.equal(entryCount(t.ledger, ['credit.cancel']), before, 'no cancel journalled');
      assert.equal(t.ledger.credit(1), 30_000, 'the credit stays on the station');
      assert.equal(t.floor.handpays.pendingAt(1), null, 'the station is not locked');
    });
  }

  it('upTo within the credit: that amount is cancelled to the handpay, the rest stays on the station', () => {
    const t = testTable({ game: 'war' });
    credit(t.ledger, 1, 30_000);
    const r = t.floor.handpays.cashOut(1, 'request-2:handpay', 20_000);
    assert.deepEqual(r, { ok: true, requestTxId: 'request-2:handpay', amount: 20_000 });
    assert.equal(t.ledger.credit(1), 10_000);
  });
});
