// A heartbeat's currency exponent against ISO 4217's (tests/sync/backoffice-currency.test.ts sends
// the heartbeats): checked for the codes this runtime knows, taken as sent for the others.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HeartbeatCurrency, isoExponent } from './currency-exponent.js';

describe("a heartbeat's currency exponent", () => {
  it("is ISO 4217's for a code the runtime knows", () => {
    assert.deepEqual(
      ['MOP', 'HKD', 'CNY', 'JPY', 'KWD'].map((code) => isoExponent(code)),
      [2, 2, 2, 0, 3],
    );
    for (const ok of [
      { code: 'MOP', exponent: 2 },
      { code: 'JPY', exponent: 0 },
      { code: 'KWD', exponent: 3 },
    ])
      assert.equal(HeartbeatCurrency.safeParse(ok).success, true, JSON.stringify(ok));
    for (const lie of [
      { code: 'MOP', exponent: 0 },
      { code: 'HKD', exponent: 3 },
      { code: 'JPY', exponent: 2 },
    ])
      assert.equal(HeartbeatCurrency.safeParse(lie).success, false, JSON.stringify(lie));
  });

  it('is taken as sent, 0 to 4, for a code the runtime does not know', () => {
    assert.equal(isoExponent('XTS'), null);
    assert.equal(HeartbeatCurrency.safeParse({ code: 'XTS', exponent: 3 }).success, true);
    assert.equal(HeartbeatCurrency.safeParse({ code: 'XTS', exponent: 5 }).success, false);
  });
});
