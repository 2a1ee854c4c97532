// The schema check against rows that SQLite's own names would hide, and against the statistics an
// ANALYZE leaves (ledger/schema-check.ts). tests/security/ledger-tamper-verify.test.ts plays the same
// attacks through the start and `etg ledger verify`.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite from 'better-sqlite3';
import { after, describe, it } from 'node:test';
import { billCredit } from './fixtures.js';
import { ledgerFile, openLedger } from './index.js';
import { schemaProblems } from './schema-check.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'schema-check-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A closed ledger's file with one note credited, opened by hand. */
function ledgerByHand(name: string): BetterSqlite.Database {
  const dir = path.join(root, name);
  const ledger = openLedger(dir, 'T1');
  ledger.append(billCredit(1, 10000, 'note-1'));
  ledger.close();
  return new BetterSqlite(ledgerFile(dir));
}

describe('the schema check', () => {
  it('passes the ledger its migrations made, and the same after an ANALYZE (statistics only)', () => {
    const db = ledgerByHand('analyze');
    try {
      assert.deepEqual(schemaProblems(db), []);
      db.exec('ANALYZE');
      assert.ok(db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'sqlite_stat1'").get(), 'the statistics table is there');
      assert.deepEqual(schemaProblems(db), []);
    } finally {
      db.close();
    }
  });

  it("names a trigger written into sqlite_schema under a statistics table's name, which SQLite loads and runs", () => {
    const db = ledgerByHand('stat-name');
    try {
      db.unsafeMode(true);
      db.pragma('writable_schema = ON');
      db.prepare("INSERT INTO sqlite_schema (type, name, tbl_name, rootpage, sql) VALUES ('trigger', 'sqlite_stat1', 'outbox', 0, ?)").run(
        'CREATE TRIGGER sqlite_stat1 BEFORE INSERT ON outbox BEGIN SELECT RAISE(IGNORE); END',
      );
      db.pragma('writable_schema = OFF');
    } finally {
      db.close();
    }
    const again = new BetterSqlite(db.name);
    try {
      // The attack is real: SQLite loaded the row and runs it.
      again.prepare('INSERT INTO outbox (seq, queued_at) VALUES (99, ?)').run('2026-12-01T00:00:00.000Z');
      assert.equal(again.prepare('SELECT 1 FROM outbox WHERE seq = 99').get(), undefined, 'the planted trigger skipped the row');
      assert.ok(
        schemaProblems(again).some((p) => p.includes('trigger sqlite_stat1 is not one the migrations create')),
        schemaProblems(again).join('\n'),
      );
    } finally {
      again.close();
    }
  });
});
