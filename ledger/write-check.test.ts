// A trigger planted while the host runs (a second process with the kiosk user's file access; the
// schema check runs only at the start) that silently skips a row the append writes: `RAISE(IGNORE)`
// in a BEFORE trigger makes SQLite report success and write nothing. Before, the append said
// `appended` and the credit was shown: an entry without its outbox row is never sent upstream, a
// credit without its journal row was acknowledged unjournalled. Now the append counts the rows each
// statement wrote, and one missing refuses the whole transaction: nothing is acknowledged.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite from 'better-sqlite3';
import { after, describe, it } from 'node:test';
import { bet, billCredit } from './fixtures.js';
import { ledgerFile, LedgerWriteLost, onLedgerWriteLost, openLedger, verifyLedger, type NewEntry } from './index.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'write-check-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** Each table an append writes, with the triggers that skip its row (a balance is updated after its first posting). */
const SKIPS: { table: string; events: readonly ('INSERT' | 'UPDATE')[] }[] = [
  { table: 'journal', events: ['INSERT'] },
  { table: 'postings', events: ['INSERT'] },
  { table: 'balances', events: ['INSERT', 'UPDATE'] },
  { table: 'meters', events: ['INSERT', 'UPDATE'] },
  { table: 'outbox', events: ['INSERT'] },
];

describe('an append whose row a hidden trigger skipped is refused, whole', () => {
  for (const [i, skip] of SKIPS.entries()) {
    it(`a trigger that skips the ${skip.table} row`, () => {
      const dir = path.join(root, `case-${i}`);
      const ledger = openLedger(dir, 'T1');
      const other = new BetterSqlite(ledgerFile(dir));
      try {
        ledger.append(billCredit(1, 10000, 'note-1'));
        const before = { head: ledger.headOf(), credit: ledger.credit(1) };
        const names = skip.events.map((e) => `sqliteHide${e}`);
        for (const [j, event] of skip.events.entries())
          other.exec(`CREATE TRIGGER ${names[j]} BEFORE ${event} ON ${skip.table} BEGIN SELECT RAISE(IGNORE); END`);

        // Since the schema cookie's check, the trigger is named before any row is written (the rows'
        // count, `wroteOne`, stays behind it).
        assert.throws(
          () => ledger.append(billCredit(1, 50000, 'note-2')),
          /ledger schema changed while open: schema: trigger sqliteHide(INSERT|UPDATE) is not one the migrations create/,
        );
        assert.deepEqual(ledger.headOf(), before.head, 'nothing journalled');
        assert.equal(ledger.credit(1), before.credit, 'no credit shown');
        assert.equal((other.prepare('SELECT COUNT(*) AS n FROM outbox').get() as { n: number }).n, 1, 'nothing queued to send');

        for (const n of names) other.exec(`DROP TRIGGER ${n}`);
        assert.equal(ledger.append(billCredit(1, 50000, 'note-2')).status, 'appended', 'the same note once the trigger is gone');
        assert.equal(ledger.credit(1), 60000);
        const report = verifyLedger(ledger);
        assert.ok(report.ok, report.problems.join('\n'));
      } finally {
        other.close();
        ledger.close();
      }
    });
  }
});

// The review of 1 December: a statement's count is its own rows, so an AFTER trigger undoes a row
// already counted, and the tables counted were five of those an append writes (the open rounds,
// the recall and the AFT index were not). Before: each append below said `appended` (the outbox
// row deleted: an entry never sent upstream; a 50,000 note journalled and 10,000 shown; a bet taken
// whose round a restart's recovery would not void). Now the append reads SQLite's schema cookie
// under its write lock, and a schema changed since the last check is checked again whole.
const PLANTED: { name: string; sql: string; entry: () => NewEntry }[] = [
  {
    name: 'an AFTER INSERT trigger that deletes the outbox row',
    sql: 'CREATE TRIGGER sqliteGone AFTER INSERT ON outbox BEGIN DELETE FROM outbox WHERE seq = NEW.seq; END',
    entry: () => billCredit(1, 50000, 'note-2'),
  },
  {
    name: 'an AFTER UPDATE trigger that puts a balance back',
    sql: 'CREATE TRIGGER sqliteBack AFTER UPDATE ON balances BEGIN UPDATE balances SET balance = OLD.balance WHERE account = NEW.account; END',
    entry: () => billCredit(1, 50000, 'note-2'),
  },
  {
    name: 'a trigger that skips the open round of a bet',
    sql: 'CREATE TRIGGER sqliteNoBet BEFORE INSERT ON round_bets BEGIN SELECT RAISE(IGNORE); END',
    entry: () => bet(1, 'R1', 500, 'R1:bet:1'),
  },
  {
    name: 'a view, harmless itself: the schema is not what the migrations make',
    sql: 'CREATE VIEW credits AS SELECT * FROM balances',
    entry: () => billCredit(1, 50000, 'note-2'),
  },
];

describe('a schema changed while the ledger is open refuses the next append, whole', () => {
  for (const [i, planted] of PLANTED.entries()) {
    it(planted.name, () => {
      const dir = path.join(root, `planted-${i}`);
      const ledger = openLedger(dir, 'T1');
      const other = new BetterSqlite(ledgerFile(dir));
      try {
        ledger.append(billCredit(1, 10000, 'note-1'));
        const before = { head: ledger.headOf(), credit: ledger.credit(1) };
        other.exec(planted.sql);
        const heard: LedgerWriteLost[] = [];
        const off = onLedgerWriteLost(ledger, (e) => heard.push(e));
        assert.throws(
          () => ledger.append(planted.entry()),
          /ledger schema changed while open: schema: (trigger|view) (sqlite\w+|credits) is not one the migrations create/,
        );
        assert.deepEqual(ledger.headOf(), before.head, 'nothing journalled');
        assert.equal(ledger.credit(1), before.credit, 'no credit shown');
        assert.equal((other.prepare('SELECT COUNT(*) AS n FROM outbox').get() as { n: number }).n, 1, 'nothing queued to send');
        assert.equal(heard.length, 1, 'the host hears of the refusal (its ledger-integrity fault), whoever appended');
        assert.ok(heard[0] instanceof LedgerWriteLost);
        off();
        assert.throws(() => ledger.append(planted.entry()), LedgerWriteLost);
        assert.equal(heard.length, 1, 'a listener removed hears nothing');

        other.exec(planted.sql.replace(/^CREATE (TRIGGER|VIEW) (\w+).*$/s, 'DROP $1 $2'));
        assert.equal(ledger.append(planted.entry()).status, 'appended', 'the same entry once the schema is the migrations’ again');
        const report = verifyLedger(ledger);
        assert.ok(report.ok, report.problems.join('\n'));
      } finally {
        other.close();
        ledger.close();
      }
    });
  }
});
