import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createI18n } from '../../../locales/i18n.js';
import { handTotalText } from './hand-total.js';

describe('the total under a hand', () => {
  const zh = createI18n('zh-Hant').getFixedT('zh-Hant');
  const pt = createI18n('pt').getFixedT('pt');

  it('names a natural «Black Jack» in the language, never 11/21', () => {
    assert.equal(handTotalText({ cards: ['AS', 'KD'], total: 21, soft: true, natural: true }, zh), '《Black Jack》');
    assert.equal(handTotalText({ cards: ['AS', 'KD'], total: 21, soft: true, natural: true }, pt), '«Black Jack»');
  });

  it('counts a soft hand both ways, and an ace and a ten after a split as 21, not as Black Jack', () => {
    assert.equal(handTotalText({ cards: ['AS', '6D'], total: 17, soft: true }, zh), '7/17');
    assert.equal(handTotalText({ cards: ['AS', 'KD'], total: 21, soft: true }, zh), '21');
    assert.equal(handTotalText({ cards: ['TS', '6D'], total: 16, soft: false }, zh), '16');
  });

  it('writes nothing at a seat that has bet but has no card yet, or while a card is hidden', () => {
    assert.equal(handTotalText({ cards: [], total: 0 }, zh), '');
    assert.equal(handTotalText({ cards: ['AS', 'XX'], total: null }, zh), '');
  });
});
