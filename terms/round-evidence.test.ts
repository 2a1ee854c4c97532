import assert from 'node:assert/strict';
import { test } from 'node:test';
import { roundSpan } from './round-evidence.js';

test('roundSpan reads a round of any length (a spread of 300,000 seqs overflows the stack)', () => {
  const entrySeqs = Array.from({ length: 300_000 }, (_, i) => 1_000 + ((i * 7919) % 300_000));
  assert.deepEqual(roundSpan({ entrySeqs }), { first: 1_000, last: 300_999 });
});

test('roundSpan takes the smallest and the largest seq, wherever each lies', () => {
  assert.deepEqual(roundSpan({ entrySeqs: [12, 9, 40, 11] }), { first: 9, last: 40 });
  assert.deepEqual(roundSpan({ entrySeqs: [5] }), { first: 5, last: 5 });
});
