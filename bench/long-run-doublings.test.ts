import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { doublings } from './long-run-doublings.js';

/** Samples every 250 rounds to `to`, the figure `f(rounds)`. */
const run = (to: number, f: (r: number) => number) => Array.from({ length: to / 250 }, (_, i) => ({ rounds: (i + 1) * 250, x: f((i + 1) * 250) }));

describe('long-run doublings: growth in windows that double in rounds', () => {
  it('logarithmic growth gives the same growth a doubling in every window; growth that stops gives less and then none', () => {
    const log = doublings(
      run(16_000, (r) => 3 * Math.log2(r)),
      'x',
    );
    assert.deepEqual(
      log.map((w) => [w.from, w.to]),
      [
        [250, 500],
        [500, 1000],
        [1000, 2000],
        [2000, 4000],
        [4000, 8000],
        [8000, 16000],
      ],
    );
    // The slope inside a window is a line through a curve: close to 3 a doubling, not exact.
    for (const w of log) assert.ok(Math.abs(w.perDoubling - 3) < 0.25, `${w.from}: ${w.perDoubling}`);
    const stops = doublings(
      run(16_000, (r) => Math.min(r, 3_000)),
      'x',
    );
    assert.ok(stops[1]!.perDoubling > 400);
    assert.equal(stops.at(-1)!.growth, 0);
    assert.equal(stops.at(-2)!.growth, 0);
  });

  it('a partial last window is scaled to a doubling, and samples without the figure are passed over', () => {
    const samples = run(5_000, (r) => r / 1000).map((s, i) => (i % 3 === 0 ? { rounds: s.rounds } : s));
    const ws = doublings(samples, 'x');
    const last = ws.at(-1)!;
    assert.equal(last.to, 5_000);
    // Linear growth of 1 a 1,000 rounds over 4,000 → 5,000 rounds: 1, a third of a doubling.
    assert.ok(Math.abs(last.growth - (last.to - last.from) / 1000) < 1e-9);
    assert.ok(Math.abs(last.perDoubling - last.growth / Math.log2(last.to / last.from)) < 1e-9);
    assert.deepEqual(doublings(samples, 'absent'), []);
  });
});
