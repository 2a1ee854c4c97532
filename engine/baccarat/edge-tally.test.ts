import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addNet, edges, emptySums, mergeSums } from './edge-tally.js';

describe('edge tally', () => {
  it('gives the house edge and the standard error of the mean in percent, and merges by addition', () => {
    const a = emptySums(['x', 'y'] as const);
    const b = emptySums(['x', 'y'] as const);
    for (const v of [1, -1]) addNet(a.x, v);
    for (const v of [1, -1]) addNet(b.x, v);
    for (const v of [-1, -1, -1, 0.5]) addNet(b.y, v);
    const m = mergeSums(['x', 'y'], a, b);
    assert.deepEqual(m.x, { sum: 0, sumSq: 4 });
    const e = edges(['x', 'y'], m, 4);
    // x: mean 0, variance 1 → edge 0, s.e. 100 × 1/√4 = 50
    assert.equal(e.x.houseEdge + 0, 0);
    assert.equal(e.x.standardError, 50);
    // y: mean −2.5/4 = −0.625 → edge 62.5; E[x²] = 3.25/4 = 0.8125, variance 0.8125 − 0.390625
    assert.equal(e.y.houseEdge, 62.5);
    assert.ok(Math.abs(e.y.standardError - (100 * Math.sqrt(0.421875)) / 2) < 1e-12);
  });
});
