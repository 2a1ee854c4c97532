// A gaming day reported complete that changes afterwards (a review's finding M1): a day is complete
// once every table sent a heartbeat past its end saying nothing was unsent. A table whose clock was
// behind while it was offline, or a table that lies, could then sync entries dated inside that day:
// the figures of a day read as final changed, the report still said "complete", and no alarm was
// raised (nothing compared an entry's own time with when it came). A heartbeat saying nothing is
// unsent at H means every entry journalled by H was sent: an entry arriving after it and dated
// before H by more than the skew a signed request may have is a clock's error or a lie; so is one
// dated ahead of its receipt by more than that skew. Both are stored (the journal is the table's),
// kept apart in `misdated_entries`, and alarmed; the report says which table changed a complete
// day, with how many entries and when they came.
// On PGlite and on a PostgreSQL cluster of its own, with the same assertions.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { backofficeKit, signIn, type BackofficeKit } from './backoffice-kit.js';
import { lyingTable, type LyingEntry } from './lying-journal-kit.js';
import { reportCsv } from '../../backoffice/src/csv.js';
import { kindWord } from '../../backoffice/src/alarms.js';
import { GamingDayReport } from '../../backoffice/src/report-model.js';
import { syncWords, type ReportSync } from '../../backoffice/src/report-sync.js';
import { createI18n } from '../../locales/i18n.js';
import { DATABASES } from '../sync/upstream-databases.js';

const DAY = '2026-11-25'; // from 24 Nov 22:00 to 25 Nov 22:00 UTC; over by the kit's clock (26 Nov 08:00 UTC)
const notes = (ts: string, amount = 100): LyingEntry => ({
  type: 'bill.credit',
  ts,
  payload: { station: 1, amount, currency: 'MOP' },
  meters: [['table', 'totalBillsIn', amount]],
});
const caughtUp = { sync: { lagEntries: 0 } };
const Alarm = z.object({ kind: z.string(), detail: z.record(z.string(), z.unknown()) });

async function report(kit: BackofficeKit, cookie: string) {
  const r = await kit.app.inject({ method: 'GET', url: `/backoffice/api/reports/gaming-day?date=${DAY}`, headers: { cookie } });
  assert.equal(r.statusCode, 200, r.body);
  return GamingDayReport.parse(JSON.parse(r.body));
}

const dropOf = (r: GamingDayReport, terminal: string) => r.lines.find((l) => l.terminalId === terminal && l.scope === 'table')?.drop;

async function alarms(kit: BackofficeKit, terminal: string) {
  const r = await kit.db.query<{ kind: string; detail: unknown }>(
    `SELECT kind, detail FROM alarms WHERE terminal_id = $1 AND kind = 'entry-misdated' ORDER BY id`,
    [terminal],
  );
  return r.rows.map((x) => Alarm.parse(x));
}

async function misdated(kit: BackofficeKit, terminal: string) {
  const r = await kit.db.query<{ seq: string | number; kind: string }>('SELECT seq, kind FROM misdated_entries WHERE terminal_id = $1 ORDER BY seq', [
    terminal,
  ]);
  return r.rows.map((x) => [Number(x.seq), x.kind]);
}

/** A kit with tables enrolled before the day (as tables that played it were), its accounting user signed in. */
async function kitWith(database: (typeof DATABASES)[number], ...ids: string[]) {
  const kit = await backofficeKit({ database });
  const tables = [];
  for (const id of ids) tables.push(await lyingTable(kit.app, kit.db, id));
  await kit.db.query(`UPDATE terminals SET enrolled_at = '2026-11-01T00:00:00Z'`);
  return { kit, tables, who: await signIn(kit.app, 'accounting') };
}

