import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { LedgerTransferJournal } from '../../host/transfers/ledger-journal.js';
import { TransferHost } from '../../host/transfers/transfer-host.js';
import { billCredit } from '../../ledger/fixtures.js';
import { Ledger } from '../../ledger/index.js';
import { keyOf, TableId } from '../../terms/transfer-terms.js';
import { chainHash, genesisHash, sha256Hex } from '../../upstream/chain.js';
import { alarms, enrolTerminal, ingest, type Db } from '../../upstream/index.js';
import { openDatabase } from './upstream-databases.js';
import type { Sql } from '../../upstream/sql.js';
import { reconcileTransfers, TransferReconciler } from '../../upstream/transfers.js';
import { SET_ASIDE_AFTER_SECONDS, SET_ASIDE_KEPT, UNREADABLE_KEPT } from '../../upstream/transfers/reconciler.js';
import type { TransferReport } from '../../upstream/transfers/report.js';
import { lyingBody } from '../security/lying-journal-kit.js';

// The upstream reconciles the floor's transfers every minute, for weeks. It read every transfer
// entry ever synced at each run (a scan of the whole journal: 1.1 s at 20,000 transfers on the
// build machine, the event loop held, growing for ever). A reconciler kept across runs reads only
// what synced since its last run, and forgets the transfers whose two ends agree and are closed;
// a later entry of one of those (a receiver whose credit comes after the transfer was settled as
// returned) is still paired with what came before, as a run over everything would pair it.

const BAC = TableId.parse('bac-1');
const WAR = TableId.parse('war-1');
const STATION = 101;
const watch = { openAfterSeconds: 3600, skewMarginSeconds: 60 };
/** What a report says, in an order that does not depend on when each id was first read. */
const digest = (r: TransferReport) => ({
  transfers: r.transfers,
  completed: r.completed,
  reversed: r.reversed,
  open: r.open.map((o) => keyOf(o.transfer.id)).sort(),
  disagreements: r.disagreements.map((d) => `${keyOf(d.id)} ${[...d.disagreements].sort().join(',')} ${d.net}`).sort(),
  pending: r.pending.map((d) => keyOf(d.id)).sort(),
  unreadable: [...r.unreadable].sort(),
  setAside: [r.setAside.count, ...r.setAside.newest.map((p) => keyOf(p.id)).sort()],
});

