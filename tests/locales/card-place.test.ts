import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cardPlaceSaid } from '../../locales/card-place.js';
import { createI18n } from '../../locales/i18n.js';
import { languages } from '../../locales/index.js';

test('every place the engines write has its words, hands counted from 1', () => {
  assert.deepEqual(cardPlaceSaid('burn'), { key: 'cardPlace.burn', values: {} });
  assert.deepEqual(cardPlaceSaid('dealer'), { key: 'cardPlace.dealer', values: {} });
  assert.deepEqual(cardPlaceSaid('banker'), { key: 'cardPlace.banker', values: {} });
  assert.deepEqual(cardPlaceSaid('player'), { key: 'cardPlace.player', values: {} });
  assert.deepEqual(cardPlaceSaid('seat:3'), { key: 'cardPlace.seat', values: { seat: 3 } });
  assert.deepEqual(cardPlaceSaid('seat:3:war'), { key: 'cardPlace.seatWar', values: { seat: 3 } });
  assert.deepEqual(cardPlaceSaid('seat:7:hand:0'), { key: 'cardPlace.seatHand', values: { seat: 7, hand: 1 } });
  assert.deepEqual(cardPlaceSaid('seat:7:hand:3'), { key: 'cardPlace.seatHand', values: { seat: 7, hand: 4 } });
});

test('a place no engine writes is not guessed at: it is shown as recorded', () => {
  for (const to of [
    '',
    'Burn',
    'toString',
    '__proto__',
    'constructor',
    'seat',
    'seat:',
    'seat:01',
    'seat:-1',
    'seat:1.5',
    'seat:99999',
    'seat:3:hand',
    'seat:3:hand:x',
    'seat:3:hand:0:1',
    'seat:3:war:1',
    'seat:3:peace',
    'box:3',
  ])
    assert.equal(cardPlaceSaid(to), null, to);
});

test('each language says every place in words, with no placeholder left', () => {
  for (const language of languages) {
    const i = createI18n(language);
    for (const to of ['burn', 'dealer', 'banker', 'player', 'seat:2', 'seat:2:war', 'seat:2:hand:1']) {
      const said = cardPlaceSaid(to);
      assert.ok(said);
      const words = i.t(said.key, { ...said.values });
      assert.equal(typeof words, 'string');
      assert.ok(words.length > 0 && !words.includes('{{') && words !== said.key, `${language} ${to}: ${words}`);
      if (to.startsWith('seat:')) assert.match(words, /2/, `${language} ${to}: ${words}`);
    }
  }
});
