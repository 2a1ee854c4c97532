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

  it('offers again a nonce given back unspent while it is fresh, never a stale one nor one given back twice', async () => {
    // A connection that takes its challenge and goes (a LAN flood of them) would otherwise waste a
    // nonce of the host's each: the edge's share at the host (2,048 for 10 s) emptied at ~205 a second.
    let now = 0;
    let made = 0;
    const pool = new NoncePool(
      async (count) => Array.from({ length: count }, () => `n${++made}`),
      () => now,
    );
    const a = await pool.take();
    assert.equal(a, 'n1');
    for (let i = 0; i < 1000; i++) {
      const n = (await pool.take()) ?? assert.fail('a nonce');
      pool.giveBack(n);
    }
    assert.equal(made, 16, 'a thousand connections that came and went took nothing more from the host');
    pool.giveBack(a ?? '');
    pool.giveBack(a ?? '');
    const offered = await Promise.all(Array.from({ length: 16 }, () => pool.take()));
    assert.equal(offered.filter((n) => n === 'n1').length, 1, 'given back twice, offered once');
    assert.equal(made, 16);
    // Past 4 s from its arrival a nonce given back is thrown away, as one never offered is.
    const late = (await pool.take()) ?? assert.fail('a nonce');
    now += 4001;
    pool.giveBack(late);
    assert.notEqual(await pool.take(), late);
    // Never offered by this pool: not taken in.
    pool.giveBack('made-up');
    const next = await Promise.all(Array.from({ length: 20 }, () => pool.take()));
    assert.ok(!next.includes('made-up'));
  });
});
