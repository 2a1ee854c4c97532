import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { canonicalJson } from './canonical.js';
import { openDatabase } from './db.js';
import { billCredit, settledRound, bet } from './fixtures.js';
import { connectionOf, Ledger } from './ledger.js';
import { ESCROW_RESOLVED_SQL, HANDPAY_CONFIRMED_SQL, LATEST_VERSION, migrate, MIGRATIONS, schemaVersion, TICKET_TYPES } from './migrations.js';
import { UNRESOLVED_ESCROWS } from './floor-queries.js';
import { TableId, transferTxId } from '../terms/transfer-terms.js';
import { verifyLedger } from './verify.js';
import { VALIDATION_SEEN_SQL } from './system-validation-queries.js';
import { redeemApproved, redeemRequest, redeemReturned, redeemStacked, ticketIssue, ticketPrinted } from './ticket-fixtures.js';
import { TICKET_LOG_AT_STATION_SQL, TICKET_LOG_SQL } from './ticket-log.js';
import { eventLogQuery } from './event-log.js';
import { TICKET_ENTRY_TYPES } from '../terms/ticket-terms.js';
import { validationNumber } from '../terms/validation-number.js';

/** A ledger with some of everything, written by the current code. */
function reference(): Ledger {
  const l = Ledger.open({ file: ':memory:', terminalId: 'T-5' });
  for (let s = 1; s <= 3; s++) l.append(billCredit(s, 50000, `b${s}`));
  for (let i = 0; i < 4; i++) {
    const { bets, settle } = settledRound(`r${i}`, [1, 2, 3], 1000, i);
    l.appendMany([...bets, settle]);
  }
  l.append(bet(2, 'r-open', 700, 'open'));
  l.append({ type: 'door.open', payload: { door: 'main' } });
  // AFT transfers of two stations, both directions (migration 10's index).
  for (let i = 0; i < 6; i++) {
    const type = i % 3 === 2 ? 'aft.out' : 'aft.in';
    const station = 1 + (i % 2);
    l.append({ type, payload: { station, transactionId: `A${i}`, amount: 100 + i, requested: 100 + i, assetNumber: 7 }, txId: `aft:${station}:A${i}` });
  }
  l.append({ type: 'meter.clear', payload: { who: 's', authorisation: 'A-1', scope: 'station:1', reason: 'test' } });
  // Notes in escrow: one credited, one returned, one left open (migration 11's index), and a handpay paid.
  const note = { station: 1, device: 'ba-1', denomination: 10_000, currency: 'HKD' };
  const escrows = [0, 1, 2].map(() => l.append({ type: 'bill.escrow', payload: note }).entry.seq);
  l.append({ type: 'bill.credit', txId: 'escrow-credit', payload: { ...note, escrowSeq: escrows[0] } });
  l.append({ type: 'bill.return', payload: { ...note, reason: 'test', escrowSeq: escrows[1] } });
  l.append({ type: 'credit.cancel', txId: 'cancel-1', payload: { station: 1, amount: 5_000, reason: 'test' } });
  l.append({ type: 'handpay.confirm', txId: 'confirm-1', payload: { station: 1, requestTxId: 'cancel-1', amount: 5_000, attendant: 'att-1' } });
  return l;
}

/** A database stopped at `version`, holding the reference journal as that version stored it. */
function atVersion(ref: Ledger, version: number, file = ':memory:'): ReturnType<typeof openDatabase> {
  const db = openDatabase(file, { migrateTo: version });
  assert.equal(schemaVersion(db), version);
  const meta = connectionOf(ref).prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[];
  for (const m of meta) db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run(m.key, m.value);
  const rows = connectionOf(ref).prepare('SELECT * FROM journal ORDER BY seq').all() as Record<string, unknown>[];
  const postings = connectionOf(ref).prepare('SELECT * FROM postings WHERE seq = ? ORDER BY line');
  db.transaction(() => {
    for (const r of rows) {
      for (const p of postings.all(r.seq) as Record<string, unknown>[]) {
        db.prepare('INSERT INTO postings (seq, line, account, amount) VALUES (@seq, @line, @account, @amount)').run(p);
      }
      db.prepare(
        `INSERT INTO journal (seq, ts, tz_offset_min, type, tx_id, round_id, body, content_hash, prev_hash, hash)
        VALUES (@seq, @ts, @tz_offset_min, @type, @tx_id, @round_id, @body, @content_hash, @prev_hash, @hash)`,
      ).run(r);
    }
  })();
  return db;
}

