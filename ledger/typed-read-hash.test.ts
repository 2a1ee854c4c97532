// A body rewritten under its hash columns, before the newest checkpoint (a review of 4 December).
// The start verifies from the checkpoint: it re-hashes the newest 256 entries and compares the
// unhashed columns of those before with their bodies, never their bodies with their content
// hashes. But the host reads some old bodies by type and acts on them (the stations' and peers'
// credentials, the service accounts, the transfers): a second process of the kiosk user that
// dropped the journal's trigger, changed such a body and put the trigger back had the host trust
// it. Every read by type (`entriesOfTypes`) now hashes each body it yields against its content
// hash, which the chain and the witness cover, and refuses one that differs.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { billCredit } from './fixtures.js';
import { entriesOfTypes, Ledger } from './index.js';

describe('a body read by type, rewritten under its hash columns', () => {
  it('is refused, naming the entry; an untouched journal reads as before', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'typed-read-'));
    try {
      const ledger = Ledger.open({ file: path.join(dir, 'ledger.sqlite'), terminalId: 'T-RW' });
      ledger.append({ type: 'station.credential', payload: { station: 1001, action: 'enrol', by: ['ana', 'rui'], credential: 'a'.repeat(64) } });
      for (let i = 0; i < 300; i++) ledger.append(billCredit(1, 100, `n${i}`));
      assert.equal([...entriesOfTypes(ledger, ['station.credential'])].length, 1);
      ledger.close();
      const db = new Database(path.join(dir, 'ledger.sqlite'));
      const trigger = (db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'journal_no_update'").pluck().get() as string) ?? '';
      db.exec('DROP TRIGGER journal_no_update');
      const body = db.prepare("SELECT body FROM journal WHERE type = 'station.credential'").pluck().get() as string;
      const forged = body.replace('a'.repeat(64), 'f'.repeat(64));
      assert.notEqual(forged, body);
      db.prepare("UPDATE journal SET body = ? WHERE type = 'station.credential'").run(forged);
      db.exec(trigger);
      db.close();
      // Opened as the start opens it: the tail check covers the newest 256 only.
      const again = Ledger.open({ file: path.join(dir, 'ledger.sqlite'), terminalId: 'T-RW' });
      try {
        // Before: the forged credential was read as the table's.
        assert.throws(() => [...entriesOfTypes(again, ['station.credential'])], /entry 1 .*does not hash to its content hash/);
        assert.equal([...entriesOfTypes(again, ['bill.credit'])].length, 300);
      } finally {
        again.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