for (const database of DATABASES) {
  describe(`a gaming day that changes after it was reported complete (${database})`, () => {
    it('takes an entry dated inside a complete day, alarms it once for a looping table, and the report says the day changed after it was complete', async () => {
      const { kit, tables, who } = await kitWith(database, 'T1', 'T2');
      const [t1, t2] = tables;
      try {
        assert.ok(t1 && t2);
        assert.equal((await t1.send([notes('2026-11-25T02:00:00.000Z')])).statusCode, 200);
        assert.equal((await t2.send([notes('2026-11-25T02:00:00.000Z')])).statusCode, 200);
        assert.equal((await t1.heartbeat(caughtUp)).statusCode, 200);
        assert.equal((await t2.heartbeat(caughtUp)).statusCode, 200);
        const before = await report(kit, who.cookie);
        assert.equal(before.sync.complete, true);
        assert.equal(before.sync.changedAfterComplete, false);
        assert.equal(dropOf(before, 'T1'), 100);

        // T1's heartbeat said nothing was unsent; now it sends two entries dated inside the day, then one more.
        assert.equal((await t1.send([notes('2026-11-25T03:00:00.000Z', 5_000), notes('2026-11-25T03:01:00.000Z', 7_000)])).statusCode, 200);
        assert.equal((await t1.send([notes('2026-11-25T03:02:00.000Z', 1_000)])).statusCode, 200);
        assert.equal((await t1.heartbeat(caughtUp)).statusCode, 200);
        const after = await report(kit, who.cookie);
        assert.equal(dropOf(after, 'T1'), 13_100, 'stored: the journal is the table’s');
        assert.equal(after.sync.complete, true);
        // One alarm, the second batch counted in it: a table looping on it folds into one.
        const raised = await alarms(kit, 'T1');
        assert.equal(raised.length, 1, 'one alarm for the technician');
        assert.deepEqual([raised[0]?.detail.entries, raised[0]?.detail.firstSeq, raised[0]?.detail.backdated], [2, 2, 2]);
        assert.equal(z.object({ count: z.number() }).parse(raised[0]?.detail.repeated).count, 1);
        assert.deepEqual(await alarms(kit, 'T2'), []);
        assert.deepEqual(await misdated(kit, 'T1'), [
          [2, 'backdated'],
          [3, 'backdated'],
          [4, 'backdated'],
        ]);

        assert.equal(after.sync.complete, true);
        assert.equal(after.sync.changedAfterComplete, true);
        const t1Sync = after.sync.tables.find((t) => t.terminalId === 'T1');
        assert.equal(t1Sync?.changed?.entries, 3);
        assert.ok(t1Sync.changed.firstReceivedAt <= t1Sync.changed.lastReceivedAt);
        assert.equal(after.sync.tables.find((t) => t.terminalId === 'T2')?.changed, null);
        const csv = reportCsv(createI18n('en'), after).trimEnd().split('\r\n');
        const { firstReceivedAt: first, lastReceivedAt: last } = t1Sync.changed;
        assert.deepEqual(csv.slice(-3), [
          '',
          `"Changed after it was complete: when this report was read (${after.sync.readAt}), every table had sent its journal past the end of the day, but these tables sent entries dated in it after a heartbeat past its end had said nothing was unsent (a wrong clock or a lie; see the alarms):"`,
          `"T1: 3 entries received after it was complete, from ${first} to ${last}"`,
        ]);
        // The alarm's kind is worded in every language of the back office.
        for (const lang of ['en', 'pt', 'zh-Hant', 'zh-Hans'] as const) {
          assert.doesNotMatch(kindWord(createI18n(lang).t, 'entry-misdated'), /entry-misdated/, lang);
        }
      } finally {
        await kit.close();
      }
    });

    it('raises nothing for a table offline for hours that syncs the day before saying nothing is unsent, and the day becomes complete', async () => {
      const { kit, tables, who } = await kitWith(database, 'T1');
      const [t1] = tables;
      try {
        assert.ok(t1);
        // Caught up at 01:00, then offline: its heartbeat then said nothing was unsent.
        assert.equal((await t1.heartbeat(caughtUp)).statusCode, 200);
        await kit.db.query(`UPDATE terminals SET caught_up_at = '2026-11-25T01:00:00Z', last_health_at = '2026-11-25T01:00:00Z'`);
        assert.equal((await report(kit, who.cookie)).sync.complete, false);
        // Back the next day: the day's entries, dated after it was last caught up, then its heartbeat.
        assert.equal((await t1.send([notes('2026-11-25T02:00:00.000Z'), notes('2026-11-25T21:59:00.000Z')])).statusCode, 200);
        assert.equal((await t1.heartbeat(caughtUp)).statusCode, 200);
        // Its clock a little behind (within the skew a signed request may have) and a little ahead: nothing either.
        const now = Date.now();
        const slow = new Date(now - 2 * 60_000).toISOString();
        const fast = new Date(now + 2 * 60_000).toISOString();
        assert.equal((await t1.send([notes(slow), notes(fast)])).statusCode, 200);
        const r = await report(kit, who.cookie);
        assert.equal(dropOf(r, 'T1'), 200);
        assert.equal(r.sync.complete, true);
        assert.equal(r.sync.changedAfterComplete, false);
        assert.deepEqual(await misdated(kit, 'T1'), []);
        assert.deepEqual(await alarms(kit, 'T1'), []);
        assert.match(reportCsv(createI18n('en'), r).trimEnd().split('\r\n').at(-1) ?? '', /^"Complete: /);
      } finally {
        await kit.close();
      }
    });

    it('takes an entry dated ahead of its receipt by more than the skew, and alarms it', async () => {
      const { kit, tables } = await kitWith(database, 'T1');
      const [t1] = tables;
      try {
        assert.ok(t1);
        const ahead = new Date(Date.now() + 60 * 60_000).toISOString();
        assert.equal((await t1.send([notes(new Date().toISOString()), notes(ahead)])).statusCode, 200);
        assert.deepEqual(await misdated(kit, 'T1'), [[2, 'ahead']]);
        const raised = await alarms(kit, 'T1');
        assert.deepEqual([raised.length, raised[0]?.detail.ahead, raised[0]?.detail.backdated, raised[0]?.detail.firstSeq], [1, 1, 0, 2]);
      } finally {
        await kit.close();
      }
    });

    it('says, in the report of the day they were received in, the entries a table sent then dated after that day (a clock fast): they are in no figure of it', async () => {
      // Before (a review of 4 December): a table whose clock was a year fast played the day; its
      // entries left the day for the one their clock named, and the day read complete with no word.
      const { kit, tables, who } = await kitWith(database, 'T1', 'T2');
      const [t1, t2] = tables;
      try {
        assert.ok(t1 && t2);
        const yearAhead = ['2027-11-25T02:00:00.000Z', '2027-11-25T03:00:00.000Z'];
        assert.equal((await t1.send([notes('2026-11-25T02:00:00.000Z'), ...yearAhead.map((ts) => notes(ts, 500))])).statusCode, 200);
        assert.equal((await t2.send([notes('2026-11-25T02:00:00.000Z')])).statusCode, 200);
        // Received during the day (the upstream's own clock is the machine's: the receipt is set to the day's).
        await kit.db.query(`UPDATE misdated_entries SET received_at = '2026-11-25T04:00:00Z' WHERE terminal_id = 'T1'`);
        assert.equal((await t1.heartbeat(caughtUp)).statusCode, 200);
        assert.equal((await t2.heartbeat(caughtUp)).statusCode, 200);
        const r = await report(kit, who.cookie);
        assert.equal(dropOf(r, 'T1'), 100, 'the entries dated a year ahead are in no figure of the day');
        const t1Sync = r.sync.tables.find((t) => t.terminalId === 'T1');
        assert.deepEqual(t1Sync?.datedAfter, { entries: 2, earliest: yearAhead[0], latest: yearAhead[1] });
        assert.equal(r.sync.tables.find((t) => t.terminalId === 'T2')?.datedAfter, null);
        const csv = reportCsv(createI18n('en'), r).trimEnd().split('\r\n');
        const said = csv.findIndex((l) => /^"?Dated after this day/.test(l));
        assert.ok(said >= 0, csv.slice(-6).join('\n'));
        assert.match(csv[said + 1] ?? '', /^"?T1: 2 entries received in this day, dated from 2027-11-25T02:00:00\.000Z to 2027-11-25T03:00:00\.000Z/);
      } finally {
        await kit.close();
      }
    });
  });
}

describe('a day that changed after it was complete, and is provisional again, in words', () => {
  it('says the changed tables first, then the provisional sentence with the tables behind, in each language', () => {
    const changed = { entries: 2, firstReceivedAt: '2026-11-27T01:00:00.000Z', lastReceivedAt: '2026-11-27T01:05:00.000Z' };
    const sync: ReportSync = {
      readAt: '2026-11-27T02:00:00.000Z',
      dayOver: true,
      complete: false,
      changedAfterComplete: true,
      outOfRange: [],
      tables: [
        { terminalId: 'T1', syncedSeq: 9, lastSeen: '2026-11-27T01:05:00.000Z', unsent: 0, complete: true, changed, datedAfter: null },
        { terminalId: 'T2', syncedSeq: 3, lastSeen: '2026-11-25T20:00:00.000Z', unsent: 4, complete: false, changed: null, datedAfter: null },
      ],
    };
    for (const lang of ['en', 'pt', 'zh-Hant', 'zh-Hans'] as const) {
      const { state, blocks } = syncWords(createI18n(lang).t, sync, (iso) => iso);
      assert.equal(state, 'changed', lang);
      assert.deepEqual(
        blocks.map((b) => b.lines.length),
        [1, 1],
        lang,
      );
      const [first, second] = blocks;
      assert.match(first?.lines[0] ?? '', /^T1.*2.*2026-11-27T01:00:00\.000Z.*2026-11-27T01:05:00\.000Z/, lang);
      assert.match(second?.lines[0] ?? '', /^T2/, lang);
      assert.doesNotMatch(JSON.stringify(blocks), /backoffice\.report/, lang);
    }
  });
});
