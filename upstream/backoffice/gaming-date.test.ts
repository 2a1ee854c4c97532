// A gaming day's window is asked of a day of the calendar only (`gamingDayWindow`); the routes
// refuse any other with a 400 first (tests/sync/backoffice-dates.test.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gamingDayWindow, isCalendarDate } from './gaming-day.js';

describe('a gaming day is a day of the calendar', () => {
  it('tells a day from a string of its shape that is none', () => {
    for (const day of ['2026-01-01', '2026-02-28', '2028-02-29', '2000-02-29', '2026-12-31']) assert.equal(isCalendarDate(day), true, day);
    for (const no of ['2026-02-30', '2026-13-45', '2026-00-10', '2026-04-31', '2026-01-00', '1900-02-29', '2026-2-3', '0026-01-01', ''])
      assert.equal(isCalendarDate(no), false, no);
  });

  it('gives no window for a day that is none (before: 2026-02-30 gave 1–2 March)', () => {
    assert.throws(() => gamingDayWindow('2026-02-30', 6), RangeError);
    assert.throws(() => gamingDayWindow('2026-13-45', 6), RangeError);
    const { from, to } = gamingDayWindow('2028-02-29', 6);
    assert.deepEqual([from.toISOString(), to.toISOString()], ['2028-02-28T22:00:00.000Z', '2028-02-29T22:00:00.000Z']);
  });
});
