import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { catalogues } from '../../locales/index.js';
import { METER_NAMES } from '../../protocol/index.js';
import { metersReport } from './meters-report.js';

const scopes = [
  {
    scope: 'table',
    meters: [
      { name: 'billsIn.50000', unit: 'count' as const, value: 2 },
      { name: 'creditsWagered', unit: 'money' as const, value: 1_234_500 },
    ],
  },
  { scope: 'station:7', meters: [] },
];

describe('printable meters report', () => {
  it('words every meter in the language with its GLI name, money in the currency, and escapes what it shows', () => {
    const zh = metersReport({ language: 'zh-Hant', currency: 'MOP', tableId: 'T<1>', terminal: 'T1', at: '2026-01-01T00:00:00.000Z', headSeq: 42, scopes });
    assert.match(zh, /<html lang="zh-Hant-MO">/);
    assert.ok(zh.includes(catalogues['zh-Hant'].service.meter.creditsWagered));
    assert.ok(zh.includes('Coin in (credits wagered)'), 'the GLI name beside it');
    const money = new Intl.NumberFormat('zh-Hant-MO', { style: 'currency', currency: 'MOP', minimumFractionDigits: 2 }).format(12_345);
    assert.ok(zh.includes(money), money);
    assert.ok(!zh.includes('1234500'), 'no minor units on the report');
    assert.ok(zh.includes('T&lt;1&gt;') && !zh.includes('T<1>'));
    assert.ok(zh.includes(catalogues['zh-Hant'].service.report.none), 'a station with nothing counted says so');
    assert.ok(!/<script/i.test(zh));
    const pt = metersReport({ language: 'pt', currency: 'MOP', tableId: 'T', terminal: 'T', at: 'x', headSeq: 1, scopes });
    assert.ok(pt.includes('Créditos apostados'));
  });

  it('every meter of the catalogue has a name in every language', () => {
    for (const lang of ['zh-Hant', 'pt', 'en'] as const) {
      const names = catalogues[lang].service.meter as Record<string, string>;
      for (const m of METER_NAMES) assert.ok(names[m], `${lang} ${m}`);
    }
  });
});
