// One cabinet's journal must not take the upstream's whole minute. The ingest's rate limit (600
// batches a minute) counts per client address, and a batch may hold 5,000 entries and 8 MB: a review
// measured a 5,000-entry batch of 7.5 MB at ~400 ms on PGlite, so one cabinet with its own key
// could write gigabytes a minute and keep the embedded database busy most of every minute. Each
// terminal now has a budget of entries and bytes a minute (upstream/ingest-budget.ts); past it a
// batch is refused 429 with nothing done, and the honest sync client backs off and sends it again.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { billCredit } from '../../ledger/fixtures.js';
import { Ledger, SyncClient } from '../../ledger/index.js';
import { buildServer, enrolTerminal, startUpstream, type Db } from '../../upstream/index.js';
import { DEFAULT_INGEST_BUDGET } from '../../upstream/ingest-budget.js';
import { openDatabase } from '../sync/upstream-databases.js';
import { lyingTable, type LyingEntry } from './lying-journal-kit.js';

const TS = '2026-11-26T02:00:00.000Z';
const note = (detail = ''): LyingEntry => ({ type: 'station.note', ts: TS, payload: { detail } });
const notes = (n: number): LyingEntry[] => Array.from({ length: n }, () => note());

async function stored(db: Db, terminal: string): Promise<number> {
  const r = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM journal WHERE terminal_id = $1', [terminal]);
  return r.rows[0]?.n ?? -1;
}

/** An upstream whose terminals have `limits` a minute, on a clock the test moves. */
async function budgeted(limits: { entriesPerMinute: number; bytesPerMinute: number }) {
  const opened = await openDatabase('pglite');
  const clock = { now: Date.UTC(2026, 10, 26, 8, 0, 0) };
  const app = await buildServer({ db: opened.db, backoffice: false, ingestBudget: { ...limits, now: () => clock.now } });
  return {
    app,
    db: opened.db,
    clock,
    async close() {
      await app.close();
      await opened.close();
    },
  };
}

describe("a terminal's budget of journal a minute", () => {
  it('entries: past its budget a terminal is refused 429 with nothing stored, another is not, and it fills again with time', async () => {
    const up = await budgeted({ entriesPerMinute: 100, bytesPerMinute: 10_000_000 });
    try {
      const liar = await lyingTable(up.app, up.db, 'T9');
      assert.equal((await liar.send(notes(100))).statusCode, 200);
      const over = await liar.send(notes(1));
      assert.equal(over.statusCode, 429, over.body.slice(0, 200));
      assert.match(over.body, /over-budget/);
      assert.equal(await stored(up.db, 'T9'), 100);
      const other = await lyingTable(up.app, up.db, 'T1');
      assert.equal((await other.send(notes(100))).statusCode, 200, "another terminal's budget is its own");
      up.clock.now += 30_000;
      assert.equal((await liar.send(notes(50))).statusCode, 200, 'half a minute later, half the budget');
      assert.equal((await liar.send(notes(1))).statusCode, 429);
      assert.equal(await stored(up.db, 'T9'), 150);
    } finally {
      await up.close();
    }
  });

  it('bytes: a terminal past its bytes a minute is refused 429, however few its entries', async () => {
    const up = await budgeted({ entriesPerMinute: 1_000, bytesPerMinute: 20_000 });
    try {
      const liar = await lyingTable(up.app, up.db, 'T9');
      assert.equal((await liar.send([note('x'.repeat(12_000))])).statusCode, 200);
      assert.equal((await liar.send([note('x'.repeat(12_000))])).statusCode, 429);
      assert.equal(await stored(up.db, 'T9'), 1);
    } finally {
      await up.close();
    }
  });

  it("the default is above an honest table's most: its whole unsynced limit in one minute, in its largest batches", () => {
    // ledger/sync-client.ts: 500 entries and 512 KiB a batch; play stops past 50,000 unsynced entries.
    assert.ok(DEFAULT_INGEST_BUDGET.entriesPerMinute >= 50_000);
    assert.ok(DEFAULT_INGEST_BUDGET.bytesPerMinute >= (50_000 / 500) * 512 * 1024);
  });

  it('the honest sync client: a 429 is no block, and the rest goes once the budget has filled', async () => {
    const opened = await openDatabase('pglite');
    const clock = { now: Date.UTC(2026, 10, 26, 8, 0, 0) };
    const up = await startUpstream({
      db: opened.db,
      backoffice: false,
      ingestBudget: { entriesPerMinute: 100, bytesPerMinute: 10_000_000, now: () => clock.now },
    });
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T1' });
    try {
      const alarms: string[] = [];
      const client = new SyncClient(ledger, {
        url: up.url,
        credentials: { ...(await enrolTerminal(opened.db, 'T1', false)), upstream: up.url },
        maxBatchEntries: 60,
        onAlarm: (a) => alarms.push(a.kind),
      });
      for (let i = 0; i < 150; i++) ledger.append(billCredit(1, 100, `T1-b${i}`));
      assert.equal(await client.syncOnce(), 'sent');
      assert.equal(await client.syncOnce(), 'failed', '60 more than the 40 left');
      assert.notEqual(client.status().state, 'blocked');
      assert.deepEqual(alarms, []);
      assert.equal(client.status().ackedSeq, 60);
      clock.now += 60_000;
      while ((await client.syncOnce()) === 'sent');
      assert.equal(client.status().ackedSeq, 150);
      assert.equal(await stored(opened.db, 'T1'), 150);
    } finally {
      ledger.close();
      await up.close();
      await opened.close();
    }
  });
});