describe('the upstream reconciles transfers incrementally (a floor that runs for weeks)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'upstream-transfers-incremental-'));
  const ledgers = new Map<TableId, Ledger>();
  const hosts = new Map<TableId, TransferHost>();
  const wire: { from: TableId; to: TableId; message: unknown }[] = [];
  let db: Db;
  /** Journal rows the reconciliation read through `counted`. */
  let journalRows = 0;
  const counted: Sql = {
    async query<T>(text: string, params?: unknown[]) {
      const r = await db.query<T>(text, params);
      if (/\bFROM journal\b/.test(text)) journalRows += r.rows.length;
      return r;
    },
    exec: (text) => db.exec(text),
  };
  const host = (t: TableId) => {
    const h = hosts.get(t);
    assert.ok(h);
    return h;
  };
  const deliver = () => {
    while (wire.length) {
      const w = wire.shift();
      if (w) host(w.to).receive(w.from, w.message);
    }
  };
  async function sync(t: TableId): Promise<void> {
    const ledger = ledgers.get(t);
    assert.ok(ledger);
    const held = Number((await db.query<{ seq: number }>('SELECT seq FROM heads WHERE terminal_id = $1', [t])).rows[0]?.seq ?? 0);
    const entries = [...ledger.entries(held + 1)].map((e) => ({ seq: e.seq, hash: e.hash, body: e.body }));
    const first = ledger.entry(held + 1);
    if (!first) return;
    const r = await ingest(db, { terminalId: t, prevHash: first.prevHash, entries });
    assert.equal(r.status, 200, JSON.stringify(r));
  }
  before(async () => {
    for (const t of [BAC, WAR]) {
      const ledger = Ledger.open({ dataDir: path.join(dir, t), terminalId: t });
      ledgers.set(t, ledger);
      ledger.append(billCredit(STATION, 100_000, `${t}-note`));
      hosts.set(
        t,
        new TransferHost({
          self: t,
          currency: 'MOP',
          homes: { [STATION]: BAC },
          journal: new LedgerTransferJournal(ledger),
          send: (o) => wire.push({ from: t, to: o.to, message: o.message }),
          alarm: () => undefined,
        }),
      );
    }
    db = (await openDatabase('pglite')).db;
    for (const t of [BAC, WAR]) await enrolTerminal(db, t);
  });

  after(async () => {
    await db.close();
    for (const l of ledgers.values()) l.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads only what synced since its last run, and pairs it as a run over everything does', async () => {
    const reconciler = new TransferReconciler();
    // Twenty transfers there and back, each completed at both ends.
    for (let i = 0; i < 10; i++) {
      assert.deepEqual(host(BAC).start(STATION, WAR, 100), {});
      deliver();
      assert.deepEqual(host(WAR).start(STATION, BAC, 100), {});
      deliver();
    }
    // One whose offer is lost: bac's two people settle it as returned, war silent.
    assert.deepEqual(host(BAC).start(STATION, WAR, 700), {});
    const lost = wire.splice(0);
    const id = { origin: BAC, serial: 11 };
    assert.deepEqual(host(BAC).settle({ id, as: 'reversed', settled: { by: ['Ana Lei', 'Bo Chan'], reference: 'INC-1' }, receiverAnswers: false }), {});
    deliver();
    await sync(BAC);
    await sync(WAR);

    journalRows = 0;
    const first = await reconciler.run(counted, watch);
    const firstRead = journalRows;
    assert.deepEqual(digest(first), digest(await reconcileTransfers(db, watch)));
    assert.equal(first.transfers, 21);
    assert.equal(first.completed, 20);
    assert.equal(first.reversed, 1);
    assert.deepEqual(first.disagreements, []);
    assert.ok(firstRead >= 62, `the first run read ${firstRead} journal rows`);

    // Nothing new: nothing read again (before: every transfer entry, at every run).
    journalRows = 0;
    const again = await reconciler.run(counted, watch);
    assert.deepEqual(digest(again), digest(first));
    assert.ok(journalRows <= 2, `a run with nothing new read ${journalRows} journal rows (the first read ${firstRead})`);

    // Two more, synced: only their entries are read.
    assert.deepEqual(host(BAC).start(STATION, WAR, 100), {});
    deliver();
    assert.deepEqual(host(BAC).start(STATION, WAR, 100), {});
    deliver();
    await sync(BAC);
    await sync(WAR);
    journalRows = 0;
    const more = await reconciler.run(counted, watch);
    assert.deepEqual(digest(more), digest(await reconcileTransfers(db, watch)));
    assert.equal(more.transfers, 23);
    assert.ok(journalRows <= 8, `two transfers read ${journalRows} journal rows`);

    // The lost offer reaches war at last, which takes it: the station's credit at both tables.
    for (const w of lost) host(w.to).receive(w.from, w.message);
    wire.length = 0;
    await sync(WAR);
    const late = await reconciler.run(counted, watch);
    assert.deepEqual(digest(late), digest(await reconcileTransfers(db, watch)));
    assert.deepEqual(
      late.disagreements.map((d) => [keyOf(d.id), d.disagreements, d.net, d.settled?.reference]),
      [[keyOf(id), ['taken-and-reversed'], 700, 'INC-1']],
    );
    assert.ok(late.raised >= 1);
    assert.ok((await alarms(db)).some((a) => a.kind === 'transfer-disagreement' && (a.detail as { id: { serial: number } }).id.serial === 11));
  });
});

