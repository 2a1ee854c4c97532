// The simulator's generator is xoshiro128** as in `Rng`, and its bounded draw is Lemire's
// multiply-and-reject, checked here against the same method in exact integer arithmetic.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Rng } from '../random/seeded-rng.js';
import { SimRng } from './simulator-rng.js';

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

  it('shuffles a shoe as Fisher–Yates with 16-bit Lemire draws, two per output, high half first', () => {
    // 416 cards (8 decks), and 65,536 cards, whose draws take the rejection path now and then.
    for (const length of [416, 65536]) {
      const shoe = (): Uint8Array => Uint8Array.from({ length }, (_, i) => i % 52);
      const a = shoe();
      new SimRng(9).shuffle(a);
      const ref = Rng.fromSeed(9);
      let halves: number[] = [];
      const bits16 = (): number => {
        if (halves.length === 0) {
          const x = ref.nextUint32();
          halves = [x >>> 16, x & 0xffff];
        }
        return halves.shift() as number;
      };
      let rejected = 0;
      const b = shoe();
      for (let i = b.length - 1; i > 0; i--) {
        const n = i + 1;
        let m = bits16() * n;
        while (m % 65536 < 65536 % n) {
          rejected++;
          m = bits16() * n;
        }
        const j = Math.floor(m / 65536);
        const t = b[i] as number;
        b[i] = b[j] as number;
        b[j] = t;
      }
      assert.ok(Buffer.compare(a, b) === 0, `${length} cards`);
      assert.ok(Buffer.compare(a, shoe()) !== 0);
      if (length === 65536) assert.ok(rejected > 0, 'the rejection path was taken');
    }
  });

  it('refuses a shoe of more than 2^16 cards (16-bit draws)', () => {
    assert.throws(() => new SimRng(1).shuffle(new Uint8Array(65537)), RangeError);
  });
});
