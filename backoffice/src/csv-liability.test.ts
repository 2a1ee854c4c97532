import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { reportCsv } from './csv.js';
import { words } from './i18n.js';
import type { GamingDayReport } from './report-model.js';

// The gaming day's CSV ends with the floor's outstanding ticket liability, one line per currency
// the validation authority's register holds. A ticket's currency is the issuing table's word (any
// ISO 4217 code), and a currency other than the pataca and the Hong Kong dollar was written as its
// bare minor units: 1.234 Kuwaiti dinars as "1234" (right for the yen only because it has none).
// Each is the exact decimal of its own currency's major unit, by ISO 4217's exponent as Intl has
// it, like the pataca's.
describe('the liability lines of the gaming-day CSV', () => {
  const report: GamingDayReport = {
    date: '2026-11-25',
    from: '2026-11-24T22:00:00.000Z',
    to: '2026-11-25T22:00:00.000Z',
    startHour: 6,
    lines: [],
    theoretical: [],
    corrections: [],
    correctionsCut: [],
    liability: {
      asOf: '2026-11-25T22:00:00.000Z',
      currencies: [
        { currency: 'MOP', tickets: 3, amount: 40_005 },
        { currency: 'JPY', tickets: 1, amount: 1234 },
        { currency: 'KWD', tickets: 2, amount: 1234 },
      ],
    },
    sync: { readAt: '2026-11-26T00:00:00.000Z', dayOver: true, complete: true, changedAfterComplete: false, outOfRange: [], tables: [] },
  };

  it("writes each currency's amount in its own major unit", () => {
    const w = words('en');
    const lines = reportCsv(w, report).split('\r\n');
    const of = (code: string) => lines.find((l) => l.split(',')[2] === code)?.split(',');
    assert.equal(of('MOP')?.[4], '400.05');
    assert.equal(of('JPY')?.[4], '1234');
    assert.equal(of('KWD')?.[4], '1.234');
  });
});