// A review of the change: the kept reconciler held every unreadable transfer entry it ever read,
// for as long as the service ran (each is raised at its ingest already).
describe('the kept reconciler names the newest unreadable transfer entries, not every one', () => {
  it(`keeps the newest ${UNREADABLE_KEPT}`, async () => {
    const db = (await openDatabase('pglite')).db;
    try {
      const t = TableId.parse('liar-1');
      await enrolTerminal(db, t);
      let prev = genesisHash(t);
      const entries = Array.from({ length: UNREADABLE_KEPT + 5 }, (_, i) => {
        const body = lyingBody(t, i + 1, {
          type: 'transfer.in',
          ts: new Date().toISOString(),
          payload: { transfer: { id: { origin: t, serial: i + 1 }, currency: 'MOP', station: STATION, from: t, to: BAC, amount: 100 }, junk: 1 },
        });
        prev = chainHash(prev, sha256Hex(body));
        return { seq: i + 1, hash: prev, body };
      });
      assert.equal((await ingest(db, { terminalId: t, prevHash: genesisHash(t), entries })).status, 200);
      const reconciler = new TransferReconciler();
      const r = await reconciler.run(db, watch);
      assert.equal(r.unreadable.length, UNREADABLE_KEPT);
      assert.match(r.unreadable.at(-1) ?? '', new RegExp(`seq ${UNREADABLE_KEPT + 5}:`));
      assert.match(r.unreadable[0] ?? '', /seq 6:/);
    } finally {
      await db.close();
    }
  });
});

// An upstream review: the kept reconciler held every id that never closes (a debit never credited,
// refused or settled; a credit nobody debited) with all its entries, paired it again at every run
// and listed it in every report, for as long as the service ran: a table whose key leaked grew it
// by each debit it journalled. Now an id whose newest entry the upstream received longer ago than
// SET_ASIDE_AFTER_SECONDS is set aside: alarmed, its entries dropped, named among the newest
// SET_ASIDE_KEPT set aside, counted.
describe('the kept reconciler sets aside the ids that never close', () => {
  it(`holds the entries of the last ${SET_ASIDE_AFTER_SECONDS / 86_400} days' ids only, names the newest ${SET_ASIDE_KEPT} set aside, alarms each`, async () => {
    const db = (await openDatabase('pglite')).db;
    try {
      const t = TableId.parse('liar-2');
      await enrolTerminal(db, t);
      let prev = genesisHash(t);
      let seq = 0;
      /** `n` debits of the liar's own ids to bac, never closed; the first `future` dated by a clock years ahead. */
      const send = async (n: number, future = 0) => {
        const prevHash = prev;
        const entries = Array.from({ length: n }, (_, i) => {
          seq++;
          const ts = i < future ? '2099-01-01T00:00:00.000Z' : new Date().toISOString();
          const body = lyingBody(t, seq, {
            type: 'transfer.out',
            ts,
            payload: { transfer: { id: { origin: t, serial: seq }, currency: 'MOP', station: STATION, from: t, to: BAC, amount: 100 } },
          });
          prev = chainHash(prev, sha256Hex(body));
          return { seq, hash: prev, body };
        });
        const r = await ingest(db, { terminalId: t, prevHash, entries });
        assert.equal(r.status, 200, JSON.stringify(r));
      };
      const reconciler = new TransferReconciler();
      const sizes: string[] = [];
      let report: TransferReport | undefined;
      // A week and a day between runs, by the upstream's clock: each run's batch received at its run's time.
      const start = Date.now();
      const at = (run: number) => new Date(start + run * (SET_ASIDE_AFTER_SECONDS + 86_400) * 1000);
      for (let run = 0; run < 4; run++) {
        const from = seq;
        await send(500, run === 0 ? 5 : 0);
        await db.query('UPDATE journal SET received_at = $3 WHERE terminal_id = $1 AND seq > $2', [t, from, at(run)]);
        report = await reconciler.run(db, watch, at(run));
        sizes.push(`run ${run + 1}: open listed ${report.open.length}, held ${JSON.stringify(reconciler.held())}`);
      }
      console.log(sizes.join('\n'));
      assert.ok(report);
      // The last run's 500 are open and listed; the 1,500 before set aside, the newest 1,000 named.
      assert.equal(report.open.length, 500);
      assert.equal(report.transfers, 2000);
      assert.equal(report.setAside.count, 1500);
      assert.equal(report.setAside.newest.length, SET_ASIDE_KEPT);
      assert.equal(Math.min(...report.setAside.newest.map((p) => p.id.serial)), 501);
      assert.ok(report.setAside.newest.every((p) => p.sender === 'open' && p.receiver === 'none'));
      assert.deepEqual(reconciler.held(), { ids: 500, entries: 500, setAsideNamed: SET_ASIDE_KEPT });
      // Every id was alarmed open too long, the five dated in 2099 (never open by their table's clock) when set aside.
      const open = (await alarms(db, t, 5000)).filter((a) => a.kind === 'transfer-open-too-long');
      assert.equal(open.length, 2000);
      const serials = new Set(open.map((a) => (a.detail as { id: { serial: number } }).id.serial));
      assert.deepEqual(
        [1, 2, 3, 4, 5].filter((n) => serials.has(n)),
        [1, 2, 3, 4, 5],
      );
      // A later entry of an id set aside is paired with its debit, as a reading of everything pairs it.
      const close = lyingBody(t, seq + 1, {
        type: 'transfer.reverse',
        ts: new Date().toISOString(),
        payload: {
          transfer: { id: { origin: t, serial: 1 }, currency: 'MOP', station: STATION, from: t, to: BAC, amount: 100 },
          settled: { by: ['ana', 'rui'], reference: 'INC-2' },
        },
      });
      const hash = chainHash(prev, sha256Hex(close));
      assert.equal((await ingest(db, { terminalId: t, prevHash: prev, entries: [{ seq: seq + 1, hash, body: close }] })).status, 200);
      await db.query('UPDATE journal SET received_at = $3 WHERE terminal_id = $1 AND seq > $2', [t, seq, at(3)]);
      const late = await reconciler.run(db, watch, at(3));
      assert.equal(late.reversed, 1);
      assert.deepEqual(late.disagreements, []);
      assert.equal(late.setAside.count, 1499);
      assert.deepEqual(digest(late), digest(await reconcileTransfers(db, watch, at(3))));
    } finally {
      await db.close();
    }
  });
});

