// Issue 29 item 1: `etg ledger verify` refuses at least what the host's start refuses, and the
// default (from the checkpoint) and `--full` differ only in how far back they replay, never in what
// they refuse. Each tamper is done with the kiosk user's file access, by hand in SQLite, on a ledger
// written by the ledger's own code.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { openExistingLedger, openLedger } from '../../ledger/index.js';
import { alterSchemaInFile, deleteLastEntryInFile, dropTriggersInFile, plantSchemaRowInFile } from '../../ledger/testing/tamper.js';
import { appendSynthetic } from '../../ledger/testing/synthetic.js';

const root = mkdtempSync(path.join(tmpdir(), 'ledger-tamper-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A data folder with a ledger of `entries` synthetic entries, closed cleanly. */
function folder(name: string, entries = 40): string {
  const dir = path.join(root, name);
  const ledger = openLedger(dir, 'T1');
  appendSynthetic(ledger, entries, { batch: 3 });
  ledger.close();
  return dir;
}

function verify(dir: string, full: boolean): { code: number | null; out: string } {
  const r = spawnSync(process.execPath, ['bin/etg.js', 'ledger', 'verify', '--data-dir', dir, ...(full ? ['--full'] : [])], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout + r.stderr };
}

function startRefuses(dir: string, pattern: RegExp): void {
  assert.throws(() => openExistingLedger(dir).close(), pattern, 'the start (a writer opening the ledger) refuses');
}

const CASES: { name: string; edit: (dir: string) => void; says: RegExp }[] = [
  {
    name: 'the last entry deleted (its triggers lifted and put back word for word), the head mark left as it was',
    edit: (dir) => void deleteLastEntryInFile(dir),
    says: /rollback/i,
  },
  { name: 'the append-only triggers dropped', edit: (dir) => dropTriggersInFile(dir, ['journal_no_update', 'journal_no_delete']), says: /trigger/i },
  { name: 'a table altered (a column added)', edit: (dir) => alterSchemaInFile(dir, 'ALTER TABLE journal ADD COLUMN note TEXT'), says: /schema/i },
  // Both triggers below drop every later entry's outbox row unseen: the entries are journalled and
  // never sent upstream. Before, the check listed only names NOT LIKE 'sqlite_%', and LIKE reads `_`
  // as any one character and ignores case: so it passed `sqliteAudit` (plain SQL) and `sqlite_sync`
  // (written into the schema table), and the start and verify said nothing.
  {
    name: 'a trigger hidden behind a name LIKE sqlite_% (sqliteAudit: plain CREATE TRIGGER)',
    edit: (dir) => alterSchemaInFile(dir, 'CREATE TRIGGER sqliteAudit BEFORE INSERT ON outbox BEGIN SELECT RAISE(IGNORE); END'),
    says: /trigger sqliteAudit is not one the migrations create/,
  },
  {
    name: "a trigger named as SQLite's own (sqlite_sync), written into sqlite_schema with writable_schema",
    edit: (dir) =>
      plantSchemaRowInFile(dir, {
        type: 'trigger',
        name: 'sqlite_sync',
        table: 'outbox',
        sql: 'CREATE TRIGGER sqlite_sync BEFORE INSERT ON outbox BEGIN SELECT RAISE(IGNORE); END',
      }),
    says: /trigger sqlite_sync is not one the migrations create/,
  },
];

describe('etg ledger verify refuses what the start refuses (issue 29 item 1)', () => {
  for (const [i, c] of CASES.entries()) {
    it(c.name, () => {
      const dir = folder(`case-${i}`);
      assert.equal(verify(dir, false).code, 0, 'the untouched ledger verifies (the control)');
      c.edit(dir);
      for (const full of [false, true]) {
        const r = verify(dir, full);
        assert.equal(r.code, 1, `verify${full ? ' --full' : ''} exits 1: ${r.out}`);
        assert.match(r.out, c.says, r.out);
      }
      startRefuses(dir, c.says);
    });
  }
});
