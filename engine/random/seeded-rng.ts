/**
 * A small seeded PRNG (xoshiro128**, seeded through splitmix32) whose whole state is four
 * 32-bit words, so it can live inside plain, serialisable game state and a round can be replayed
 * exactly from its recorded seed. Not for cryptographic use: the live game's randomness is the
 * physical shuffle; this serves simulators, tests and the automatic-shuffler model.
 */
export type RngState = readonly [number, number, number, number];

function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

export function seedRng(seed: number): RngState {
  const next = splitmix32(seed);
  const state: [number, number, number, number] = [next(), next(), next(), next()];
  if (state.every((w) => w === 0)) state[0] = 1;
  return state;
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}

/** Pure step: the next 32-bit output and the next state. */
export function nextUint32(state: RngState): [number, RngState] {
  const [s0, s1, s2, s3] = state;
  const result = Math.imul(rotl(Math.imul(s1, 5) >>> 0, 7), 9) >>> 0;
  const t = (s1 << 9) >>> 0;
  let n2 = (s2 ^ s0) >>> 0;
  let n3 = (s3 ^ s1) >>> 0;
  const n1 = (s1 ^ n2) >>> 0;
  const n0 = (s0 ^ n3) >>> 0;
  n2 = (n2 ^ t) >>> 0;
  n3 = rotl(n3, 11);
  return [result, [n0, n1, n2, n3]];
}

/**
 * A mutable generator over the same algorithm, for hot loops (simulators) where allocating a
 * state tuple per draw would dominate. `state()` hands the state back for storage.
 */
export class Rng {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;

  constructor(state: RngState) {
    [this.s0, this.s1, this.s2, this.s3] = state;
  }

  static fromSeed(seed: number): Rng {
    return new Rng(seedRng(seed));
  }

  state(): RngState {
    return [this.s0, this.s1, this.s2, this.s3];
  }

  nextUint32(): number {
    const [out, next] = nextUint32([this.s0, this.s1, this.s2, this.s3]);
    [this.s0, this.s1, this.s2, this.s3] = next;
    return out;
  }

  /** Uniform integer in [0, n) without modulo bias (rejection sampling). */
  below(n: number): number {
    if (!Number.isInteger(n) || n <= 0 || n > 0x100000000) throw new RangeError(`below(${n})`);
    const limit = 0x100000000 - (0x100000000 % n);
    for (;;) {
      const x = this.nextUint32();
      if (x < limit) return x % n;
    }
  }
}