const DERIVED: Record<number, string[]> = {
  2: ['SELECT account, balance FROM balances ORDER BY account', 'SELECT scope, name, value, last_seq FROM meters ORDER BY scope, name'],
  3: ['SELECT * FROM rounds ORDER BY seq', 'SELECT * FROM round_stations ORDER BY station, seq', 'SELECT * FROM round_bets ORDER BY seq'],
  4: ['SELECT seq, queued_at FROM outbox ORDER BY seq', 'SELECT COUNT(*) AS n FROM sync_state'],
  // No checkpoint is backfilled: the first start after it verifies from genesis and writes one.
  5: ['SELECT COUNT(*) AS n FROM checkpoints'],
  // No table: the version says the journal may hold refused notes (tested below).
  6: [],
  // No table: the version says the journal may hold drop counts (tested below).
  7: [],
  // No table: the version says the journal may hold transfers between table hosts (tested below).
  8: [],
  // An index only (its use is tested below); the journal is as it was.
  9: ['SELECT COUNT(*) AS n FROM journal'],
  10: ['SELECT * FROM aft_transfers ORDER BY seq'],
  // Two indexes only (their use is tested below); the journal is as it was.
  11: ['SELECT COUNT(*) AS n FROM journal'],
  // An index only (its use is tested below); the journal is as it was.
  12: ['SELECT COUNT(*) AS n FROM journal'],
  // An index only (its use is tested below); the journal is as it was.
  13: ['SELECT COUNT(*) AS n FROM journal'],
  // No table: the version says the journal may hold refused returns (tested below).
  14: [],
};

