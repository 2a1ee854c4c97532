// The gaming day's start hour changed by an administrator: it takes effect from the next gaming
// day, never on a day that has begun or ended. The start hour was one value applied to whatever
// date was asked, so a change re-windowed every past day: a day's report signed under 06:00 read
// otherwise afterwards, and the hours between the two starts fell out of both days around it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backofficeKit, post, signIn, type BackofficeKit } from './backoffice-kit.js';
import { writeSettings } from '../../upstream/backoffice/settings.js';
import { DATABASES } from '../sync/upstream-databases.js';
import { lyingTable } from './lying-journal-kit.js';

// 07:00 in Macau on the 26th: gaming day 26 Nov under a 06:00 start, 25 Nov under an 08:00 one.
const AT_7 = '2026-11-25T23:00:00.000Z';

async function report(kit: BackofficeKit, cookie: string, date: string) {
  const r = await kit.app.inject({ method: 'GET', url: `/backoffice/api/reports/gaming-day?date=${date}`, headers: { cookie } });
  assert.equal(r.statusCode, 200, r.body);
  const j = r.json() as { from: string; to: string; startHour: number; lines: { terminalId: string; scope: string; drop: number }[] };
  return { from: j.from, to: j.to, startHour: j.startHour, drop: j.lines.find((l) => l.terminalId === 'T1' && l.scope === 'table')?.drop ?? 0 };
}

