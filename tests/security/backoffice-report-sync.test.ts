// A gaming day's report read while a table has not sent all of that day's journal: a table offline
// for hours syncs yesterday's rounds after midnight, and the figures of a day already read (and
// perhaps signed) change. The report said nothing of it. It now says, table by table, how far each
// table's journal had come when it was read (the seq held, when the table was last heard, the
// entries its last heartbeat said were unsent), whether the day is over, and marks the report
// complete only when every table was heard after the day's end with nothing unsent; the audit of
// each reading keeps a digest of what was answered.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { backofficeKit, signIn, type BackofficeKit } from './backoffice-kit.js';
import { lyingTable } from './lying-journal-kit.js';
import { reportCsv } from '../../backoffice/src/csv.js';
import { GamingDayReport } from '../../backoffice/src/report-model.js';
import { createI18n } from '../../locales/i18n.js';

const TS = '2026-11-25T02:00:00.000Z'; // gaming day 25 Nov (06:00 start), over by the kit's clock (26 Nov 08:00 UTC)
const notes = { type: 'bill.credit', ts: TS, payload: { station: 1, amount: 100, currency: 'MOP' }, meters: [['table', 'totalBillsIn', 100]] };

interface Sync {
  readAt: string;
  dayOver: boolean;
  complete: boolean;
  tables: { terminalId: string; syncedSeq: number; lastSeen: string | null; unsent: number | null; complete: boolean; changed: unknown }[];
}

async function read(kit: BackofficeKit, cookie: string, date: string): Promise<{ sync: Sync; body: string }> {
  const r = await kit.app.inject({ method: 'GET', url: `/backoffice/api/reports/gaming-day?date=${date}`, headers: { cookie } });
  assert.equal(r.statusCode, 200, r.body);
  return { sync: (r.json() as { sync: Sync }).sync, body: r.body };
}

