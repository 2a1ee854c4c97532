import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SteppedClock } from './clock.js';
import { cardStep, easeOutCubic, flipAt, FLIGHT_MS, moveAt, newMove, setMove } from './motion.js';

describe('card motions on a stepped clock', () => {
  it('a card flies from the shoe to its spot and stays there', () => {
    const clock = new SteppedClock(10_000);
    const m = setMove(newMove(), 1500, 100, 300, 800, clock.now(), FLIGHT_MS);
    const at = { x: 0, y: 0 };
    assert.equal(moveAt(m, clock.now(), at), false);
    assert.deepEqual(at, { x: 1500, y: 100 });
    clock.step(FLIGHT_MS / 2);
    assert.equal(moveAt(m, clock.now(), at), false);
    // Eased out: past the halfway point at half time, never beyond the target.
    assert.ok(at.x < 900 && at.x > 300, `x ${at.x}`);
    assert.ok(at.y > 450 && at.y < 800, `y ${at.y}`);
    clock.step(FLIGHT_MS / 2);
    assert.equal(moveAt(m, clock.now(), at), true);
    assert.deepEqual(at, { x: 300, y: 800 });
    clock.step(5_000);
    assert.equal(moveAt(m, clock.now(), at), true);
    assert.deepEqual(at, { x: 300, y: 800 });
  });

  it('progress never goes backwards frame to frame', () => {
    const clock = new SteppedClock();
    const m = setMove(newMove(), 0, 0, 100, 0, 0, FLIGHT_MS);
    const at = { x: 0, y: 0 };
    let last = -1;
    for (let i = 0; i <= 30; i++) {
      moveAt(m, clock.step(16), at);
      assert.ok(at.x >= last, `frame ${i}: ${at.x} < ${last}`);
      last = at.x;
    }
    assert.equal(last, 100);
  });

  it('a hole card shows its back for the first half of the flip and its face after', () => {
    assert.deepEqual(flipAt(0, 0, 300), { scaleX: 1, faceShown: false, done: false });
    const mid = flipAt(0, 140, 300);
    assert.equal(mid.faceShown, false);
    assert.ok(mid.scaleX < 0.2);
    assert.equal(flipAt(0, 160, 300).faceShown, true);
    const end = flipAt(0, 300, 300);
    assert.equal(end.done, true);
    assert.equal(end.faceShown, true);
    assert.ok(Math.abs(end.scaleX - 1) < 1e-9);
  });

  it('cards in a long hand close up so the hand stays within two card widths', () => {
    for (const n of [2, 3, 5, 7, 9]) assert.ok(96 + cardStep(n, 96) * (n - 1) <= 96 * 3, `hand of ${n}`);
    assert.equal(easeOutCubic(0), 0);
    assert.equal(easeOutCubic(1), 1);
  });
});
