import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asciiPlot, judge, t95, trend } from './trend.js';

describe('the long-run bench arithmetic', () => {
  it('finds an exact line and a zero-width interval on it', () => {
    const xs = [250, 500, 750, 1000, 1250];
    const t = trend(
      xs,
      xs.map((x) => 3 + 0.002 * x),
    );
    assert.ok(Math.abs(t.slope - 0.002) < 1e-12);
    assert.ok(Math.abs(t.intercept - 3) < 1e-9);
    assert.ok(t.halfWidth < 1e-9);
  });

  it('gives a known interval on noisy data (computed by hand: slope 0.6, se sqrt(0.7 / 3 / 10), t(3) = 3.182)', () => {
    const t = trend([1, 2, 3, 4, 5], [1, 2, 1.5, 3, 3.5]);
    assert.ok(Math.abs(t.slope - 0.6) < 1e-12);
    // Fitted 1.0 1.6 2.2 2.8 3.4: residuals 0, 0.4, -0.7, 0.2, 0.1, sse 0.7; s² = 0.7 / 3; sxx = 10.
    assert.ok(Math.abs(t.halfWidth - 3.182 * Math.sqrt(0.7 / 3 / 10)) < 1e-9);
  });

  it('fails a growth above its budget and passes a flat figure with noise', () => {
    const xs = Array.from({ length: 20 }, (_, i) => 250 * (i + 1));
    const growing = trend(
      xs,
      xs.map((x) => 7 + x / 5000),
    );
    assert.equal(judge(growing, 4750, 0.5).ok, false);
    const flat = trend(
      xs,
      xs.map((_, i) => 7 + (i % 2 ? 0.05 : -0.05)),
    );
    const v = judge(flat, 4750, 0.5);
    assert.equal(v.ok, true);
    assert.ok(v.low <= 0 && v.high >= 0, `interval ${v.low}..${v.high} holds zero`);
  });

  it('passes a growth only when its interval is within the budget, not its estimate alone', () => {
    // A slope of 0.2375 over 4,750 rounds (the noise is uncorrelated with the rounds), within 0.5,
    // and an interval that reaches past it.
    const xs = Array.from({ length: 6 }, (_, i) => 250 * (i + 1));
    const noise = [0.3, -0.3, -0.3, -0.3, -0.3, 0.3];
    const noisy = trend(
      xs,
      xs.map((x, i) => 7 + x / 20_000 + noise[i]!),
    );
    const v = judge(noisy, 4750, 0.5);
    assert.ok(v.growth < 0.5, `estimate ${v.growth} within the budget`);
    assert.ok(v.high > 0.5, `upper bound ${v.high} past it`);
    assert.equal(v.ok, false);
    // With no interval (two samples) nothing is shown within the budget, however flat.
    assert.equal(judge(trend([250, 500], [7, 7]), 250, 0.5).ok, false);
    // A budget of none (Infinity) passes any figure; so does an exact flat line over no span.
    assert.equal(judge(noisy, 4750, Infinity).ok, true);
    assert.equal(judge(trend([250, 500], [7, 7]), 0, 0.5).ok, true);
  });

  it('has no interval with fewer than three samples', () => {
    assert.equal(trend([1, 2], [1, 2]).halfWidth, Infinity);
    assert.equal(t95(0), Infinity);
    assert.equal(t95(100), 1.96);
  });

  it('plots one star a sample, the highest on the top line and the lowest on the bottom', () => {
    const lines = asciiPlot([1, 2, 3], [0, 5, 10], 3, (v) => v.toFixed(0));
    assert.deepEqual(lines.slice(0, 3), ['10 |  *', '   | * ', ' 0 |*  ']);
  });
});