describe("a gaming day's report read before every table has sent that day's journal", () => {
  it('says how far each table had come, and is complete only when every table was heard after the day with nothing unsent', async () => {
    const kit = await backofficeKit();
    try {
      const [t1, t2] = [await lyingTable(kit.app, kit.db, 'T1'), await lyingTable(kit.app, kit.db, 'T2')];
      assert.equal((await t1.send([notes, notes])).statusCode, 200);
      assert.equal((await t2.send([notes])).statusCode, 200);
      assert.equal((await t1.heartbeat({ sync: { lagEntries: 0 } })).statusCode, 200);
      assert.equal((await t2.heartbeat({ sync: { lagEntries: 12 } })).statusCode, 200);
      // Enrolled before the day, as tables that played it were (the upstream's clock is the machine's, the kit's is 26 Nov).
      await kit.db.query(`UPDATE terminals SET enrolled_at = '2026-11-01T00:00:00Z'`);
      const who = await signIn(kit.app, 'accounting');

      const first = await read(kit, who.cookie, '2026-11-25');
      assert.equal(first.sync.readAt, new Date(kit.clock.now).toISOString());
      assert.equal(first.sync.dayOver, true);
      assert.equal(first.sync.complete, false);
      const byId = new Map(first.sync.tables.map((t) => [t.terminalId, t]));
      assert.deepEqual([byId.get('T1')?.syncedSeq, byId.get('T1')?.unsent, byId.get('T1')?.complete], [2, 0, true]);
      assert.deepEqual([byId.get('T2')?.syncedSeq, byId.get('T2')?.unsent, byId.get('T2')?.complete], [1, 12, false]);
      // The CSV says so too, at its end: a file taken away is as provisional as the page.
      const csv = reportCsv(createI18n('en'), GamingDayReport.parse(JSON.parse(first.body)))
        .trimEnd()
        .split('\r\n');
      const seen = byId.get('T2')?.lastSeen ?? '';
      assert.deepEqual(csv.slice(-3), [
        '',
        `"Provisional: when this report was read (${first.sync.readAt}), these tables had not sent their whole journal past the end of the day, and their figures may still change:"`,
        `"T2: last heard ${seen}, 12 entries not yet received"`,
      ]);

      // T2 catches up; then T1 is found last heard before the day ended.
      assert.equal((await t2.heartbeat({ sync: { lagEntries: 0 } })).statusCode, 200);
      const whole = await read(kit, who.cookie, '2026-11-25');
      assert.equal(whole.sync.complete, true);
      assert.equal(
        reportCsv(createI18n('en'), GamingDayReport.parse(JSON.parse(whole.body)))
          .trimEnd()
          .split('\r\n')
          .at(-1),
        `"Complete: when this report was read (${whole.sync.readAt}), every table had sent its journal past the end of the day."`,
      );
      await kit.db.query(
        `UPDATE terminals SET last_seen_at = '2026-11-25T20:00:00Z', last_health_at = '2026-11-25T20:00:00Z', caught_up_at = '2026-11-25T20:00:00Z' WHERE terminal_id = 'T1'`,
      );
      const late = await read(kit, who.cookie, '2026-11-25');
      assert.equal(late.sync.complete, false);
      assert.equal(late.sync.tables.find((t) => t.terminalId === 'T1')?.complete, false);

      // Heard after the day's end only by a batch (even one refused): its last heartbeat, the only word on
      // what it had yet to send, came before the end (a second review: that made the day complete).
      await kit.db.query(
        `UPDATE terminals SET last_seen_at = now(), last_health_at = '2026-11-25T21:59:00Z', caught_up_at = '2026-11-25T21:59:00Z' WHERE terminal_id = 'T1'`,
      );
      assert.equal((await read(kit, who.cookie, '2026-11-25')).sync.complete, false);
      assert.equal((await t1.heartbeat({ sync: { lagEntries: 0 } })).statusCode, 200);
      assert.equal((await read(kit, who.cookie, '2026-11-25')).sync.complete, true);

      // A later heartbeat that says some of today's entries are unsent (a busy table, every minute)
      // says nothing of a day whose end it had already said it was past with nothing unsent: the
      // day stays complete (before: it read provisional again at each such heartbeat, "3 entries
      // not yet received", flickering with the floor's traffic).
      assert.equal((await t1.heartbeat({ sync: { lagEntries: 3 } })).statusCode, 200);
      const busy = await read(kit, who.cookie, '2026-11-25');
      assert.equal(busy.sync.tables.find((t) => t.terminalId === 'T1')?.complete, true);
      assert.equal(busy.sync.complete, true);
      assert.equal((await t1.heartbeat({ sync: { lagEntries: 0 } })).statusCode, 200);

      // A table enrolled after the day ended is none of its tables; one enrolled before and never heard from is.
      await lyingTable(kit.app, kit.db, 'T4');
      assert.equal((await read(kit, who.cookie, '2026-11-25')).sync.complete, true);
      assert.equal(
        (await read(kit, who.cookie, '2026-11-25')).sync.tables.some((t) => t.terminalId === 'T4'),
        false,
      );
      // A table enrolled and never heard from: nothing says it played no round offline.
      await lyingTable(kit.app, kit.db, 'T3');
      await kit.db.query(`UPDATE terminals SET enrolled_at = '2026-11-01T00:00:00Z' WHERE terminal_id = 'T3'`);
      const silent = await read(kit, who.cookie, '2026-11-25');
      assert.deepEqual(
        silent.sync.tables.find((t) => t.terminalId === 'T3'),
        { terminalId: 'T3', syncedSeq: 0, lastSeen: null, unsent: null, complete: false, changed: null, datedAfter: null },
      );
      assert.equal(silent.sync.complete, false);

      // Today's day is not over: never complete.
      const today = await read(kit, who.cookie, '2026-11-26');
      assert.equal(today.sync.dayOver, false);
      assert.equal(today.sync.complete, false);

      // Each reading's audit names the day and a digest of the answer's body.
      const audits = await kit.db.query<{ detail: { date: string; digest: string } }>(
        `SELECT detail FROM audit_log WHERE action = 'report.read' ORDER BY id DESC LIMIT 1`,
      );
      assert.deepEqual(audits.rows[0]?.detail, { date: '2026-11-26', digest: createHash('sha256').update(today.body).digest('hex') });
    } finally {
      await kit.close();
    }
  });
});
