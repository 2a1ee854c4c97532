import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SteppedClock } from '../anim/clock.js';
import { NOTICE_MS, ShowFor } from './notice-time.js';

describe('refusal messages', () => {
  it("a newer message keeps its own time: the older one's end does not clear it", () => {
    const clock = new SteppedClock(10_000);
    const time = new ShowFor(NOTICE_MS);
    time.show(clock.now());
    clock.step(3_000);
    time.show(clock.now());
    clock.step(NOTICE_MS - 3_000 + 500);
    assert.equal(time.shown(clock.now()), true, "past the first message's end, the second is still said");
    clock.step(3_000);
    assert.equal(time.shown(clock.now()), false, "gone at the second message's own end");
  });
});
