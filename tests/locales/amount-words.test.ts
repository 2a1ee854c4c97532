// The amount in words printed on a cash-out ticket: hand-checked amounts in Chinese financial
// numerals and in Portuguese, and a property against independent readers written here (words back
// to the amount): for any amount, the words say exactly that amount.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { amountInWordsPt } from '../../locales/amount-words-pt.js';
import { amountInWordsZh } from '../../locales/amount-words-zh.js';

describe('Chinese financial numerals (大寫金額)', () => {
  const cases: [number, string][] = [
    [0, '澳門元零圓正'],
    [5, '澳門元伍分'],
    [50, '澳門元伍角正'],
    [55, '澳門元伍角伍分'],
    [100, '澳門元壹圓正'],
    [1_000, '澳門元壹拾圓正'],
    [1_100, '澳門元壹拾壹圓正'],
    [10_000, '澳門元壹佰圓正'],
    [10_005, '澳門元壹佰圓零伍分'],
    [10_050, '澳門元壹佰圓伍角正'],
    [10_101, '澳門元壹佰零壹圓零壹分'],
    [100_400, '澳門元壹仟零肆圓正'],
    [168_032, '澳門元壹仟陸佰捌拾圓參角貳分'],
    [1_000_000, '澳門元壹萬圓正'],
    [10_700_053, '澳門元壹拾萬柒仟圓伍角參分'],
    [100_000_400, '澳門元壹佰萬零肆圓正'],
    [1_001_000_000, '澳門元壹仟零壹萬圓正'],
    [10_001_000_000, '澳門元壹億零壹萬圓正'],
    [100_000_000_100, '澳門元壹拾億零壹圓正'],
    [Number.MAX_SAFE_INTEGER, '澳門元玖拾兆零柒佰壹拾玖億玖仟貳佰伍拾肆萬柒仟肆佰零玖圓玖角壹分'],
  ];
  for (const [minor, words] of cases) it(`${minor} avos: ${words}`, () => assert.equal(amountInWordsZh(minor, 'MOP'), words));
  it('Hong Kong dollars', () => {
    assert.equal(amountInWordsZh(123_456_789, 'HKD'), '港元壹佰貳拾參萬肆仟伍佰陸拾柒圓捌角玖分');
    assert.equal(amountInWordsZh(10_000, 'HKD'), '港元壹佰圓正');
  });
  it('refuses what is not whole minor units ≥ 0', () => {
    for (const bad of [-1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1]) assert.throws(() => amountInWordsZh(bad, 'MOP'));
  });
});

