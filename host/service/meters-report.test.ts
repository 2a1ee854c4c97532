import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createI18n } from '../../locales/i18n.js';
import { catalogueOf, catalogues } from '../../locales/index.js';
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
    const i18n = createI18n('en');
    const zh = metersReport(
      { language: 'zh-Hant', currency: 'MOP', tableId: 'T<1>', terminal: 'T1', at: '2026-01-01T00:00:00.000Z', headSeq: 42, scopes },
      i18n,
    );
    assert.match(zh, /<html lang="zh-Hant-MO">/);
    assert.ok(zh.includes(catalogueOf('zh-Hant').service.meter.creditsWagered));
    assert.ok(zh.includes('Coin in (credits wagered)'), 'the GLI name beside it');
    const money = new Intl.NumberFormat('zh-Hant-MO', { style: 'currency', currency: 'MOP', minimumFractionDigits: 2 }).format(12_345);
    assert.ok(zh.includes(money), money);
    assert.ok(!zh.includes('1234500'), 'no minor units on the report');
    // A note's meter names the note in money from its minor units, in the report's language, whatever the instance's own.
    assert.ok(
      zh.includes(`收鈔 ${new Intl.NumberFormat('zh-Hant-MO', { style: 'currency', currency: 'MOP', minimumFractionDigits: 2 }).format(500)}`),
      'note in money',
    );
    assert.ok(zh.includes('Bills in: 500.00'), 'the GLI name with the note in major units');
    assert.match(zh, /<title>計數器報告 · 博彩桌 T&lt;1&gt;<\/title>/);
    assert.ok(zh.includes('T&lt;1&gt;') && !zh.includes('T<1>'));
    assert.ok(zh.includes(catalogueOf('zh-Hant').service.report.none), 'a station with nothing counted says so');
    assert.ok(!/<script/i.test(zh));
    const pt = metersReport({ language: 'pt', currency: 'MOP', tableId: 'T', terminal: 'T', at: 'x', headSeq: 1, scopes }, i18n);
    assert.ok(pt.includes('Créditos apostados'));
  });

  it('every meter of the catalogue has a name in every language', () => {
    for (const [lang, catalogue] of Object.entries(catalogues)) {
      const names: Record<string, string> = catalogue.service.meter;
      for (const m of METER_NAMES) assert.ok(names[m], `${lang} ${m}`);
    }
  });
});