describe("the gaming day's start hour, changed", () => {
  it('takes effect from the next gaming day: the days before keep their windows and figures, and the days tile', async () => {
    const kit = await backofficeKit();
    try {
      const table = await lyingTable(kit.app, kit.db, 'T1');
      const notes = { type: 'bill.credit', ts: AT_7, payload: { station: 1, amount: 7_000, currency: 'MOP' }, meters: [['table', 'totalBillsIn', 7_000]] };
      assert.equal((await table.send([notes])).statusCode, 200);
      const accounting = await signIn(kit.app, 'accounting');
      const admin = await signIn(kit.app, 'administrator');
      const before = { d25: await report(kit, accounting.cookie, '2026-11-25'), d26: await report(kit, accounting.cookie, '2026-11-26') };
      assert.deepEqual(before.d25, { from: '2026-11-24T22:00:00.000Z', to: '2026-11-25T22:00:00.000Z', startHour: 6, drop: 0 });
      assert.equal(before.d26.drop, 7_000);

      // The kit's clock: 26 Nov 08:00 UTC, 16:00 in Macau, inside gaming day 26 Nov.
      const set = await post(kit.app, admin, '/backoffice/api/settings', { gamingDayStartHour: 8 });
      assert.equal(set.statusCode, 200, set.body);
      assert.equal(set.json().gamingDayStartHour, 8);

      assert.deepEqual(await report(kit, accounting.cookie, '2026-11-25'), before.d25);
      // The day under way ends where the next begins: 26 hours, 06:00 on the 26th to 08:00 on the 27th.
      assert.deepEqual(await report(kit, accounting.cookie, '2026-11-26'), {
        from: '2026-11-25T22:00:00.000Z',
        to: '2026-11-27T00:00:00.000Z',
        startHour: 6,
        drop: 7_000,
      });
      assert.deepEqual(await report(kit, accounting.cookie, '2026-11-27'), {
        from: '2026-11-27T00:00:00.000Z',
        to: '2026-11-28T00:00:00.000Z',
        startHour: 8,
        drop: 0,
      });

      // Changed again the same day: the pending change is replaced, not stacked.
      assert.equal((await post(kit.app, admin, '/backoffice/api/settings', { gamingDayStartHour: 5 })).statusCode, 200);
      assert.deepEqual(await report(kit, accounting.cookie, '2026-11-26'), {
        from: '2026-11-25T22:00:00.000Z',
        to: '2026-11-26T21:00:00.000Z',
        startHour: 6,
        drop: 7_000,
      });
      assert.equal((await report(kit, accounting.cookie, '2026-11-27')).startHour, 5);

      // A day later (27 Nov, 10:00 in Macau), back to 06:00 from the 28th: every day from the 24th to the 30th tiles.
      kit.clock.now = Date.UTC(2026, 10, 27, 2, 0, 0);
      const [admin2, reader] = [await signIn(kit.app, 'administrator'), await signIn(kit.app, 'accounting')];
      assert.equal((await post(kit.app, admin2, '/backoffice/api/settings', { gamingDayStartHour: 6 })).statusCode, 200);
      const days = ['2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28', '2026-11-29'];
      const windows = await Promise.all(days.map((d) => report(kit, reader.cookie, d)));
      for (let i = 1; i < windows.length; i++) assert.equal(windows[i]?.from, windows[i - 1]?.to, `${days[i]} begins where ${days[i - 1]} ends`);
      assert.deepEqual(
        windows.map((w) => w.startHour),
        [6, 6, 6, 5, 6, 6],
      );
      // The report of today, asked without a date, is the day the clock is in.
      const today = await kit.app.inject({ method: 'GET', url: '/backoffice/api/reports/gaming-day', headers: { cookie: reader.cookie } });
      assert.equal((today.json() as { date: string }).date, '2026-11-27');
    } finally {
      await kit.close();
    }
  });
  // Two or more changes at once (each administrator's own request; the first also sets the offline
  // limit, written before the start hour, so its statements fall apart from the others'): the history
  // and the hour last set were written each in a statement of its own, and could end apart.
  for (const database of DATABASES) {
    it(`changed by administrators at once, on ${database}: the hour set and the history agree`, async () => {
      const kit = await backofficeKit({ database });
      try {
        const accounting = await signIn(kit.app, 'accounting');
        for (const hours of [
          [8, 5, 7, 9],
          [3, 9, 4, 11],
          [10, 2, 1, 12],
        ]) {
          const changes = hours.map((h, i) => (i === 0 ? { offlineLimitSeconds: 300, gamingDayStartHour: h } : { gamingDayStartHour: h }));
          const answers = await Promise.all(changes.map((c, i) => writeSettings(kit.db, c, `administrator ${i}`, '10.1.1.1', new Date(kit.clock.now))));
          assert.equal(answers.length, hours.length);
          const set = await kit.app.inject({ method: 'GET', url: '/backoffice/api/settings', headers: { cookie: accounting.cookie } });
          const history = await kit.db.query<{ value: { from: string; hour: number }[] }>(
            "SELECT value FROM backoffice_settings WHERE key = 'gamingDayStartHours'",
          );
          const last = history.rows[0]?.value.at(-1);
          assert.equal(set.json().gamingDayStartHour, last?.hour, `after ${hours.join(', ')} at once: ${JSON.stringify(history.rows[0]?.value)}`);
          assert.equal((await report(kit, accounting.cookie, '2026-11-27')).startHour, last?.hour);
        }
      } finally {
        await kit.close();
      }
    });
  }
  it('stored out of order: the report is a 500 and a change is refused whole, never every past day re-windowed under the hour last set', async () => {
    const kit = await backofficeKit();
    try {
      const [accounting, admin] = [await signIn(kit.app, 'accounting'), await signIn(kit.app, 'administrator')];
      assert.equal((await post(kit.app, admin, '/backoffice/api/settings', { gamingDayStartHour: 8 })).statusCode, 200);
      const disordered = [
        { from: '0001-01-01', hour: 6 },
        { from: '2026-11-27', hour: 8 },
        { from: '2026-11-20', hour: 5 },
      ];
      await kit.db.query("UPDATE backoffice_settings SET value = $1::jsonb WHERE key = 'gamingDayStartHours'", [JSON.stringify(disordered)]);
      const r = await kit.app.inject({ method: 'GET', url: '/backoffice/api/reports/gaming-day?date=2026-11-25', headers: { cookie: accounting.cookie } });
      assert.equal(r.statusCode, 500, r.body.slice(0, 200));
      // And someone is told, once while it stands: a 500 alone reaches only the one who asked.
      await kit.app.inject({ method: 'GET', url: '/backoffice/api/reports/gaming-day?date=2026-11-24', headers: { cookie: accounting.cookie } });
      const raised = await kit.db.query<{ terminal_id: string | null; detail: { key: string } }>(
        "SELECT terminal_id, detail FROM alarms WHERE kind = 'backoffice-setting-unreadable'",
      );
      assert.deepEqual(
        raised.rows.map((a) => [a.terminal_id, a.detail.key]),
        [[null, 'gamingDayStartHours']],
      );
      assert.equal((await post(kit.app, admin, '/backoffice/api/settings', { offlineLimitSeconds: 300, gamingDayStartHour: 9 })).statusCode, 500);
      const after = await kit.app.inject({ method: 'GET', url: '/backoffice/api/settings', headers: { cookie: accounting.cookie } });
      assert.deepEqual(after.json(), { gamingDayStartHour: 8, offlineLimitSeconds: 120 }, 'nothing of the refused change written');
    } finally {
      await kit.close();
    }
  });
});
