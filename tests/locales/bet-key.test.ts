import assert from 'node:assert/strict';
import { test } from 'node:test';
import { betKey, betWordsOf } from '../../locales/bet-key.js';
import { createI18n } from '../../locales/i18n.js';

test("a bet is said as the stations say it; war's tie is its tie bet", () => {
  assert.equal(betKey('baccarat', 'banker'), 'bet.banker');
  assert.equal(betKey('baccarat', 'tie'), 'bet.tie');
  assert.equal(betKey('war', 'tie'), 'help.item.tieBet');
  assert.equal(betKey('blackjack', 'perfectPairs'), 'bet.perfectPairs');
  const zh = createI18n('zh-Hant');
  assert.equal(betWordsOf(zh.t.bind(zh), 'baccarat', 'banker'), '莊');
});

test('a bet this version has no words for is shown as recorded, never a key or a blank', () => {
  const en = createI18n('en');
  for (const bet of ['', 'newBet', 'toString', '__proto__', 'tie.x', 'banker.'])
    assert.equal(betWordsOf(en.t.bind(en), 'baccarat', bet), bet, JSON.stringify(bet));
});
