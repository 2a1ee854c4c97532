// The start hour's history (day-hours.ts): whatever changes an administrator makes and whenever,
// the gaming days tile the timeline (each ends where the next begins), every instant is in the
// day dayOf names, and a day that has begun keeps its start.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Sql } from '../sql.js';
import { dayOf, dayWindow, DayHours, readDayHours, scheduleHour } from './day-hours.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 1);
const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe("the gaming day's start hour over time", () => {
  it('days tile, every instant is in its day, and a change never moves a day that has begun', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ after: fc.integer({ min: 0, max: 3 * DAY }), hour: fc.integer({ min: 0, max: 23 }) }), { maxLength: 8 }),
        fc.integer({ min: 0, max: 23 }),
        (changes, first) => {
          let hours: DayHours = [{ from: '0001-01-01', hour: first }];
          let now = T0;
          for (const c of changes) {
            now += c.after;
            const today = dayOf(hours, new Date(now));
            const began = dayWindow(hours, today);
            hours = scheduleHour(hours, c.hour, new Date(now));
            assert.equal(dayOf(hours, new Date(now)), today);
            assert.equal(dayWindow(hours, today).from.getTime(), began.from.getTime(), 'the day under way keeps its start');
            assert.equal(dayWindow(hours, today).startHour, began.startHour);
          }
          for (let d = T0 - 2 * DAY; d < now + 3 * DAY; d += DAY) {
            const [a, b] = [dayWindow(hours, date(d)), dayWindow(hours, date(d + DAY))];
            assert.equal(a.to.getTime(), b.from.getTime(), `${date(d)} ends where the next begins`);
            assert.ok(a.to > a.from, 'a day is never empty');
          }
          for (let t = T0 - DAY; t < now + 2 * DAY; t += 3_600_000 * 5 + 17_000) {
            const w = dayWindow(hours, dayOf(hours, new Date(t)));
            assert.ok(w.from.getTime() <= t && t < w.to.getTime());
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('from 23:00 to 00:00 the day after: a day of one hour; back: of 47', () => {
    const at = new Date(Date.UTC(2026, 10, 27, 15, 30)); // 23:30 on the 27th in Macau: 27 Nov's day, begun at 23:00
    let hours: DayHours = [{ from: '0001-01-01', hour: 23 }];
    assert.equal(dayOf(hours, at), '2026-11-27');
    hours = scheduleHour(hours, 0, at);
    assert.deepEqual(hours.at(-1), { from: '2026-11-28', hour: 0 });
    const short = dayWindow(hours, '2026-11-27');
    assert.equal((short.to.getTime() - short.from.getTime()) / 3_600_000, 1);
    hours = scheduleHour(hours, 23, new Date(Date.UTC(2026, 10, 28, 4, 0)));
    const long = dayWindow(hours, '2026-11-28');
    assert.equal((long.to.getTime() - long.from.getTime()) / 3_600_000, 47);
  });
});

describe('a change to an hour already past on the next day', () => {
  it('takes effect the day after, so the day under way does not end before now', () => {
    // Each day from 01:00; at 00:30 on the 3rd in Macau the 2nd's day is under way, till 01:00.
    const hours: DayHours = [{ from: '0001-01-01', hour: 1 }];
    const now = new Date(Date.UTC(2026, 10, 2, 16, 30));
    assert.equal(dayOf(hours, now), '2026-11-02');
    const next = scheduleHour(hours, 0, now);
    assert.deepEqual(next.at(-1), { from: '2026-11-04', hour: 0 });
    assert.equal(dayOf(next, now), '2026-11-02');
  });
});

describe('the history as stored', () => {
  const stored = (value: unknown): Sql => ({
    query: async <T>() => ({ rows: (value === undefined ? [] : [{ value }]) as T[], rowCount: value === undefined ? 0 : 1 }),
    exec: async () => {},
  });

  it('without one, the hour last set holds for every day', async () => {
    assert.deepEqual(await readDayHours(stored(undefined), 7), [{ from: '0001-01-01', hour: 7 }]);
  });

  it('one stored that does not parse is an error, not the hour last set applied to every past day', async () => {
    const bad: unknown[] = [
      'garbage',
      [],
      [{ from: '0001-01-01', hour: 24 }],
      // out of order: hourOf reads it ascending
      [
        { from: '0001-01-01', hour: 6 },
        { from: '2026-11-27', hour: 8 },
        { from: '2026-11-20', hour: 5 },
      ],
      // the same day twice
      [
        { from: '0001-01-01', hour: 6 },
        { from: '2026-11-27', hour: 8 },
        { from: '2026-11-27', hour: 5 },
      ],
      // no day of the calendar
      [
        { from: '0001-01-01', hour: 6 },
        { from: '2026-02-30', hour: 8 },
      ],
      [{ from: '0001-01-02', hour: 6 }],
    ];
    for (const value of bad) await assert.rejects(readDayHours(stored(value), 6), /gamingDayStartHours/, JSON.stringify(value));
  });

  it('is read back as written, in order', async () => {
    const hours: DayHours = [
      { from: '0001-01-01', hour: 6 },
      { from: '2026-11-20', hour: 5 },
      { from: '2026-11-27', hour: 8 },
    ];
    assert.deepEqual(await readDayHours(stored(hours), 8), hours);
  });

  it('holds far more changes than anyone makes: the 1,001st does not stop the hour from being changed again', () => {
    let hours: DayHours = [{ from: '0001-01-01', hour: 6 }];
    const t0 = Date.UTC(2000, 0, 1, 4);
    for (let i = 0; i < 1_500; i++) hours = scheduleHour(hours, i % 2 ? 6 : 7, new Date(t0 + i * DAY));
    assert.equal(hours.length, 1_501);
    assert.deepEqual(DayHours.parse(hours), hours);
  });
});
