import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NEVER } from '../anim/wake.js';
import { IDLE_MS, isIdle } from './release-still.js';

describe("when a screen lets go of pixi's caches", () => {
  it('when still, and when only a slow clock will wake it (a station between rounds), never while anything moves', () => {
    const now = 1_000_000;
    assert.equal(isIdle(now, NEVER), true);
    assert.equal(isIdle(now, now + 60_000), true, "the session clock's next minute");
    assert.equal(isIdle(now, now + IDLE_MS + 1), true);
    assert.equal(isIdle(now, now + 250), false, "the countdown bar's next step");
    assert.equal(isIdle(now, now + 1000), false, "a countdown's next second, drawn on the second");
    assert.equal(isIdle(now, now), false, 'a card flying');
  });
});
