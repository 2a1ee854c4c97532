import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tableRefusal } from './act-said.js';
import { inEnglish } from '../../locales/said.js';

// What the host's log says of a table's refusal: the key's English where the table named why, the
// table's own English only where the screen says `tableRefused` (which points to the log).
test('a table refusal is said by key, with the key English as the reason unless no key says why', () => {
  const named = tableRefusal({ reason: 'engine words', act: { why: 'jackpot-none' } }, 'MOP');
  assert.equal(named.say.key, 'serviceRefusal.jackpotNone');
  assert.equal(named.reason, inEnglish(named.say));
  assert.notEqual(named.reason, 'engine words');

  const halted = tableRefusal({ reason: 'halted by a fault', refusal: 'table-halted' }, 'MOP');
  assert.equal(halted.say.key, 'serviceRefusal.tableStopped');
  assert.equal(halted.reason, inEnglish(halted.say));

  const unnamed = tableRefusal({ reason: 'the engine said something new' }, 'MOP');
  assert.equal(unnamed.say.key, 'serviceRefusal.tableRefused');
  assert.equal(unnamed.reason, 'the engine said something new');
});
