import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SteppedClock } from '../anim/clock.js';
import { clockChangesAt, clockFormat, clockVisible, FLASH_EVERY_MS, FLASH_FOR_MS, sessionBegins } from './clock-policy.js';

describe('station clock (Macau equipment standard)', () => {
  const start = 1_000_000;

  it('blinks during the first 10 s of the session, then stays on', () => {
    const seen = [0, 250, 500, 750, 1000, 9_750].map((t) => clockVisible(start, start + t));
    assert.deepEqual(seen, [true, true, false, false, true, false]);
    assert.equal(clockVisible(start, start + FLASH_FOR_MS), true);
    assert.equal(clockVisible(start, start + FLASH_FOR_MS + 500), true);
  });

  it('says when it next changes: each half second of a blink, then the next minute or the next flash', () => {
    // The session starts on a minute, so the blink's steps are the only changes for 10 s.
    const s0 = 60_000 * 1000;
    assert.equal(clockChangesAt(s0, s0 + 120), s0 + 500);
    assert.equal(clockChangesAt(s0, s0 + 9_700), s0 + FLASH_FOR_MS);
    // Steady: the next minute, and the next flash when it comes first.
    assert.equal(clockChangesAt(s0, s0 + 15_000), s0 + 60_000);
    assert.equal(clockChangesAt(s0 + 30_000, s0 + FLASH_EVERY_MS + 20_000), s0 + FLASH_EVERY_MS + 30_000);
    // Between a change and its time the clock draws the same, so nothing is missed by sleeping.
    for (let t = s0; t < s0 + 2 * FLASH_EVERY_MS; t += 1_237) {
      const next = clockChangesAt(s0, t);
      assert.ok(next > t);
      assert.equal(clockVisible(s0, next - 1), clockVisible(s0, t), `blink state steady from ${t - s0} to ${next - s0}`);
      assert.equal(Math.floor((next - 1) / 60_000), Math.floor(t / 60_000));
    }
  });

  it('flashes again at every 10-minute mark', () => {
    assert.equal(clockVisible(start, start + FLASH_EVERY_MS + 600), false);
    assert.equal(clockVisible(start, start + 3 * FLASH_EVERY_MS + 700), false);
    assert.equal(clockVisible(start, start + 3 * FLASH_EVERY_MS + FLASH_FOR_MS + 700), true);
  });

  it('reads Macau time in 12-hour form in each screen language, whatever the machine’s zone', () => {
    // 07:05 UTC is 3:05 pm in Macau (UTC+8, no summer time); the test runs in any TZ.
    const t = Date.UTC(2026, 10, 21, 7, 5);
    assert.equal(clockFormat('zh-Hant-MO').format(t), '下午3:05');
    assert.match(clockFormat('pt-MO').format(t), /^3:05\sp\.\s?m\.$/);
    assert.match(clockFormat('en-MO').format(t), /^3:05\spm$/i);
  });

  it("flashes again when a player's session begins: credit arriving at a station that held nothing", () => {
    // What a station held across snapshots: page load with credit, play, cash-out, a new note.
    const held = [50_000, 40_000, 0, 0, 20_000, 0, 0, 10_000];
    const begins = held.map((h, i) => sessionBegins(i === 0 ? null : held[i - 1]!, h));
    assert.deepEqual(begins, [false, false, false, false, true, false, false, true]);
    // The clock blinks from the new start on a stepped clock, as the station's ticker drives it.
    const clock = new SteppedClock(start + 3 * FLASH_EVERY_MS + FLASH_FOR_MS + 5_000);
    let session = start;
    assert.equal(clockVisible(session, clock.step(500)), true, 'steady between flashes');
    session = clock.now();
    assert.deepEqual(
      [0, 500, 500, 500].map((ms) => clockVisible(session, clock.step(ms))),
      [true, false, true, false],
    );
  });
});
