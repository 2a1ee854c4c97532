import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { HeldBackoff, backoffDelay } from './backoff.js';
import { nextUint32, seedRng, type RngState } from './random/seeded-rng.js';

/** A seeded random in [0, 1), as a test passes in: the same waits every run. */
function seeded(seed: number): () => number {
  let s: RngState = seedRng(seed);
  return () => {
    const [x, next] = nextUint32(s);
    s = next;
    return x / 2 ** 32;
  };
}

const attempt = fc.integer({ min: 0, max: 200 });
const unit = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });

describe('backoff: doubled from a base, capped, jittered by a random passed in', () => {
  it('doubles from the base up to the cap, in whole milliseconds, without jitter', () => {
    const b = { baseMs: 250, capMs: 10_000 };
    assert.deepEqual(
      Array.from({ length: 8 }, (_, i) => backoffDelay(i, b)),
      [250, 500, 1000, 2000, 4000, 8000, 10_000, 10_000],
    );
    // Far past the cap (a link down for days) it stays at the cap: 2^attempt never overflows.
    assert.equal(backoffDelay(5000, b), 10_000);
    assert.equal(backoffDelay(Number.MAX_SAFE_INTEGER, b), 10_000);
    // A count that is not one waits as the first retry.
    assert.equal(backoffDelay(-3, b), 250);
    assert.equal(backoffDelay(Number.NaN, b), 250);
  });

  it('full jitter (share 1): uniform below the ceiling, floored', () => {
    const b = (r: number) => ({ baseMs: 100, capMs: 10_000, jitter: { share: 1, random: () => r } });
    assert.equal(backoffDelay(0, b(0.999)), 99);
    assert.equal(backoffDelay(3, b(0.5)), 400);
    assert.equal(backoffDelay(20, b(0.999)), 9990);
    assert.equal(backoffDelay(5, b(0)), 0);
  });

  it('half jitter (share 0.5): the ceiling’s upper half', () => {
    const b = (r: number) => ({ baseMs: 200, capMs: 5000, jitter: { share: 0.5, random: () => r } });
    assert.equal(backoffDelay(0, b(0)), 100);
    assert.equal(backoffDelay(2, b(0.5)), 600);
    assert.equal(backoffDelay(9, b(0.999_999)), 4999);
  });

  it('property: within [ceiling·(1−share), ceiling], whatever the random gives, even outside [0, 1)', () => {
    fc.assert(
      fc.property(
        attempt,
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 1, max: 600_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double(),
        (n, baseMs, capMs, share, r) => {
          const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(n, 30));
          const d = backoffDelay(n, { baseMs, capMs, jitter: { share, random: () => r } });
          assert.ok(Number.isInteger(d), `${d} is not whole milliseconds`);
          assert.ok(d <= ceiling && d >= Math.floor(ceiling * (1 - share)), `${d} outside [${ceiling * (1 - share)}, ${ceiling}]`);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('property: the waits each caller had before, where it wrote its own (issue 32)', () => {
    fc.assert(
      fc.property(attempt, unit, (n, r) => {
        const random = () => r;
        // hardware/clock.ts (the devices' links): 250 ms to 10 s by default, no jitter.
        assert.equal(backoffDelay(n, { baseMs: 250, capMs: 10_000 }), Math.min(10_000, 250 * 2 ** Math.min(n, 20)));
        assert.equal(backoffDelay(n, { baseMs: 5, capMs: 40 }), Math.min(40, 5 * 2 ** Math.min(n, 20)));
        // ledger/sync-client.ts: full jitter, 250 ms to 60 s.
        const sync = { baseMs: 250, capMs: 60_000, jitter: { share: 1, random } };
        assert.equal(backoffDelay(n, sync), Math.floor(random() * Math.min(60_000, 250 * 2 ** Math.min(n, 30))));
        // The peer and station-agent links: 200 ms to 5 s, the upper half random (the fraction of a millisecond dropped).
        const link = { baseMs: 200, capMs: 5000, jitter: { share: 0.5, random } };
        assert.equal(backoffDelay(n, link), Math.floor(Math.min(5000, 200 * 2 ** n) * (0.5 + random() / 2)));
        // The byte relay's port: 250 ms to 5 s. The witness: 250 ms to 10 s. The screens: 500 ms to 10 s.
        assert.equal(backoffDelay(n, { baseMs: 250, capMs: 5000 }), Math.min(5000, 250 * 2 ** n));
        assert.equal(backoffDelay(n, { baseMs: 250, capMs: 10_000 }), Math.min(250 * 2 ** Math.min(n, 10), 10_000));
        assert.equal(backoffDelay(n, { baseMs: 500, capMs: 10_000 }), Math.min(10_000, 500 * 2 ** n));
      }),
      { numRuns: 1000 },
    );
  });

  it('a seeded random gives the same waits every run; another seed, others', () => {
    const waits = (seed: number) => {
      const b = { baseMs: 200, capMs: 5000, jitter: { share: 0.5, random: seeded(seed) } };
      return Array.from({ length: 12 }, (_, i) => backoffDelay(i, b));
    };
    assert.deepEqual(waits(7), waits(7));
    assert.notDeepEqual(waits(7), waits(8));
  });
});

describe('HeldBackoff: waits that start over only after the link held', () => {
  it('grows at each loss of a link that did not hold, and starts over after one that held', () => {
    const w = new HeldBackoff({ baseMs: 100, capMs: 800 }, 1000);
    const waits: number[] = [];
    for (let t = 0; t < 5; t++) {
      w.up(t * 1000);
      waits.push(w.next(t * 1000 + 999));
    }
    assert.deepEqual(waits, [100, 200, 400, 800, 800]);
    w.up(10_000);
    w.up(10_500); // said again while up: still up since 10,000
    assert.equal(w.isUp(), true);
    assert.equal(w.next(11_000), 100, 'held 1,000 ms: the first wait again');
    assert.equal(w.isUp(), false);
    assert.equal(w.next(11_001), 200, 'a try that failed (never up) does not start over');
  });
});
