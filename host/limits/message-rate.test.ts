import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MessageRate, type RateVerdict } from './message-rate.js';

const judged = (rate: MessageRate, n: number): RateVerdict[] => Array.from({ length: n }, () => rate.judge());

test('a burst taken, the first over it told, the rest dropped, closed past dropAfter in a row', () => {
  const rate = new MessageRate({ burst: 2, perSecond: 0, dropAfter: 3 }, () => 0);
  assert.deepEqual(judged(rate, 6), ['take', 'take', 'tell', 'drop', 'drop', 'close']);
  assert.equal(rate.judge(), 'close', 'one that keeps on after close is closed again, never told again');
});

test('a message taken ends the run: the next one over the rate is told again, and dropAfter counts afresh', () => {
  let now = 0;
  const rate = new MessageRate({ burst: 1, perSecond: 1, dropAfter: 2 }, () => now);
  assert.deepEqual(judged(rate, 3), ['take', 'tell', 'drop']);
  now += 1_000;
  assert.deepEqual(judged(rate, 4), ['take', 'tell', 'drop', 'close']);
});

test('under the rate nothing is ever told', () => {
  let now = 0;
  const rate = new MessageRate({ burst: 1, perSecond: 10, dropAfter: 0 }, () => now);
  for (let i = 0; i < 50; i++) {
    assert.equal(rate.judge(), 'take');
    now += 100;
  }
});
