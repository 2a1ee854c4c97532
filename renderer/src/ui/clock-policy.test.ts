import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clockFormat, clockVisible, FLASH_EVERY_MS, FLASH_FOR_MS } from './clock-policy.js';

describe('station clock (Macau equipment standard)', () => {
  const start = 1_000_000;

  it('blinks during the first 10 s of the session, then stays on', () => {
    const seen = [0, 250, 500, 750, 1000, 9_750].map((t) => clockVisible(start, start + t));
    assert.deepEqual(seen, [true, true, false, false, true, false]);
    assert.equal(clockVisible(start, start + FLASH_FOR_MS), true);
    assert.equal(clockVisible(start, start + FLASH_FOR_MS + 500), true);
  });

  it('flashes again at every 10-minute mark', () => {
    assert.equal(clockVisible(start, start + FLASH_EVERY_MS + 600), false);
    assert.equal(clockVisible(start, start + 3 * FLASH_EVERY_MS + 700), false);
    assert.equal(clockVisible(start, start + 3 * FLASH_EVERY_MS + FLASH_FOR_MS + 700), true);
  });

  it('reads in 12-hour form in each screen language', () => {
    const t = new Date(2026, 10, 21, 15, 5).getTime();
    assert.equal(clockFormat('zh-Hant-MO').format(t), '下午3:05');
    assert.match(clockFormat('pt-MO').format(t), /^3:05\sp\.\s?m\.$/);
    assert.match(clockFormat('en-MO').format(t), /^3:05\spm$/i);
  });
});