describe('migrations', () => {
  it('are numbered 1..N without gaps, and every one has a test below', () => {
    assert.deepEqual(
      MIGRATIONS.map((m) => m.version),
      Array.from({ length: LATEST_VERSION }, (_, i) => i + 1),
    );
    for (const m of MIGRATIONS.slice(1)) assert.ok(DERIVED[m.version], `migration ${m.version} has no test`);
  });

  it('1 (journal and postings) creates the append-only journal with its triggers', () => {
    const db = openDatabase(':memory:', { migrateTo: 1 });
    const triggers = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name").all() as { name: string }[]).map((t) => t.name);
    assert.deepEqual(triggers, [
      'journal_balanced',
      'journal_contiguous',
      'journal_no_delete',
      'journal_no_update',
      'postings_late',
      'postings_no_delete',
      'postings_no_update',
    ]);
    const ref = reference();
    const v1 = atVersion(ref, 1);
    assert.throws(() => v1.prepare('DELETE FROM journal WHERE seq = 1').run(), /append-only/);
    assert.throws(
      () =>
        v1
          .prepare(
            `INSERT INTO journal (seq, ts, tz_offset_min, type, body, content_hash, prev_hash, hash)
      VALUES (999, 'x', 0, 'door.open', '{}', 'c', 'p', 'h')`,
          )
          .run(),
      /contiguous/,
    );
  });

  for (const version of [2, 3, 4, 5, 6, 7, 8, 9, 10]) {
    const m = MIGRATIONS.find((x) => x.version === version);
    it(`${version} (${m?.name}) rebuilds its tables from a journal written at version ${version - 1}`, () => {
      const ref = reference();
      const db = atVersion(ref, version - 1);
      // Bring the tables of the versions before up to date the way the live code would have.
      assert.deepEqual(migrate(db, version), [version]);
      assert.equal(schemaVersion(db), version);
      for (const sql of DERIVED[version] ?? []) {
        assert.equal(canonicalJson(db.prepare(sql).all() as never), canonicalJson(connectionOf(ref).prepare(sql).all() as never), sql);
      }
    });
  }

  it('5 (checkpoints) keeps a checkpoint once written: no update, no delete', () => {
    const ref = reference();
    const db = connectionOf(ref);
    assert.equal(ref.checkpoints.write(), ref.headOf().seq);
    assert.throws(() => db.prepare("UPDATE checkpoints SET state = '{}'").run(), /a checkpoint is final/);
    assert.throws(() => db.prepare('DELETE FROM checkpoints').run(), /a checkpoint is final/);
    // A checkpoint names an entry of the journal.
    assert.throws(
      () => db.prepare("INSERT INTO checkpoints (seq, hash, written_at, has_table, state, signature) VALUES (9999, 'h', 't', 0, '{}', 's')").run(),
      /FOREIGN KEY/,
    );
  });

  it('6 (refused notes): a ledger written at 5 takes refused notes and credits naming their message after it, and verifies', () => {
    const ref = reference();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ledger-mig6-'));
    try {
      const file = path.join(dir, 'ledger.sqlite');
      // Written at 1 and brought to 5 by its migrations (which rebuild the derived tables), then opened by this code.
      atVersion(ref, 1, file).close();
      const at5 = openDatabase(file, { migrateTo: 5 });
      assert.equal(schemaVersion(at5), 5);
      at5.close();
      const l = Ledger.open({ file, terminalId: 'T-5' });
      try {
        assert.equal(schemaVersion(connectionOf(l)), LATEST_VERSION);
        const escrow = l.append({
          type: 'bill.escrow',
          payload: { station: 101, device: 'BA-101', denomination: 10_000, currency: 'MOP' },
          txId: 'BA-101:e1:escrow',
        });
        l.append({
          type: 'bill.credit',
          payload: { station: 101, device: 'BA-101', denomination: 10_000, currency: 'MOP', escrowSeq: escrow.entry.seq, ref: 'm-1' },
          txId: 'BA-101:e1:credit',
        });
        const refused = l.append({
          type: 'bill.refused',
          payload: {
            station: 101,
            device: 'BA-101',
            claim: 'credit',
            reason: 'no-escrow',
            escrowId: 'never',
            denomination: 50_000_000,
            currency: 'HKD',
            suppressed: 3,
          },
        });
        // A security event moves nothing.
        assert.deepEqual((JSON.parse(refused.entry.body) as { postings: unknown[] }).postings, []);
        assert.equal(l.credit(101), 10_000);
        assert.deepEqual(verifyLedger(l).problems, []);
      } finally {
        l.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('7 (cashbox drops): a drop count journals after it when its totals are its notes', () => {
    const l = Ledger.open({ file: ':memory:', terminalId: 'T-7' });
    const drop = {
      station: 3,
      currency: 'MOP',
      notes: [
        { denomination: 10_000, counted: 2, credited: 3 },
        { denomination: 50_000, counted: 1, credited: 1 },
      ],
      counted: 70_000,
      credited: 80_000,
      difference: -10_000,
      authorisedBy: ['Ana Lei (1001)', 'Rui Sá (1002)'],
    };
    const r = l.append({ type: 'cashbox.drop', payload: drop });
    assert.deepEqual((JSON.parse(r.entry.body) as { postings: unknown[] }).postings, []);
    assert.throws(() => l.append({ type: 'cashbox.drop', payload: { ...drop, difference: 0 } }), /totals/);
    assert.throws(
      () => l.append({ type: 'cashbox.drop', payload: { ...drop, notes: [...drop.notes, { denomination: 10_000, counted: 0, credited: 0 }] } }),
      /twice/,
    );
    assert.deepEqual(verifyLedger(l).problems, []);
  });

  it('14 (refused returns): a ledger at 13 takes a refused return after it, which moves nothing and verifies', () => {
    const ref = reference();
    const db = atVersion(ref, 13);
    assert.deepEqual(migrate(db, 14), [14]);
    assert.equal(schemaVersion(db), 14);
    const l = Ledger.open({ file: ':memory:', terminalId: 'T-14' });
    try {
      const escrow = l.append({
        type: 'bill.escrow',
        payload: { station: 101, device: 'BA-101', denomination: 50_000, currency: 'MOP' },
        txId: 'BA-101:e1:escrow',
      });
      const payload = {
        station: 101,
        device: 'BA-101',
        claim: 'return',
        reason: 'escrow-mismatch',
        escrowId: 'e1',
        denomination: 10_000,
        currency: 'MOP',
      } as const;
      const refused = l.append({ type: 'bill.refused', payload: { ...payload, escrowSeq: escrow.entry.seq } });
      assert.deepEqual((JSON.parse(refused.entry.body) as { postings: unknown[] }).postings, []);
      assert.throws(() => l.append({ type: 'bill.refused', payload: { ...payload, claim: 'stack' as never } }), /claim/);
      assert.deepEqual(verifyLedger(l).problems, []);
    } finally {
      l.close();
    }
  });

  it('8 (transfers): a transfer debited, completed, and one credited from another table journal after it and verify', () => {
    const l = Ledger.open({ file: ':memory:', terminalId: 'T-8' });
    l.append(billCredit(3, 10_000, 'b1'));
    const t = {
      id: { origin: TableId.parse('home'), serial: 1 },
      currency: 'MOP',
      station: 3,
      from: TableId.parse('home'),
      to: TableId.parse('war'),
      amount: 4_000,
    };
    const u = { ...t, id: { origin: TableId.parse('war'), serial: 7 }, from: TableId.parse('war'), to: TableId.parse('home'), amount: 1_500 };
    l.append({ type: 'transfer.out', txId: transferTxId('out', t.id), payload: { transfer: t } });
    l.append({ type: 'transfer.complete', txId: transferTxId('close', t.id), payload: { transfer: t } });
    l.append({ type: 'transfer.in', txId: transferTxId('decide', u.id), payload: { transfer: u } });
    assert.equal(l.credit(3), 7_500);
    assert.deepEqual(verifyLedger(l).problems, []);
  });

  it('9 (validation numbers): a ledger written at 8 answers whether a number was seen from the index, the same as before it', () => {
    const ref = reference();
    const theirs = validationNumber(77, 12);
    const never = validationNumber(77, 13);
    ref.append(redeemRequest('request-1', theirs, 2));
    const db = atVersion(ref, 8);
    const seen = (v: string) => db.prepare(VALIDATION_SEEN_SQL).get(v) !== undefined;
    const plan = () => (db.prepare(`EXPLAIN QUERY PLAN ${VALIDATION_SEEN_SQL}`).all('x') as { detail: string }[]).map((r) => r.detail).join('; ');
    const before = [seen(theirs), seen(never)];
    assert.doesNotMatch(plan(), /journal_validation/, 'no index before it');
    assert.deepEqual(migrate(db, 9), [9]);
    assert.match(plan(), /USING INDEX journal_validation/, 'a lookup in the index, not a scan');
    assert.deepEqual([seen(theirs), seen(never)], before);
    assert.deepEqual(before, [true, false]);
  });

  it('11 (escrows and handpays resolved): a ledger written at 10 answers whether an escrow or a handpay is resolved from an index, the same as before it', () => {
    const ref = reference();
    const db = atVersion(ref, 10);
    const escrows = db.prepare("SELECT seq FROM journal WHERE type = 'bill.escrow' ORDER BY seq").pluck().all() as number[];
    const answers = () => [
      ...escrows.map((seq) => db.prepare(ESCROW_RESOLVED_SQL).get(seq) !== undefined),
      ...['cancel-1', 'cancel-2'].map((tx) => db.prepare(HANDPAY_CONFIRMED_SQL).get(tx) !== undefined),
      (db.prepare(UNRESOLVED_ESCROWS).all() as { seq: number }[]).map((r) => r.seq),
    ];
    const plan = (sql: string) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...(sql.includes('?') ? [1] : [])) as { detail: string }[]).map((r) => r.detail).join('; ');
    const before = answers();
    assert.deepEqual(before, [true, true, false, true, false, [escrows[2]]]);
    assert.doesNotMatch(plan(ESCROW_RESOLVED_SQL), /journal_escrow/, 'no index before it');
    assert.deepEqual(migrate(db, 11), [11]);
    // Each is a lookup in its index, not a walk of every credit, return or confirm ever journalled.
    assert.match(plan(ESCROW_RESOLVED_SQL), /USING INDEX journal_escrow/);
    assert.match(plan(HANDPAY_CONFIRMED_SQL), /USING INDEX journal_handpay_confirm/);
    assert.match(plan(UNRESOLVED_ESCROWS), /USING INDEX journal_escrow/);
    assert.deepEqual(answers(), before);
  });

  it("12 (ticket entries by station): a ledger written at 11 lists a station's newest ticket entries from the index, the same as before it", () => {
    const ref = reference();
    const rid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    // Station 3 quiet (one ticket out, long ago); stations 1 and 2 busy, out and in.
    ref.append(ticketIssue(validationNumber(7, 1), 1, 1_000, 3));
    ref.append(ticketPrinted(validationNumber(7, 1), 3));
    for (let i = 2; i < 40; i++) {
      const v = validationNumber(7, i);
      const station = 1 + (i % 2);
      if (i % 3 === 0) ref.appendMany([redeemRequest(rid(i), v, station), redeemApproved(rid(i), v, station, 100), redeemStacked(rid(i), v, station, 100)]);
      else if (i % 3 === 1) ref.appendMany([redeemRequest(rid(i), v, station), redeemReturned(rid(i), v, station)]);
      else ref.appendMany([ticketIssue(v, i, 100, station), ticketPrinted(v, station)]);
    }
    const db = atVersion(ref, 11);
    const listed = (station: number, limit: number) => (db.prepare(TICKET_LOG_AT_STATION_SQL).all(station, limit) as { seq: number }[]).map((r) => r.seq);
    const answers = () => [
      listed(1, 12),
      listed(2, 500),
      listed(3, 12),
      listed(4, 12),
      (db.prepare(TICKET_LOG_SQL).all(12) as { seq: number }[]).map((r) => r.seq),
    ];
    const plan = (sql: string) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...(sql.includes('= ?') ? [1, 1] : [1])) as { detail: string }[]).map((r) => r.detail).join('; ');
    const before = answers();
    assert.equal(before[2]?.length, 2, "the quiet station's two entries");
    assert.deepEqual(before[3], [], 'a station with none');
    const all = db.prepare('SELECT type, body FROM journal').all() as { type: string; body: string }[];
    const ofStation2 = all.filter((r) => r.type.startsWith('ticket.') && (JSON.parse(r.body) as { payload: { station: number } }).payload.station === 2);
    assert.equal(before[1]?.length, ofStation2.length, "every entry of station 2's");
    assert.doesNotMatch(plan(TICKET_LOG_AT_STATION_SQL), /journal_ticket_station/, 'no index before it');
    assert.deepEqual(migrate(db, 12), [12]);
    // A walk back from the station's last row in the index: no other station's entry read, no sort.
    assert.match(plan(TICKET_LOG_AT_STATION_SQL), /SEARCH journal USING INDEX journal_ticket_station \(<expr>=\?\)/);
    assert.doesNotMatch(plan(TICKET_LOG_AT_STATION_SQL), /TEMP B-TREE/);
    assert.deepEqual(answers(), before);
  });

  it('13 (entries by time): a ledger written at 12 lists a time window of the event log from the index, the same as before it', () => {
    const ref = reference();
    const db = atVersion(ref, 12);
    const times = (db.prepare('SELECT ts FROM journal ORDER BY seq').pluck().all() as string[]).toSorted();
    const [first, last] = [times[0] ?? '', times.at(-1) ?? ''];
    const filters = [{ from: first, to: last }, { from: first }, { to: last }, { types: ['bill.credit', 'door.open'], from: first, to: last }];
    const listed = () =>
      filters.flatMap((f) =>
        [0, 3].map((offset) => {
          const q = eventLogQuery(f, { offset, limit: 5 });
          return q ? (db.prepare(q.sql).all(...q.args) as { seq: number }[]).map((r) => r.seq) : [];
        }),
      );
    const plan = (f: (typeof filters)[number]) => {
      const q = eventLogQuery(f, { offset: 0, limit: 5 });
      return q ? (db.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...q.args) as { detail: string }[]).map((r) => r.detail).join('; ') : '';
    };
    const before = listed();
    assert.equal(before[0]?.length, 6, 'a whole page and the one that says more follow');
    assert.match(plan({ from: first, to: last }), /TEMP B-TREE/, 'every row of the window read and sorted before it');
    assert.deepEqual(migrate(db, 13), [13]);
    // Walked back from the window's newest time: no row outside it read, no sort, stopped at the page.
    for (const f of filters.slice(0, 3)) {
      assert.match(plan(f), /SEARCH journal USING INDEX journal_ts \(ts[<>]/, JSON.stringify(f));
      assert.doesNotMatch(plan(f), /TEMP B-TREE/, JSON.stringify(f));
    }
    assert.deepEqual(listed(), before);
  });

  it('12: its index covers every ticket entry type there is (a type added needs a migration that adds it)', () => {
    assert.deepEqual(
      TICKET_TYPES.match(/'[^']+'/g)?.map((t) => t.slice(1, -1)),
      [...TICKET_ENTRY_TYPES],
    );
  });

  it("10 (aft transfers): the index holds each transfer's place and cumulative, and verification names a row that differs", () => {
    const ref = reference();
    const db = connectionOf(ref);
    const rows = db.prepare('SELECT station, direction, ordinal, cumulative FROM aft_transfers ORDER BY seq').raw(true).all();
    assert.deepEqual(rows, [
      [1, 'aft.in', 1, 100],
      [2, 'aft.in', 1, 101],
      [1, 'aft.out', 2, 102],
      [2, 'aft.in', 2, 101 + 103],
      [1, 'aft.in', 3, 100 + 104],
      [2, 'aft.out', 3, 105],
    ]);
    assert.deepEqual(verifyLedger(ref).problems, []);
    // From a checkpoint: the rows after it, each against the stored row before it.
    assert.equal(ref.checkpoints.write(), ref.headOf().seq);
    for (let i = 6; i < 9; i++) {
      ref.append({ type: 'aft.in', payload: { station: 2, transactionId: `A${i}`, amount: 10, requested: 10, assetNumber: 7 }, txId: `aft:2:A${i}` });
    }
    assert.deepEqual(db.prepare('SELECT ordinal, cumulative FROM aft_transfers WHERE station = 2 ORDER BY seq DESC LIMIT 1').raw(true).get(), [
      6,
      101 + 103 + 30,
    ]);
    assert.deepEqual(verifyLedger(ref, { from: 'checkpoint' }).problems, []);
    db.prepare('UPDATE aft_transfers SET ordinal = 9 WHERE ordinal = 6 AND station = 2').run();
    assert.match(verifyLedger(ref, { from: 'checkpoint' }).problems.join('; '), /aft transfers: stored rows the journal does not give/);
    db.prepare('UPDATE aft_transfers SET ordinal = 6 WHERE ordinal = 9 AND station = 2').run();
    db.prepare('UPDATE aft_transfers SET cumulative = cumulative + 1 WHERE ordinal = 3 AND station = 2').run();
    assert.match(verifyLedger(ref).problems.join('; '), /aft transfers: stored rows the journal does not give/);
  });

  it('a database file migrated from version 1 opens as a ledger and verifies like the one written live', () => {
    const ref = reference();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ledger-mig-'));
    try {
      const file = path.join(dir, 'ledger.sqlite');
      atVersion(ref, 1, file).close();
      const l = Ledger.open({ file, terminalId: 'T-5' });
      assert.equal(schemaVersion(connectionOf(l)), LATEST_VERSION);
      const report = verifyLedger(l);
      assert.deepEqual(report.problems, []);
      assert.deepEqual(l.headOf(), ref.headOf());
      assert.deepEqual(l.meters(), ref.meters());
      assert.deepEqual(l.rounds.recall({ station: 2, limit: 500 }), ref.rounds.recall({ station: 2, limit: 500 }));
      // Nothing was acknowledged yet: every entry waits in the outbox.
      assert.equal((connectionOf(l).prepare('SELECT COUNT(*) AS n FROM outbox').get() as { n: number }).n, ref.headOf().seq);
      l.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
