// Macau's time by name, whatever zone the process runs in: a cabinet's Debian left in UTC (or
// any other zone) read every "local" time 8 hours off Macau's.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { macauDay, macauStamp, macauTime } from './macau-time.js';

describe("Macau's time, whatever the process's zone", () => {
  for (const zone of ['UTC', 'America/New_York', 'Asia/Macau']) {
    it(`with TZ=${zone}: 16:00 UTC is midnight of the next day in Macau, a moment before is the day before`, () => {
      const tz = process.env.TZ;
      process.env.TZ = zone;
      try {
        const midnight = Date.parse('2026-12-05T16:00:00.000Z');
        assert.deepEqual(macauTime(midnight), { year: 2026, month: 12, day: 6, hour: 0, minute: 0, second: 0 });
        assert.equal(macauDay(midnight), '2026-12-06');
        assert.equal(macauDay(midnight - 1), '2026-12-05');
        assert.equal(macauStamp(midnight - 1000), '2026-12-05 23:59:59');
        // New Year's Eve in UTC is already New Year's Day in Macau from 16:00.
        assert.deepEqual(macauTime(Date.parse('2026-12-31T16:30:05Z')), { year: 2027, month: 1, day: 1, hour: 0, minute: 30, second: 5 });
      } finally {
        if (tz === undefined) delete process.env.TZ;
        else process.env.TZ = tz;
      }
    });
  }
});
