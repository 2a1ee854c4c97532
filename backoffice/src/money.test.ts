import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatTableMoney, formatTicketMoney, moneyOfCode } from './money.js';

// A table's page lists its tickets from the validation authority's register, each in the currency
// it was issued in. One in another currency than the table's (a table that changed currency, or a
// ticket of another table redeemed here) was written with the table's decimals: 1,234 yen as
// ¥12.34, 1.234 Kuwaiti dinars as KWD 12.34. Each is in its own currency's minor units, as ISO 4217
// has them (Intl), as the gaming-day report writes the liability.
describe("a ticket's amount on its table's page", () => {
  const mop = { code: 'MOP', exponent: 2 };

  it("is written in its own currency's minor units, not the table's", () => {
    assert.equal(formatTicketMoney(1234, 'JPY', mop, 'en'), formatTableMoney(1234, { code: 'JPY', exponent: 0 }, 'en'));
    assert.match(formatTicketMoney(1234, 'JPY', mop, 'en'), /1,234/);
    assert.equal(formatTicketMoney(1234, 'KWD', mop, 'en'), formatTableMoney(1234, { code: 'KWD', exponent: 3 }, 'en'));
    assert.match(formatTicketMoney(1234, 'KWD', mop, 'en'), /1\.234/);
    assert.equal(formatTicketMoney(1234, 'HKD', mop, 'zh-Hant'), formatTableMoney(1234, { code: 'HKD', exponent: 2 }, 'zh-Hant'));
  });

  it("is in its currency on the page of a table that never named one, and the table's own as the table's", () => {
    assert.equal(formatTicketMoney(1234, 'MOP', null, 'en'), formatTableMoney(1234, mop, 'en'));
    assert.equal(formatTicketMoney(1234, 'MOP', mop, 'pt'), formatTableMoney(1234, mop, 'pt'));
  });
});

// The report's liability line on the page (report-page.ts) writes each currency so: one other than
// MOP and HKD was its bare minor units ("1234" for 1.234 dinars) until a review of 6 December.
describe('a currency named by its code alone', () => {
  it("takes ISO 4217's exponent from Intl, and is written in its major unit as the pataca is", () => {
    assert.deepEqual(
      ['MOP', 'HKD', 'JPY', 'KWD'].map((c) => moneyOfCode(c)?.exponent),
      [2, 2, 0, 3],
    );
    assert.match(formatTableMoney(1234, moneyOfCode('KWD'), 'en'), /1\.234/);
    assert.equal(moneyOfCode('mop'), null);
    assert.equal(formatTableMoney(1234, moneyOfCode('m0p'), 'en'), '¤1,234');
  });
});