describe('Portuguese (Macau, European)', () => {
  const cases: [number, string][] = [
    [0, 'zero patacas'],
    [1, 'um avo'],
    [5, 'cinco avos'],
    [50, 'cinquenta avos'],
    [100, 'uma pataca'],
    [101, 'uma pataca e um avo'],
    [200, 'duas patacas'],
    [1_000, 'dez patacas'],
    [1_400, 'catorze patacas'],
    [1_600, 'dezasseis patacas'],
    [1_900, 'dezanove patacas'],
    [2_100, 'vinte e uma patacas'],
    [10_000, 'cem patacas'],
    [10_050, 'cem patacas e cinquenta avos'],
    [10_100, 'cento e uma patacas'],
    [20_000, 'duzentas patacas'],
    [123_400, 'mil duzentas e trinta e quatro patacas'],
    [100_500, 'mil e cinco patacas'],
    [120_000, 'mil e duzentas patacas'],
    [200_000, 'duas mil patacas'],
    [2_000_000, 'vinte mil patacas'],
    [50_000_000, 'quinhentas mil patacas'],
    [100_000_000, 'um milhão de patacas'],
    [200_000_000, 'dois milhões de patacas'],
    [250_000_000, 'dois milhões e quinhentas mil patacas'],
    [123_456_789, 'um milhão duzentas e trinta e quatro mil quinhentas e sessenta e sete patacas e oitenta e nove avos'],
    [100_100_100, 'um milhão mil e uma patacas'],
    [20_000_000_000, 'duzentos milhões de patacas'],
    [100_000_000_100, 'mil milhões e uma patacas'],
    [100_000_000_000_000, 'um bilião de patacas'],
    [100_000_500_000_000, 'um bilião e cinco milhões de patacas'],
  ];
  for (const [minor, words] of cases) it(`${minor} avos: ${words}`, () => assert.equal(amountInWordsPt(minor, 'MOP'), words));
  it('Hong Kong dollars (masculine)', () => {
    assert.equal(amountInWordsPt(100, 'HKD'), 'um dólar de Hong Kong');
    assert.equal(amountInWordsPt(201, 'HKD'), 'dois dólares de Hong Kong e um cêntimo');
    assert.equal(amountInWordsPt(20_000, 'HKD'), 'duzentos dólares de Hong Kong');
    assert.equal(amountInWordsPt(10_001, 'HKD'), 'cem dólares de Hong Kong e um cêntimo');
    assert.equal(amountInWordsPt(100_000_000, 'HKD'), 'um milhão de dólares de Hong Kong');
  });
  it('refuses what is not whole minor units ≥ 0', () => {
    for (const bad of [-1, 0.5, Number.POSITIVE_INFINITY]) assert.throws(() => amountInWordsPt(bad, 'MOP'));
  });
});

// ── independent readers: words back to minor units ─────────────────────────
const ZH_DIGITS = '零壹貳參肆伍陸柒捌玖';
const ZH_SMALL: Record<string, bigint> = { 拾: 10n, 佰: 100n, 仟: 1000n };
const ZH_BIG: Record<string, bigint> = { 萬: 10n ** 4n, 億: 10n ** 8n, 兆: 10n ** 12n };

function readZhInteger(s: string): bigint {
  let total = 0n;
  let section = 0n;
  let digit = 0n;
  for (const ch of s) {
    const d = ZH_DIGITS.indexOf(ch);
    if (d >= 0) digit = BigInt(d);
    else if (ZH_SMALL[ch]) {
      section += digit * ZH_SMALL[ch];
      digit = 0n;
    } else if (ZH_BIG[ch]) {
      total += (section + digit) * ZH_BIG[ch];
      section = 0n;
      digit = 0n;
    } else throw new Error(`unexpected ${ch}`);
  }
  return total + section + digit;
}

function readZh(words: string): bigint {
  const m = /^澳門元(?:(.+)圓)?(?:零)?(?:(.)角)?(?:(.)分)?(正)?$/u.exec(words);
  if (!m) throw new Error(`unreadable: ${words}`);
  const units = m[1] ? readZhInteger(m[1]) : 0n;
  const jiao = m[2] ? BigInt(ZH_DIGITS.indexOf(m[2])) : 0n;
  const fen = m[3] ? BigInt(ZH_DIGITS.indexOf(m[3])) : 0n;
  if ((m[4] !== undefined) === (m[3] !== undefined)) throw new Error(`正 must end an amount without 分, and only then: ${words}`);
  return units * 100n + jiao * 10n + fen;
}

const PT_WORDS: Record<string, bigint> = {
  zero: 0n,
  um: 1n,
  uma: 1n,
  dois: 2n,
  duas: 2n,
  três: 3n,
  quatro: 4n,
  cinco: 5n,
  seis: 6n,
  sete: 7n,
  oito: 8n,
  nove: 9n,
  dez: 10n,
  onze: 11n,
  doze: 12n,
  treze: 13n,
  catorze: 14n,
  quinze: 15n,
  dezasseis: 16n,
  dezassete: 17n,
  dezoito: 18n,
  dezanove: 19n,
  vinte: 20n,
  trinta: 30n,
  quarenta: 40n,
  cinquenta: 50n,
  sessenta: 60n,
  setenta: 70n,
  oitenta: 80n,
  noventa: 90n,
  cem: 100n,
  cento: 100n,
  duzentas: 200n,
  trezentas: 300n,
  quatrocentas: 400n,
  quinhentas: 500n,
  seiscentas: 600n,
  setecentas: 700n,
  oitocentas: 800n,
  novecentas: 900n,
  duzentos: 200n,
  trezentos: 300n,
  quatrocentos: 400n,
  quinhentos: 500n,
  seiscentos: 600n,
  setecentos: 700n,
  oitocentos: 800n,
  novecentos: 900n,
};

