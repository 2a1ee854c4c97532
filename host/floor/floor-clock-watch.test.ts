// A table whose clock the upstream's time contradicts raises a fault a technician sees
// (`table-clock`, staff only, stopping nothing: ticket-out is refused by itself), cleared once the
// clock agrees again (docs/tito.md, "The table's clock"). Before 7 December the only sign was the
// player's refused cash-out: nothing on the service screen or the floor said why tickets stopped.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { credit, testTable } from '../testing/table-kit.js';
import { FloorClock } from '../tickets/floor-clock.js';
import { FloorClockWatch } from './floor-clock-watch.js';

const MIN = 60_000;
const UPSTREAM = Date.parse('2026-12-07T10:00:00.000Z');

const clockFault = (t: ReturnType<typeof testTable>) => t.tilts.list().find((f) => f.kind === 'table-clock');
const journalled = (t: ReturnType<typeof testTable>) =>
  [...t.ledger.entries(1)].filter((e) => e.type.startsWith('tilt.') && e.body.includes('table-clock')).map((e) => e.type);

describe("the table's clock as a fault", () => {
  it('raised when the upstream says the clock is 10 minutes behind, cleared when it agrees again; each journalled once', () => {
    const t = testTable();
    const wall = { at: UPSTREAM - 10 * MIN, mono: 1_000 };
    const clock = new FloorClock({ now: () => wall.at, mono: () => wall.mono });
    const watch = new FloorClockWatch({ clock, tilts: t.tilts, timers: t.clock.timers });
    try {
      credit(t.ledger, 1, 10_000);
      watch.start();
      assert.equal(clockFault(t), undefined, 'no time heard yet: the host clock is within the tickets’ range');
      clock.observe(UPSTREAM, 20);
      t.clock.advance(10_000);
      const f = clockFault(t);
      assert.ok(f, 'raised at the next look');
      assert.match(f.detail ?? '', /10 min behind/);
      t.clock.advance(30_000);
      assert.deepEqual(journalled(t), ['tilt.raise'], 'raised once while it stands');
      assert.deepEqual(t.tilts.notices(1), [], 'staff only: no player sees it, and it stops no play');
      assert.equal(t.tilts.list()[0]?.disables, 'nothing');
      // Set right (and the upstream agrees): cleared at the next look.
      wall.at = UPSTREAM + 1_000;
      clock.observe(UPSTREAM + 1_000, 20);
      t.clock.advance(10_000);
      assert.equal(clockFault(t), undefined);
      assert.deepEqual(journalled(t), ['tilt.raise', 'tilt.clear']);
      // Outside any date a ticket may carry: raised whatever was heard.
      wall.at = Date.parse('1999-06-01T00:00:00Z');
      t.clock.advance(10_000);
      assert.match(clockFault(t)?.detail ?? '', /outside/);
    } finally {
      watch.stop();
      t.close();
    }
  });

  it('a fault restored from the journal is cleared by the first look that finds the clock right', () => {
    const t = testTable();
    try {
      t.tilts.raise('table-clock', {});
      const watch = new FloorClockWatch({ clock: new FloorClock(), tilts: t.tilts, timers: t.clock.timers });
      const set = t.clock.pending();
      watch.start();
      assert.equal(clockFault(t), undefined);
      watch.stop();
      assert.equal(t.clock.pending(), set, 'stopped: no look left set');
    } finally {
      t.close();
    }
  });
});
