// The wall clock steps (NTP correcting it at boot, a technician setting the time). The link's
// silences (§4.2 no address for 5 s, §4.3 no implied ACK for 30 s) were measured on it: a step back
// of an hour left a system gone silent unreported for that hour, and a step forward reported a
// system still polling as lost. They are on the monotonic clock now.
//
// On a clock the test moves (not real timers): polling every 30 ms against a 100 ms silence on
// real timers failed under load, a poll's timer held past the silence by a busy machine (the
// suite's flake, 7 December).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { realClock } from '../../hardware/clock.js';
import { SasMachine } from '../../hardware/sas/machine.js';
import type { SasLinkEvent } from '../../hardware/sas/types.js';
import { ManualClock, MemoryGame } from './fixture.js';

const A = 7;

/** 600 ms after the wall clock stepped by `stepMs`, with the system polling every 30 ms or gone silent. */
function linkAfterStep(stepMs: number, polling: boolean): SasLinkEvent['type'][] {
  const clock = new ManualClock();
  const machine = new SasMachine({ address: A, game: new MemoryGame(), clock, silenceMs: 100, ackTimeoutMs: 300, chirpMs: 20, write: () => undefined });
  const seen: SasLinkEvent['type'][] = [];
  machine.events.on((e) => seen.push(e.type));
  machine.start();
  machine.char(0x80 | A, true); // a general poll to another address: the system is there, and in step
  // The system polls this machine and another in turn (each poll to another is an implied ACK).
  let turn = 0;
  const poll = (): void => {
    if (polling) machine.char(turn++ % 2 === 0 ? A : 0x80 | (A + 1), true);
    if (polling && turn % 2 === 1) machine.char(0x11, false);
  };
  // Polls every 30 ms, timers run between them.
  const run = (ms: number): void => {
    for (let t = 0; t < ms; t += 30) {
      clock.advance(30);
      poll();
    }
  };
  run(60);
  clock.stepWall(stepMs);
  run(600);
  machine.stop();
  return seen.filter((t) => t === 'link-down');
}

describe('SAS link timers and a wall clock that steps', () => {
  it('a system gone silent is reported lost once, the wall clock stepped back an hour', () => {
    assert.deepEqual(linkAfterStep(-3_600_000, false), ['link-down']);
  });

  it('a system still polling is not reported lost, the wall clock stepped forward an hour', () => {
    assert.deepEqual(linkAfterStep(3_600_000, true), []);
  });

  it('the real clock measures intervals on a time the wall clock does not step', () => {
    const wall = Date.now;
    const before = realClock.monotonic?.() ?? Number.NaN;
    try {
      Date.now = () => wall() - 3_600_000;
      const after = realClock.monotonic?.() ?? Number.NaN;
      assert.ok(after >= before && after - before < 60_000, `monotonic went from ${before} to ${after}`);
    } finally {
      Date.now = wall;
    }
  });
});
