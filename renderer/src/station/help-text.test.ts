import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PayLine } from '../../../protocol/index.js';
import { createI18n } from '../../../locales/i18n.js';
import { chineseNumber, payLineText, paysText, refText } from './help-text.js';

const LANGS = ['zh-Hant', 'pt', 'en'] as const;
const fixed = async (language: (typeof LANGS)[number]) => createI18n(language).getFixedT(language);

describe('help pay table as players read it', () => {
  it('numbers articles the way the Chinese text does', () => {
    assert.deepEqual([1, 10, 13, 19, 20, 21, 64, 100, 101, 110, 235].map(chineseNumber), [
      '一',
      '十',
      '十三',
      '十九',
      '二十',
      '二十一',
      '六十四',
      '一百',
      '一百零一',
      '一百一十',
      '二百三十五',
    ]);
  });

  it('names the article in each language, never the rule id', async () => {
    const art = { kind: 'article', n: 13 } as const;
    const rule = { kind: 'rule', n: 23 } as const;
    const got = await Promise.all(LANGS.map(async (l) => [refText(await fixed(l), art, l), refText(await fixed(l), rule, l)]));
    assert.deepEqual(got, [
      ['第十三條', '規則第二十三條'],
      ['Art. 13.º', 'Regra 23'],
      ['Art. 13', 'Rule 23'],
    ]);
  });

  it('writes odds as the regulations do: the Chinese text stake first, the Portuguese winnings first', async () => {
    const odds = { kind: 'odds', win: 5000, per: 1 } as const;
    const commission = { kind: 'odds', win: 1, per: 1, commissionBasisPoints: 500 } as const;
    const half = { kind: 'returned', part: 'half' } as const;
    const got: string[] = [];
    for (const l of LANGS) {
      const t = await fixed(l);
      for (const p of [odds, commission, half]) got.push(paysText(t, p, l));
    }
    assert.deepEqual(got, [
      '1 賠 5,000',
      '1 賠 1（扣佣金 5%）',
      '退回一半投注',
      '5000 para 1',
      '1 para 1 (menos 5% de comissão)',
      'metade da aposta devolvida',
      '5,000 to 1',
      '1 to 1 (less 5% commission)',
      'half the bet returned',
    ]);
  });

  it('shows a line with its article, or without one where the profile has none', async () => {
    const t = await fixed('pt');
    const side: PayLine = {
      item: 'anyPair',
      pays: { kind: 'odds', win: 11, per: 1 },
      rule: 'macau-2009 art.13 1)(1), art.14 n.1',
      ref: { kind: 'article', n: 13 },
      side: true,
    };
    const tie: PayLine = { item: 'tieStandsOff', pays: { kind: 'returned', part: 'all' }, rule: 'macau-baccarat pay-table:tie-push' };
    assert.equal(payLineText(t, side, 'pt'), '«Qualquer par»: 11 para 1 (Art. 13.º)');
    const text = payLineText(t, tie, 'pt');
    assert.match(text, /: aposta devolvida$/);
    for (const line of [payLineText(t, side, 'pt'), text]) assert.doesNotMatch(line, /macau|art\.\d|pay-table|0\.95|-1/);
  });
});
