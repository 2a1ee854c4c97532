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
import { billCredit } from './fixtures.js';
import { ledgerFile, openLedger, verifyLedger } from './index.js';

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

        assert.throws(() => ledger.append(billCredit(1, 50000, 'note-2')), new RegExp(`ledger write lost: .*${skip.table}`));
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
