import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NoncePool } from './nonce-pool.js';

describe("an edge's nonces from the host", () => {
  it('asks in batches sized by the connections waiting, one ask at a time, and offers none older than 4 s', async () => {
    let now = 0;
    let made = 0;
    const asks: number[] = [];
    const pool = new NoncePool(
      async (count) => {
        asks.push(count);
        return Array.from({ length: count }, () => `n${++made}`);
      },
      () => now,
    );
    const first = await Promise.all(Array.from({ length: 40 }, () => pool.take()));
    assert.equal(new Set(first).size, 40, 'each connection its own nonce');
    assert.deepEqual(asks, [16, 48], 'a storm of 40 greetings: two asks, not forty');
    // 24 left from the second ask; past 4 s they are thrown away, and the next greeting asks again.
    assert.equal(await pool.take(), 'n41');
    now += 4001;
    assert.equal(await pool.take(), 'n65');
    assert.deepEqual(asks, [16, 48, 16]);
    // No nonce given (the host refused, or did not answer): the waiting greeting gets none.
    const empty = new NoncePool(async () => []);
    assert.equal(await empty.take(), null);
  });
});
