import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TokenBucket } from './token-bucket.js';

test('a burst at once, then the sustained rate; a clock stepping back refills nothing', () => {
  let now = 1_000;
  const bucket = new TokenBucket(3, 0.2, () => now);
  assert.deepEqual([bucket.take(), bucket.take(), bucket.take(), bucket.take()], [true, true, true, false]);
  now += 4_999;
  assert.equal(bucket.take(), false, 'one token takes 5 s at 0.2 per second');
  now += 1;
  assert.equal(bucket.take(), true);
  now -= 60_000;
  assert.equal(bucket.take(), false, 'a clock stepping back gives nothing');
  now += 3_600_000 + 60_000;
  assert.deepEqual([bucket.take(2), bucket.take(2)], [true, false], 'an hour refills the burst, never past it');
});

test('a token given back is taken again, up to the burst', () => {
  const bucket = new TokenBucket(1, 0, () => 0);
  assert.equal(bucket.take(), true);
  assert.equal(bucket.take(), false);
  bucket.give();
  bucket.give();
  assert.deepEqual([bucket.take(), bucket.take()], [true, false]);
});
