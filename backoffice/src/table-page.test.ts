import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TableDetail } from './api.js';
import { words } from './i18n.js';
import { formatTableMoney } from './money.js';
import { textOf, useStubDocument } from './stub-document.js';
import { tablePage } from './table-page.js';

useStubDocument();

// A station's credit is what the journal last left on it, in the currency the table held then
// (`creditSeq`, currencyAt): a station untouched since the table went from Hong Kong dollars to
// patacas still holds dollars. The page showed every credit in the table's currency of now.
describe("a table's page after its currency changed", () => {
  const HKD = { code: 'HKD', exponent: 2 };
  const MOP = { code: 'MOP', exponent: 2 };
  const detail = TableDetail.parse({
    terminalId: 'T5',
    health: null,
    currency: MOP,
    currencies: [
      { fromSeq: 1, ...HKD },
      { fromSeq: 3, ...MOP },
    ],
    faults: [],
    table: [],
    stations: [
      { station: 1, credit: 5_000, creditSeq: 1, meters: [] },
      { station: 2, credit: 700, creditSeq: 3, meters: [] },
    ],
    rounds: [],
    jackpots: [],
    transfers: [],
    handpays: [],
    tickets: { issued: [], redeemed: [], outstanding: [] },
    alarms: [],
  });

  it("shows each station's credit in the currency of the entry that left it", () => {
    for (const l of ['en', 'zh-Hant'] as const) {
      const text = textOf(
        tablePage(
          words(l),
          detail,
          false,
          async () => {},
          () => {},
        ),
      );
      assert.ok(text.includes(formatTableMoney(5_000, HKD, l)), `${l}: ${text}`);
      assert.ok(text.includes(formatTableMoney(700, MOP, l)), `${l}: ${text}`);
      assert.ok(!text.includes(formatTableMoney(5_000, MOP, l)), `${l}: ${text}`);
    }
  });

  // A station's meters journalled in two currencies are two lines, each in its own: the page showed
  // one sum of both in the table's currency of now (MOP 57.00 for HKD 50.00 and MOP 7.00).
  it("shows a station's meters one line per currency, never their sum", () => {
    const two = TableDetail.parse({
      ...detail,
      stations: [
        {
          station: 3,
          credit: 0,
          meters: [
            { currency: HKD, meters: { totalIn: 5_000 } },
            { currency: MOP, meters: { totalIn: 700 } },
          ],
        },
      ],
    });
    for (const l of ['en', 'pt'] as const) {
      const text = textOf(
        tablePage(
          words(l),
          two,
          false,
          async () => {},
          () => {},
        ),
      );
      assert.ok(text.includes(formatTableMoney(5_000, HKD, l)), `${l}: ${text}`);
      assert.ok(text.includes(formatTableMoney(700, MOP, l)), `${l}: ${text}`);
      assert.ok(!text.includes(formatTableMoney(5_700, MOP, l)), `${l}: ${text}`);
    }
  });
});
