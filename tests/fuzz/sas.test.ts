// The seeded slice of the SAS machine side's byte-level fuzz that the suite runs (`npm run fuzz --
// --only sas` runs a million frames and more; tests/fuzz/sas.ts says what each frame is and checks).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fuzzSas } from './sas.js';

const FRAMES = 20_000;
const SEED = 48_602;

describe('SAS machine side fuzz (seeded slice)', () => {
  it(`${FRAMES} frames, seed ${SEED}: no throw, no station change, only its own polls answered, each answer well formed`, () => {
    const report = fuzzSas(FRAMES, SEED);
    assert.equal(report.frames, FRAMES);
    for (const kind of ['garbage', 'wrongCrc', 'wrongAddress', 'truncated', 'generalPoll', 'readPoll'])
      assert.ok((report.kinds[kind] ?? 0) > 1000, `${kind} frames were sent`);
    // Fewer than the general and read polls to it: a general poll to it within 5 ms of stray data (a
    // garbage frame after a general poll to another address) is a byte of that frame woken by the
    // line, never a host's poll (hardware/sas/request.ts); 2,896 of this seed's frames are answered.
    assert.ok(report.answers > 2500, `answers: ${report.answers}`);
  });

  it('the fuzz sees a change: a state poll with a right CRC among the frames is caught', () => {
    // The oracle's own test: the same machinery must fail when a poll does change the station.
    assert.throws(() => fuzzSas(50, 1, { plant: true }), /the station was changed/);
  });
});
