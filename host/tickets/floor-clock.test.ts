import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clockRefusal, FloorClock, TABLE_CLOCK_BOUND_MS } from './floor-clock.js';

const MIN = 60_000;
const UPSTREAM = Date.parse('2026-12-07T10:00:00.000Z');

/** A clock whose wall time and monotonic time the test moves. */
function rig(wall: number) {
  const t = { wall, mono: 1_000 };
  const clock = new FloorClock({ now: () => t.wall, mono: () => t.mono });
  return { t, clock };
}

describe("the table's clock against the upstream's (docs/tito.md, \"The table's clock\")", () => {
  it('bounds the skew at the 5 minutes the upstream allows a signed request', () => {
    assert.equal(TABLE_CLOCK_BOUND_MS, 5 * MIN);
  });

  it('nothing heard yet (offline since the start): the host clock serves if it is within the tickets’ range, not otherwise', () => {
    assert.deepEqual(rig(UPSTREAM - 3 * 365 * 86_400_000).clock.verdict(), { ok: true, heard: false });
    assert.deepEqual(rig(Date.parse('0000-01-01T00:00:00Z')).clock.verdict(), { ok: false, why: 'out-of-range' });
    assert.deepEqual(rig(Date.parse('1999-12-31T23:00:00Z')).clock.verdict(), { ok: false, why: 'out-of-range' });
    assert.match(clockRefusal(rig(0).clock) ?? '', /outside any date a ticket may carry/);
  });

  it('a clock 10 minutes behind the upstream’s heartbeat is refused; 4 minutes is not', () => {
    const behind = rig(UPSTREAM - 10 * MIN);
    behind.clock.observe(new Date(UPSTREAM).toISOString(), 40);
    const v = behind.clock.verdict();
    assert.equal(v.ok, false);
    assert.ok(!v.ok && v.why === 'skewed' && Math.abs(v.skewMs + 10 * MIN) < 100, JSON.stringify(v));
    assert.match(clockRefusal(behind.clock) ?? '', /10 min behind the upstream's/);
    const near = rig(UPSTREAM - 4 * MIN);
    near.clock.observe(UPSTREAM, 40);
    assert.deepEqual(near.clock.verdict(), { ok: true, heard: true });
    assert.equal(clockRefusal(near.clock), null);
    assert.equal(clockRefusal(undefined), null, 'no clock given: nothing refused');
  });

  it('carried forward on the monotonic clock: a wall clock stepped back after the last word is caught, offline too; time passing is not a skew', () => {
    const { t, clock } = rig(UPSTREAM);
    clock.observe(UPSTREAM, 10);
    t.wall += 3_600_000;
    t.mono += 3_600_000;
    assert.deepEqual(clock.verdict(), { ok: true, heard: true }, 'an hour on both clocks');
    t.wall -= 2 * 86_400_000; // someone sets the host's clock two days back
    t.mono += 1_000;
    const v = clock.verdict();
    assert.ok(!v.ok && v.why === 'skewed' && v.skewMs < -86_400_000);
  });

  it('an answer that took longer than the bound, or is no instant, teaches nothing', () => {
    const { clock } = rig(UPSTREAM - 60 * MIN);
    clock.observe(UPSTREAM, TABLE_CLOCK_BOUND_MS + 1);
    clock.observe('not a time', 5);
    assert.deepEqual(clock.verdict(), { ok: true, heard: false });
  });
});