function readPtNumber(tokens: string[]): bigint {
  let total = 0n;
  let current = 0n;
  for (const t of tokens) {
    if (t === 'e' || t === 'de') continue;
    const v = PT_WORDS[t];
    if (v !== undefined) current += v;
    else if (t === 'mil') current = (current === 0n ? 1n : current) * 1000n;
    else if (t === 'milhão' || t === 'milhões') {
      total += current * 10n ** 6n;
      current = 0n;
    } else if (t === 'bilião' || t === 'biliões') {
      total += current * 10n ** 12n;
      current = 0n;
    } else throw new Error(`unexpected word ${t}`);
  }
  return total + current;
}

function readPt(words: string): bigint {
  const m = /^(?:(.+?) (?:patacas|pataca))?(?: e )?(?:(.+) (?:avos|avo))?$/u.exec(words);
  if (!m || (!m[1] && !m[2])) throw new Error(`unreadable: ${words}`);
  return (m[1] ? readPtNumber(m[1].split(' ')) : 0n) * 100n + (m[2] ? readPtNumber(m[2].split(' ')) : 0n);
}

describe('the words say the amount (independent readers, any amount)', () => {
  const amount = fc.oneof(
    fc.integer({ min: 0, max: 10_000_00 }),
    fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
    fc.constantFrom(0, 1, 99, 100, 101, 10_000, 100_000_000),
  );
  it('Chinese: read back, one 零 per gap, never 拾 without its digit', () => {
    fc.assert(
      fc.property(amount, (minor) => {
        const w = amountInWordsZh(minor, 'MOP');
        assert.equal(readZh(w), BigInt(minor), w);
        assert.ok(!w.includes('零零'), w);
        assert.ok(!/(^|[^壹貳參肆伍陸柒捌玖])拾/u.test(w.slice(3)), w);
        assert.ok(/^[澳門元零壹貳參肆伍陸柒捌玖拾佰仟萬億兆圓角分正]+$/u.test(w), w);
      }),
      { numRuns: 3000, seed: 47 },
    );
  });
  it('Portuguese: read back, agreement and spacing', () => {
    fc.assert(
      fc.property(amount, (minor) => {
        const w = amountInWordsPt(minor, 'MOP');
        assert.equal(readPt(w), BigInt(minor), w);
        assert.ok(!w.includes('  ') && !w.includes(' e e ') && !/(?<!\be )\bum mil\b/.test(w), w); // «mil», never «um mil» (but «vinte e um mil»)
        // Patacas are counted in the feminine; milhões and biliões (masculine nouns) in the masculine.
        const major = w.split(/ (?:de )?patacas?/u)[0] ?? '';
        const scaled = major.split(/ (?:milhão|milhões|bilião|biliões)\b/u);
        const feminine = scaled.pop() ?? '';
        const MASCULINE = /(^| )(um|dois|duzentos|trezentos|quatrocentos|quinhentos|seiscentos|setecentos|oitocentos|novecentos)( |$)/u;
        const FEMININE = /(^| )(uma|duas|duzentas|trezentas|quatrocentas|quinhentas|seiscentas|setecentas|oitocentas|novecentas)( |$)/u;
        if (/patacas?/u.test(w)) assert.ok(!MASCULINE.test(feminine) && scaled.every((p) => !FEMININE.test(p)), w);
      }),
      { numRuns: 3000, seed: 47 },
    );
  });
});
