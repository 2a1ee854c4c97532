import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createI18n } from '../../../../locales/i18n.js';
import { formatMoney } from '../../../../locales/money.js';
import { draftFields, draftValue, formatConfigValue, isEditableKey, setField, startDraft, toggleNote, typedValue } from './config-editor.js';

const table = { bets: ['main', 'anyPair'], notes: [10, 20, 50, 100, 500, 1000] };

describe('configuration editor', () => {
  it('edits the table limits field by field, in whole units, and refuses a minimum above the maximum', () => {
    let d = startDraft('limits', '{"min":10000,"max":1000000}', table);
    assert.deepEqual(
      draftFields(d).map((f) => [f.name, f.unit, f.value]),
      [
        ['min', 'money', 10_000],
        ['max', 'money', 1_000_000],
      ],
    );
    const max = draftFields(d)[1]!;
    assert.equal(typedValue(max, '20000', 100), 2_000_000, 'typed in patacas, kept in avos');
    assert.equal(typedValue(max, '20000', 1), 20_000, 'a currency without minor units keeps whole units');
    assert.equal(typedValue(max, '12.5', 100), null, 'whole units only');
    d = setField(d, 'max', typedValue(max, '20000', 100));
    assert.deepEqual(draftValue(d), { ok: true, value: '{"min":10000,"max":2000000}' });
    d = setField(d, 'min', 3_000_000);
    assert.deepEqual(draftValue(d), { ok: false, problem: { key: 'minAboveMax', values: { bet: '' } } });
  });

  it('edits the station credit limit on the pad: whole units typed, minor units sent, none or zero refused before a second person is called', () => {
    assert.ok(isEditableKey('creditLimit'));
    let d = startDraft('creditLimit', '99999999', table);
    assert.deepEqual(
      draftFields(d).map((f) => [f.name, f.unit, f.value]),
      [['amount', 'money', 99_999_999]],
    );
    d = setField(d, 'amount', typedValue(draftFields(d)[0]!, '50000', 100));
    assert.deepEqual(draftValue(d), { ok: true, value: '5000000' });
    assert.deepEqual(draftValue(setField(d, 'amount', null)), { ok: false, problem: { key: 'missing', values: { field: 'amount' } } });
    assert.deepEqual(draftValue(setField(d, 'amount', 0)), { ok: false, problem: { key: 'positive', values: { field: 'amount' } } });
    // Nine digits on the pad reach 999,999,999 patacas; the host takes at most what SAS 0x1A can say.
    assert.deepEqual(draftValue(setField(d, 'amount', 100_000_000)), { ok: false, problem: { key: 'aboveMax', values: { field: 'amount', max: 99_999_999 } } });
    assert.deepEqual(draftValue(setField(d, 'amount', 99_999_999)), { ok: true, value: '99999999' });
  });

  it('edits timers in seconds and sends milliseconds', () => {
    let d = startDraft('timings', '{"bettingMs":15000,"decisionMs":15000,"resultsMs":5000}', table);
    assert.deepEqual(d.fields, { bettingMs: 15, decisionMs: 15, resultsMs: 5 });
    d = setField(d, 'bettingMs', 20);
    assert.deepEqual(draftValue(d), { ok: true, value: '{"bettingMs":20000,"decisionMs":15000,"resultsMs":5000}' });
    assert.equal(draftValue(setField(d, 'resultsMs', 0)).ok, false);
  });

  it('ticks notes; no list means every note; an empty list is refused', () => {
    let d = startDraft('denominations', '[]', table);
    assert.deepEqual(d.notes, table.notes);
    d = toggleNote(toggleNote(d, 10), 20);
    assert.deepEqual(draftValue(d), { ok: true, value: '[50,100,500,1000]' });
    for (const n of [50, 100, 500, 1000]) d = toggleNote(d, n);
    assert.deepEqual(draftValue(d), { ok: false, problem: { key: 'noNotes' } });
  });

  it('limits per bet: a row per bet of the game, both or neither, none means the table limits', () => {
    let d = startDraft('betLimits', '{"anyPair":{"min":1000,"max":50000}}', table);
    assert.deepEqual(Object.keys(d.fields), ['main.min', 'main.max', 'anyPair.min', 'anyPair.max']);
    d = setField(d, 'main.min', 20_000);
    assert.deepEqual(draftValue(d), { ok: false, problem: { key: 'bothOrNeither', values: { bet: 'main' } } });
    d = setField(d, 'main.max', 400_000);
    assert.deepEqual(JSON.parse((draftValue(d) as { value: string }).value), { main: { min: 20_000, max: 400_000 }, anyPair: { min: 1000, max: 50_000 } });
    d = setField(setField(d, 'anyPair.min', null), 'anyPair.max', null);
    assert.deepEqual(JSON.parse((draftValue(d) as { value: string }).value), { main: { min: 20_000, max: 400_000 } });
  });

  it('shows values as people read them, money per locale, in each language', async () => {
    for (const language of ['en', 'pt', 'zh-Hant'] as const) {
      const i18n = createI18n(language);
      const t = i18n.t.bind(i18n);
      const money = (m: number) => formatMoney(m, 'MOP', language);
      const f = { money, minorPerUnit: 100, t };
      const handpay = formatConfigValue('handpayTwoPersonAbove', '5000000', f);
      assert.equal(handpay, money(5_000_000));
      assert.ok(!handpay.includes('5000000'), `${language}: ${handpay}`);
      const limits = formatConfigValue('limits', '{"min":10000,"max":1000000}', f);
      assert.ok(limits.includes(money(10_000)) && limits.includes(money(1_000_000)), `${language}: ${limits}`);
      assert.ok(formatConfigValue('timings', '{"bettingMs":15000,"decisionMs":12000,"resultsMs":5000}', f).includes('12'));
      const and = { 'zh-Hant': '及', pt: ' e ', en: ' and ' }[language];
      assert.equal(formatConfigValue('denominations', '[500,1000]', f), `${money(50_000)}${and}${money(100_000)}`);
      const perBet = formatConfigValue('betLimits', '{"banker":{"min":10000,"max":50000},"tie":{"min":1000,"max":5000}}', f);
      assert.ok(perBet.startsWith(`${t('bet.banker')} `) && perBet.includes(and) && perBet.includes(t('bet.tie')), `${language}: ${perBet}`);
      assert.equal(formatConfigValue('game', 'blackjack', f), 'blackjack');
    }
  });
});

describe('configuration rows of the stations', () => {
  it('word the seat and the acceptor in the language', async () => {
    const i18n = createI18n('pt');
    const t = i18n.t.bind(i18n);
    const f = { money: (m: number) => formatMoney(m, 'MOP', 'pt'), minorPerUnit: 100, t };
    assert.equal(formatConfigValue('station.3', '{"seat":3,"billAcceptor":"sim","protocol":"id003"}', f), 'lugar 3 · aceitador sim (id003)');
  });
});
