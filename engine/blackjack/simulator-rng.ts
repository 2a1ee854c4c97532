import { seedRng } from '../random/seeded-rng.js';

/**
 * The simulator's random source: the same xoshiro128** generator and seeding as
 * `engine/random/seeded-rng.ts`, held in four number fields so that a draw allocates nothing.
 *
 * `below(n)` maps a 32-bit output to [0, n) by Lemire's multiply-and-reject: the answer is the
 * high word of x·n, and a remainder is computed only on the rare draw (probability n / 2^32)
 * that may need rejecting. `Rng.below` instead takes two remainders per call, and on numbers
 * above 2^31 V8 computes `%` in floating point; in the simulator's shuffle that was about a sixth
 * of the run time. Both are exactly uniform, but they map the same outputs to different integers,
 * so a seed gives a different shuffle here than through `Rng`.
 */
export class SimRng {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;

  constructor(seed: number) {
    const s = seedRng(seed);
    // Held as int32 from the start, as every later step leaves them, so the fields keep one representation.
    this.s0 = s[0] | 0;
    this.s1 = s[1] | 0;
    this.s2 = s[2] | 0;
    this.s3 = s[3] | 0;
  }

  /** The next output as a signed 32-bit integer (its bits are the generator's uint32). */
  nextInt32(): number {
    const s0 = this.s0;
    const s1 = this.s1;
    const x = Math.imul(s1, 5);
    const result = Math.imul((x << 7) | (x >>> 25), 9);
    const n2 = this.s2 ^ s0;
    const n3 = this.s3 ^ s1;
    this.s0 = s0 ^ n3;
    this.s1 = s1 ^ n2;
    this.s2 = n2 ^ (s1 << 9);
    this.s3 = (n3 << 11) | (n3 >>> 21);
    return result;
  }

  /** Uniform integer in [0, n), exactly; 0 < n ≤ 2^21 so that x·n is exact in a double. */
  below(n: number): number {
    const x = this.nextInt32();
    // The rare output that may need rejecting is a call of its own, so that this stays small enough for V8 to inline at every card.
    if (Math.imul(x, n) >>> 0 < n) return this.belowRejecting(x, n);
    return Math.floor(((x >>> 0) * n) / 4294967296);
  }

  /** `below(n)` for an output `x` whose low word is under n: rejected (and drawn again) while it would bias the result. */
  private belowRejecting(x: number, n: number): number {
    const reject = (4294967296 - n) % n; // 2^32 mod n: the outputs that would bias the result
    while (Math.imul(x, n) >>> 0 < reject) x = this.nextInt32();
    return Math.floor(((x >>> 0) * n) / 4294967296);
  }

  /**
   * Fisher–Yates shuffle of `cards` in place, for i from the end swapping card i with card
   * `j` uniform in [0, i]. A shoe has at most 2^16 cards, so each `j` needs only 16 random bits:
   * each generator output gives two (high half first), and `j` is Lemire's multiply-and-reject
   * on 16 bits, exact in int32 arithmetic. That halves the generator steps, which were most of
   * the shuffle's time. The generator's state is held in local variables for the whole shoe.
   */
  shuffle(cards: Uint8Array): void {
    if (cards.length > 65536) throw new RangeError(`shuffle: ${cards.length} cards, at most 65536`);
    let s0 = this.s0;
    let s1 = this.s1;
    let s2 = this.s2;
    let s3 = this.s3;
    // The low half of the last output, while unused; -1 when none is left.
    let spare = -1;
    for (let i = cards.length - 1; i > 0; i--) {
      const n = i + 1;
      let m: number;
      for (;;) {
        let r: number;
        if (spare >= 0) {
          r = spare;
          spare = -1;
        } else {
          const k = Math.imul(s1, 5);
          const x = Math.imul((k << 7) | (k >>> 25), 9);
          const t = s1 << 9;
          const n2 = s2 ^ s0;
          const n3 = s3 ^ s1;
          s0 ^= n3;
          s1 ^= n2;
          s2 = n2 ^ t;
          s3 = (n3 << 11) | (n3 >>> 21);
          r = x >>> 16;
          spare = x & 0xffff;
        }
        m = r * n;
        const low = m & 0xffff;
        // 2^16 mod n of the 2^16 values would bias the result: reject them (rare, n / 2^16 at most).
        if (low >= n || low >= (65536 - n) % n) break;
      }
      const j = m >>> 16;
      const c = cards[i] as number;
      cards[i] = cards[j] as number;
      cards[j] = c;
    }
    this.s0 = s0;
    this.s1 = s1;
    this.s2 = s2;
    this.s3 = s3;
  }
}
