// The table clock watch and the disk-space monitor each look once at their start, then every
// `everyMs`, until stopped: one shape, now one helper (host/table/timers.ts `Repeating`). A watch
// started a second time made a second chain of timers whose handle its stop no longer held (the
// host starts each once, so latent): its stop left a timer looking for ever. And a look that
// stopped the watch armed the next one all the same.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { manualTimers } from '../testing/manual-timers.js';
import { silent, testTable } from '../testing/table-kit.js';
import { Repeating } from '../table/timers.js';
import { DiskSpaceMonitor } from '../tilts/disk-space.js';
import { FloorClock } from '../tickets/floor-clock.js';
import { FloorClockWatch } from './floor-clock-watch.js';

describe('a watch that looks every so often', () => {
  it('looks at once, then every everyMs, each wait from the end of the last look; stopped, no timer is left', () => {
    const m = manualTimers();
    const looks: number[] = [];
    const r = new Repeating(m.timers, 1_000, () => void looks.push(m.now()));
    r.start();
    for (const ms of [1_000, 1_000, 1_000, 500]) m.advance(ms);
    assert.deepEqual(looks, [1_000_000, 1_001_000, 1_002_000, 1_003_000]);
    r.stop();
    assert.equal(m.pending(), 0);
    for (let i = 0; i < 5; i++) m.advance(1_000);
    assert.equal(looks.length, 4);
  });

  it('a look that stops it is the last; started twice it runs one chain', () => {
    const m = manualTimers();
    let looks = 0;
    const r = new Repeating(m.timers, 1_000, () => {
      looks++;
      if (looks === 3) r.stop();
    });
    r.start();
    r.start();
    assert.equal(m.pending(), 1, 'one timer');
    for (let i = 0; i < 10; i++) m.advance(1_000);
    assert.equal(looks, 3);
    assert.equal(m.pending(), 0, 'no timer after the look that stopped it');
  });

  it('the table clock watch and the disk-space monitor, started twice and stopped: no timer left', () => {
    for (const make of [
      (t: ReturnType<typeof testTable>) => new FloorClockWatch({ clock: new FloorClock(), tilts: t.tilts, timers: t.clock.timers }),
      (t: ReturnType<typeof testTable>) =>
        new DiskSpaceMonitor({ dir: t.dir, tilts: t.tilts, log: silent, timers: t.clock.timers, statfs: () => ({ free: 2 ** 40, total: 2 ** 41 }) }),
    ]) {
      const t = testTable();
      const watch = make(t);
      const before = t.clock.pending();
      watch.start();
      watch.start();
      watch.stop();
      assert.equal(t.clock.pending(), before, `${watch.constructor.name}: its timers all cleared`);
    }
  });
});
