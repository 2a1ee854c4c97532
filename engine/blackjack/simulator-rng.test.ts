// The simulator's generator is xoshiro128** as in `Rng`, and its bounded draw is Lemire's
// multiply-and-reject, checked here against the same method in exact integer arithmetic.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Rng } from '../random/seeded-rng.js';
import { SimRng, shuffleInPlace } from './simulator-rng.js';

/** Lemire's method on BigInts, fed by the reference generator. */
function referenceBelow(rng: Rng, n: number): number {
  const N = BigInt(n);
  const threshold = (2n ** 32n - N) % N;
  for (;;) {
    const m = BigInt(rng.nextUint32()) * N;
    if (m % 2n ** 32n >= threshold) return Number(m >> 32n);
  }
}

describe('simulator random source', () => {
  it('gives the same 32-bit stream as Rng for the same seed', () => {
    for (const seed of [0, 1, 0xffffffff, 123456789]) {
      const a = new SimRng(seed);
      const b = Rng.fromSeed(seed);
      for (let i = 0; i < 1000; i++) assert.equal(a.nextInt32() >>> 0, b.nextUint32());
    }
  });

  it('draws below n exactly as Lemire’s method in integer arithmetic, rejections included', () => {
    // 2^21 - 1 rejects about one draw in 2,000, so 20,000 draws take the rejection path.
    for (const n of [1, 2, 3, 52, 311, 416, 1000003, 2 ** 21 - 1, 2 ** 21]) {
      const a = new SimRng(7);
      const b = Rng.fromSeed(7);
      for (let i = 0; i < 20_000; i++) {
        const x = a.below(n);
        assert.equal(x, referenceBelow(b, n), `n=${n}, draw ${i}`);
        assert.ok(x >= 0 && x < n);
      }
    }
  });

  it('shuffles a shoe into a permutation of itself, reproducibly', () => {
    const shoe = (): Uint8Array => Uint8Array.from({ length: 416 }, (_, i) => i % 52);
    const a = shoe();
    const b = shoe();
    shuffleInPlace(a, new SimRng(9));
    shuffleInPlace(b, new SimRng(9));
    assert.deepEqual(a, b);
    assert.notDeepEqual(a, shoe());
    assert.deepEqual([...a].sort((x, y) => x - y), [...shoe()].sort((x, y) => x - y));
  });
});
