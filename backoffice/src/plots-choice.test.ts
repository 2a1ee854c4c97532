import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TableMoney } from './money.js';
import { chosenTables, currencyGroups, groupLabel, seriesLabel, seriesValue } from './plots-choice.js';

// The plots' "all tables" choices (issue 49 item 5): one per currency, and a currency is its code
// and its exponent. Before, the page grouped by code alone and scaled the sum by the first table's
// exponent: a table reporting MOP with exponent 0 was added, in its own units, to tables counting
// avos, and the whole line divided by 100 or by 1.
const table = (terminalId: string, currency: TableMoney | null) => ({ terminalId, currency });
const TABLES = [
  table('T1', { code: 'MOP', exponent: 2 }),
  table('T2', { code: 'MOP', exponent: 0 }),
  table('T3', { code: 'HKD', exponent: 2 }),
  table('T4', null),
  table('T5', { code: 'MOP', exponent: 2 }),
];

describe('the plots: every table of one currency together', () => {
  it('groups by code and exponent, never by code alone', () => {
    const groups = currencyGroups(TABLES);
    assert.deepEqual(
      groups.map((g) => [g.currency, g.tables.map((s) => s.terminalId)]),
      [
        [{ code: 'HKD', exponent: 2 }, ['T3']],
        [{ code: 'MOP', exponent: 0 }, ['T2']],
        [{ code: 'MOP', exponent: 2 }, ['T1', 'T5']],
        [null, ['T4']],
      ],
    );
    assert.equal(new Set(groups.map((g) => g.value)).size, groups.length, 'each choice its own value');
    for (const g of groups) assert.deepEqual(chosenTables(TABLES, g.value), g.tables);
  });

  it("a table chosen alone is its series in one currency, whatever the table's id looks like", () => {
    // T1 changed currency within the day (a series per currency); a table is named like a choice.
    const odd = [...TABLES, table('T1', { code: 'HKD', exponent: 2 }), table('all:MOP:2', { code: 'MOP', exponent: 2 })];
    assert.deepEqual(chosenTables(odd, seriesValue(odd[0] ?? table('', null))), [odd[0]]);
    assert.deepEqual(chosenTables(odd, seriesValue(odd[5] ?? table('', null))), [odd[5]]);
    assert.deepEqual(chosenTables(odd, seriesValue(odd[6] ?? table('', null))), [odd[6]]);
    assert.equal(new Set(odd.map(seriesValue)).size, odd.length, 'each series its own value');
    assert.deepEqual(
      chosenTables(odd, currencyGroups(odd)[2]?.value ?? '').map((s) => s.terminalId),
      ['T1', 'T5', 'all:MOP:2'],
    );
  });

  it('names a group by its code, and by how it writes an amount where two groups share the code', () => {
    const groups = currencyGroups(TABLES);
    const labels = groups.map((g) => groupLabel(g, groups, 'en'));
    assert.equal(labels[0], 'HKD');
    assert.equal(labels[3], '¤');
    assert.match(labels[1] ?? '', /MOP/);
    assert.match(labels[2] ?? '', /MOP/);
    assert.notEqual(labels[1], labels[2]);
    assert.deepEqual(
      currencyGroups([TABLES[0], TABLES[4]].flatMap((s) => (s ? [s] : []))).map((g, _, all) => groupLabel(g, all, 'en')),
      ['MOP'],
    );
    // A table's own choice says its currency as its group's choice does.
    assert.deepEqual(
      TABLES.map((s) => seriesLabel(s, groups, 'en')),
      [labels[2], labels[1], labels[0], labels[3], labels[2]],
    );
  });
});