// Tables that journal whatever they like (keys leaked): most steps the next entry of an id's honest
// course (a debit, the receiver's credit or refusal, the sender's closing; or a closing two people
// settled with the receiver silent), the rest a lie (any part of any id, by any table, on any
// terms), synced in any order; after each step a reconciler kept across runs answers what a run
// over everything answers, lies on closed ids included.
describe('the incremental reconciliation pairs as a run over everything, whatever the tables journal', () => {
  let db: Db;
  before(async () => {
    db = (await openDatabase('pglite')).db;
  });
  after(async () => {
    await db.close();
  });

  const SERIALS = 2;
  const TYPES = ['transfer.out', 'transfer.complete', 'transfer.reverse', 'transfer.in', 'transfer.refuse', 'transfer.recall'] as const;
  const step = fc.record({
    origin: fc.nat(2),
    serial: fc.integer({ min: 1, max: SERIALS }),
    /** A lie (out of 4): `type` by `liar` for `to`, `amount`. */
    lie: fc.nat(3),
    type: fc.constantFrom(...TYPES),
    liar: fc.nat(2),
    to: fc.nat(2),
    amount: fc.constantFrom(100, 200),
    /** The honest receiver takes it (else refuses); the honest sender settles it unanswered. */
    takes: fc.boolean(),
    settles: fc.nat(3),
    run: fc.nat(3),
  });
  let round = 0;

  it('over seeded runs of honest and lying entries', async () => {
    let closedSeen = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 30, maxLength: 60 }), async (steps) => {
        // Each run on an empty journal: the one database's journal and heads emptied (a fresh PGlite
        // is a second of set-up each; kept from run to run, every reading read all the runs before,
        // most of the test's time, each earlier run's ids already checked at its own steps). Its
        // alarms stay (append-only), as they did: they name earlier runs' tables, which no run reuses.
        // The misdated entries go with the journal they are keys of (upstream/ingest/misdated.ts).
        await db.exec('TRUNCATE journal, heads, misdated_entries');
        round++;
        const tables = [0, 1, 2].map((i) => TableId.parse(`t${round}-${i}`));
        const table = (i: number) => tables[i % 3] as TableId;
        const chains = new Map<string, { seq: number; prev: string }>();
        for (const t of tables) {
          await enrolTerminal(db, t);
          chains.set(t, { seq: 0, prev: genesisHash(t) });
        }
        /** Each id's honest course so far. */
        const course = new Map<string, 'out' | 'taken' | 'refused' | 'closed'>();
        const reconciler = new TransferReconciler();
        const now = new Date();
        const journal = async (by: TableId, type: string, payload: unknown) => {
          const chain = chains.get(by);
          assert.ok(chain);
          const seq = chain.seq + 1;
          const body = lyingBody(by, seq, { type, ts: now.toISOString(), payload });
          const hash = chainHash(chain.prev, sha256Hex(body));
          const r = await ingest(db, { terminalId: by, prevHash: chain.prev, entries: [{ seq, hash, body }] });
          assert.equal(r.status, 200, JSON.stringify(r));
          chains.set(by, { seq, prev: hash });
        };
        for (const s of steps) {
          const from = table(s.origin);
          const id = { origin: from, serial: s.serial };
          const settled = { by: ['ana', 'rui'], reference: 'INC-9' };
          if (s.lie === 0) {
            const transfer = { id, currency: 'MOP', station: STATION, from, to: table(s.to), amount: s.amount };
            const payload =
              s.type === 'transfer.refuse' || s.type === 'transfer.recall'
                ? { id, ...(s.type === 'transfer.refuse' ? { reason: 'unknown-station' } : {}) }
                : s.type === 'transfer.reverse'
                  ? { transfer, ...(s.takes ? { settled } : { reason: 'unknown-station' }) }
                  : { transfer };
            await journal(table(s.liar), s.type, payload);
          } else {
            // The id's own terms: to the next table, for 100 a serial.
            const transfer = { id, currency: 'MOP', station: STATION, from, to: table(s.origin + 1), amount: 100 * s.serial };
            const k = keyOf(id);
            const now = course.get(k);
            if (now === undefined) {
              await journal(from, 'transfer.out', { transfer });
              course.set(k, 'out');
            } else if (now === 'out' && s.settles === 0) {
              await journal(from, 'transfer.reverse', { transfer, settled });
              course.set(k, 'closed');
            } else if (now === 'out') {
              await journal(transfer.to, s.takes ? 'transfer.in' : 'transfer.refuse', s.takes ? { transfer } : { id, reason: 'unknown-station' });
              course.set(k, s.takes ? 'taken' : 'refused');
            } else if (now === 'taken' || now === 'refused') {
              await journal(
                from,
                now === 'taken' ? 'transfer.complete' : 'transfer.reverse',
                now === 'taken' ? { transfer } : { transfer, reason: 'unknown-station' },
              );
              course.set(k, 'closed');
            }
          }
          if (s.run === 0) assert.deepEqual(digest(await reconciler.run(db, watch, now)), digest(await reconcileTransfers(db, watch, now)));
        }
        const full = await reconcileTransfers(db, watch, now);
        closedSeen += full.completed + full.reversed;
        assert.deepEqual(digest(await reconciler.run(db, watch, now)), digest(full));
      }),
      // Each run empties the journal first, so a failing run shrinks as one on its own would.
      { seed: 20261130, numRuns: 25 },
    );
    // The runs closed transfers (so some were forgotten, and lies came after some of them).
    assert.ok(closedSeen > 50, `${closedSeen} closings`);
  });
});
