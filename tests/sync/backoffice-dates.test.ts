// The gaming day a report is asked for (`?date=YYYY-MM-DD`) is a day of the calendar or a 400:
// before, only its pattern was checked, and `2026-02-30` was answered 200 under that name with the
// window of 1–2 March (`Date.UTC` rolls the day over), `2026-13-45` with a day of February 2027.
// Every route that takes a gaming day: the report and the plots.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { kitOfSuite } from '../security/backoffice-kit.js';

const ROUTES = ['/backoffice/api/reports/gaming-day', '/backoffice/api/reports/plots'];
/**
 * Each matches YYYY-MM-DD and is no gaming day: past a month's end, no such month, day 0, 29 February
 * of a common year; the calendar's last day (its day after has no date of four digits: a 500 before)
 * and a day before 1970; the last day of 9998 (a day of the calendar, but its window ends where
 * 9999-01-01 begins, a day out of range: a 500 before).
 */
const NO_DAYS = ['2026-02-30', '2026-13-45', '2026-00-10', '2026-04-31', '2026-01-00', '2025-02-29', '2026-02-29', '9999-12-31', '1969-12-31', '9998-12-31'];

describe('back office: a gaming day is a day of the calendar', () => {
  const suite = kitOfSuite('accounting');
  const get = (url: string) => suite.kit.app.inject({ method: 'GET', url, headers: { cookie: suite.who.cookie } });

  for (const route of ROUTES) {
    it(`${route} refuses a date that is no day, with a 400 that says so`, async () => {
      for (const date of NO_DAYS) {
        const r = await get(`${route}?date=${date}`);
        assert.equal(r.statusCode, 400, `${date}: ${r.body.slice(0, 200)}`);
        assert.match(r.json().message, /date/, date);
      }
    });

    it(`${route} answers a day that is one, 29 February of a leap year included, under its own window`, async () => {
      const r = await get(`${route}?date=2028-02-29`);
      assert.equal(r.statusCode, 200, r.body.slice(0, 200));
      // 06:00 Macau on 29 February is 22:00 UTC on the 28th.
      if (route.endsWith('gaming-day')) {
        const body = r.json();
        assert.deepEqual([body.date, body.from, body.to], ['2028-02-29', '2028-02-28T22:00:00.000Z', '2028-02-29T22:00:00.000Z']);
      }
    });
  }

  it('a refused date reads nothing and is not audited as a report read', async () => {
    await get('/backoffice/api/reports/gaming-day?date=2026-02-30');
    const read = await suite.kit.db.query("SELECT 1 FROM audit_log WHERE action = 'report.read' AND detail->>'date' = '2026-02-30'");
    assert.equal(read.rows.length, 0);
  });
});
