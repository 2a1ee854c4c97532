// The seeded slice of the witness's wire fuzz that `npm test` runs (`npm run fuzz -- --only
// witness-wire` runs a million frames; tests/fuzz/witness-wire.ts says what each must satisfy).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeWitnessFuzz, fuzzWitnessWire } from './witness-wire.js';

const FRAMES = 5_000;
const SEED = 50_002;

describe('fuzzed witness wire (seeded slice)', () => {
  it(`${FRAMES} frames, seed ${SEED}: no throw, every answer of the protocol, no signature off its head or of a state it did not derive`, () => {
    const r = fuzzWitnessWire(FRAMES, SEED);
    // The fuzz reached the paths that sign, and the refusals: a slice that signed nothing proved little.
    assert.ok(r.headsSigned > 100 && r.checkpointsSigned > 3 && (r.answered['not-derived'] ?? 0) > 3, describeWitnessFuzz(r));
    assert.ok((r.answered['bad-request'] ?? 0) > 1000 && (r.answered.stale ?? 0) + (r.answered.diverging ?? 0) > 100, describeWitnessFuzz(r));
  });
});
