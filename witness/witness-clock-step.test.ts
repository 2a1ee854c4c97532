// The witness's own limits (how often a head and a refusal go into its record, how often a failure
// is logged, when a failed rotation is tried again) against a wall clock that steps: NTP at boot,
// a technician setting the time. Measured on the wall clock, a step back an hour kept every refusal
// out of the record for that hour (an attacker's hour unrecorded), and a step forward let a flood
// of refusals in past its limit. The times written in the record stay the wall clock's.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { freshDirs, Journal, lines, ok, refused, testKey } from './test-kit.js';
import { Witness } from './witness.js';

const fresh = freshDirs('witness-clock-step-');
const HOUR = 3_600_000;

/** A witness of terminal T whose wall clock and monotonic clock the test moves apart. */
function stepped(): { w: Witness; dir: string; wall: { ms: number }; mono: { ms: number } } {
  const dir = fresh();
  const wall = { ms: Date.parse('2026-12-05T12:00:00.000Z') };
  const mono = { ms: 5_000 };
  const w = new Witness({
    dir,
    key: testKey(),
    terminals: ['T'],
    clock: () => new Date(wall.ms),
    monotonic: () => mono.ms,
    headEveryMs: 60_000,
    refusalEveryMs: 10_000,
  });
  return { w, dir, wall, mono };
}

const recorded = (dir: string, k: string) => lines(path.join(dir, 'record.jsonl')).filter((l) => l.k === k);

/** A request for a terminal the witness does not serve: refused `unknown-terminal`. */
const stranger = (w: Witness) => refused(w.handle({ id: 7, op: 'head', terminal: 'X' }));

describe("the witness's limits against a wall clock that steps", () => {
  it('a step back an hour: a refusal past its limit is still recorded, and a head past its interval', () => {
    const { w, dir, wall, mono } = stepped();
    const j = new Journal('T', 3);
    j.add(2);
    ok(w.handle({ id: 1, op: 'witness', terminal: 'T', from: j.head(0), links: j.links, to: j.head() }));
    assert.equal(stranger(w), 'unknown-terminal');
    assert.equal(recorded(dir, 'refused').length, 1);
    assert.equal(recorded(dir, 'head').length, 1);

    wall.ms -= HOUR;
    mono.ms += 61_000;
    stranger(w);
    const from = j.head();
    j.add(2);
    ok(w.handle({ id: 2, op: 'witness', terminal: 'T', from, links: j.links.slice(from.seq), to: j.head() }));
    const refusals = recorded(dir, 'refused');
    assert.equal(refusals.length, 2, 'the refusal 61 s later is recorded, though the wall clock went back an hour');
    assert.equal(recorded(dir, 'head').length, 2, 'the head 61 s later is recorded');
    // What is written is still the wall clock's time.
    assert.equal((refusals[1] as { at: string }).at, new Date(wall.ms).toISOString());
    w.close();
  });

  it('a step forward an hour: a flood of refusals is still recorded once per limit, the rest counted', () => {
    const { w, dir, wall, mono } = stepped();
    stranger(w);
    for (let i = 0; i < 5; i++) {
      wall.ms += HOUR;
      mono.ms += 1_000;
      stranger(w);
    }
    assert.equal(recorded(dir, 'refused').length, 1, 'five refusals within 5 s of the first are counted, not recorded');
    mono.ms += 10_000;
    stranger(w);
    const refusals = recorded(dir, 'refused');
    assert.equal(refusals.length, 2);
    assert.equal((refusals[1] as { repeated: number }).repeated, 5);
    w.close();
  });
});
