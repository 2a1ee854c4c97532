import assert from 'node:assert/strict';
import { mkdtempSync, openSync, rmSync, statSync, writeSync, closeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { LEDGER_CACHE_KIB, ledgerFile, LedgerOpenError, openDatabase } from './db.js';
import { durability } from './durability.js';
import { billCredit } from './fixtures.js';
import { connectionOf, Ledger } from './ledger.js';
import { LATEST_VERSION, NewerSchemaError } from './migrations.js';
import { withTriggersLifted } from './testing/tamper.js';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'ledger-db-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

describe('opening the ledger database', () => {
  it('runs WAL with synchronous=FULL and foreign keys, on the first and on every later open', () => {
    const dir = path.join(tmp, 'a');
    for (let i = 0; i < 3; i++) {
      const l = Ledger.open({ dataDir: dir, terminalId: 'T-1' });
      assert.deepEqual(durability(l), { journalMode: 'wal', synchronous: 2, foreignKeys: true });
      assert.equal(connectionOf(l).pragma('user_version', { simple: true }), LATEST_VERSION);
      l.append(billCredit(1, 10000, `bill-${i}`));
      l.close();
    }
    // Opened by plain better-sqlite3, the same file runs WAL at NORMAL (1): this is the default
    // the ledger must override, so the check above is not vacuous.
    const raw = new Database(ledgerFile(dir));
    assert.equal(raw.pragma('journal_mode', { simple: true }), 'wal');
    assert.equal(raw.pragma('synchronous', { simple: true }), 1);
    raw.close();
  });

  it("bounds SQLite's page cache to LEDGER_CACHE_KIB on every open, below better-sqlite3's default", () => {
    const dir = path.join(tmp, 'cache');
    for (let i = 0; i < 2; i++) {
      const l = Ledger.open({ dataDir: dir, terminalId: 'T-1' });
      assert.equal(connectionOf(l).pragma('cache_size', { simple: true }), -LEDGER_CACHE_KIB);
      l.close();
    }
    const reader = openDatabase(ledgerFile(dir), { readonly: true });
    assert.equal(reader.pragma('cache_size', { simple: true }), -LEDGER_CACHE_KIB);
    reader.close();
    // Plain better-sqlite3 gives a connection 16,000 KiB (its build's SQLITE_DEFAULT_CACHE_SIZE),
    // which a growing ledger fills: the bound above is the ledger's own, not the default.
    const raw = new Database(ledgerFile(dir));
    assert.equal(raw.pragma('cache_size', { simple: true }), -16000);
    assert.ok(LEDGER_CACHE_KIB < 16000);
    raw.close();
  });

  it('refuses a database written by newer software', () => {
    const dir = path.join(tmp, 'b');
    Ledger.open({ dataDir: dir, terminalId: 'T-1' }).close();
    const raw = new Database(ledgerFile(dir));
    raw.pragma(`user_version = ${LATEST_VERSION + 1}`);
    raw.close();
    assert.throws(() => Ledger.open({ dataDir: dir, terminalId: 'T-1' }), NewerSchemaError);
  });

  it("refuses another terminal's ledger", () => {
    const dir = path.join(tmp, 'c');
    Ledger.open({ dataDir: dir, terminalId: 'T-1' }).close();
    assert.throws(() => Ledger.open({ dataDir: dir, terminalId: 'T-2' }), LedgerOpenError);
  });

  it('re-hashes the newest entries on open and stops on a tampered tail', () => {
    const dir = path.join(tmp, 'e');
    const l = Ledger.open({ dataDir: dir, terminalId: 'T-1' });
    for (let i = 0; i < 20; i++) l.append(billCredit(1, 10000, `bill-${i}`));
    l.close();
    const raw = new Database(ledgerFile(dir));
    withTriggersLifted(raw, ['journal_no_update'], () =>
      raw.prepare(`UPDATE journal SET body = replace(body, '"denomination":10000', '"denomination":90000') WHERE seq = 15`).run(),
    );
    raw.close();
    assert.throws(() => Ledger.open({ dataDir: dir, terminalId: 'T-1' }), /integrity failure: journal entry 15/);
  });

  it('stops on a corrupt database file', () => {
    const dir = path.join(tmp, 'd');
    const l = Ledger.open({ dataDir: dir, terminalId: 'T-1' });
    for (let i = 0; i < 200; i++) l.append(billCredit(1 + (i % 7), 10000, `bill-${i}`));
    connectionOf(l).pragma('wal_checkpoint(TRUNCATE)');
    l.close();
    const file = ledgerFile(dir);
    const size = statSync(file).size;
    assert.ok(size > 8192);
    const fd = openSync(file, 'r+');
    // Scribble over every page but the first (the header): b-tree pages no longer parse.
    const junk = Buffer.alloc(size - 4096, 0xa5);
    writeSync(fd, junk, 0, junk.length, 4096);
    closeSync(fd);
    assert.throws(
      () => openDatabase(file),
      (e: unknown) => e instanceof Error && /corrupt|malformed|integrity/i.test(e.message),
    );
  });
});
