// Test-only: damage a ledger the way an attacker or a failing disk would, so that tests can check
// that verification, the start-up tail check and the host's halt catch it. Nothing the kiosk
// runs imports this (tests/lint/ledger-private.test.ts holds that), and `ledger/index.ts` does
// not export it.
import { connectionOf, type Ledger } from '../ledger.js';

/**
 * Rewrites `from` to `to` in the body of entry `seq`, leaving its hashes as they were. The
 * trigger that refuses journal updates is dropped for good (as someone editing the file would),
 * so the ledger stays writable afterwards. Returns whether the body held `from` (and changed).
 */
export function tamperJournalBody(ledger: Ledger, seq: number, from: string, to: string): boolean {
  const db = connectionOf(ledger);
  db.exec('DROP TRIGGER IF EXISTS journal_no_update');
  return db.prepare('UPDATE journal SET body = replace(body, ?, ?) WHERE seq = ? AND instr(body, ?) > 0').run(from, to, seq, from).changes > 0;
}

/** Moves an account's balance projection by `delta` minor units with no entry behind it. */
export function tamperBalance(ledger: Ledger, account: string, delta: number): void {
  const r = connectionOf(ledger).prepare('UPDATE balances SET balance = balance + ? WHERE account = ?').run(delta, account);
  if (r.changes !== 1) throw new Error(`no balance of ${account} to tamper with`);
}

/**
 * Sets one column of checkpoint `seq` to `value` (the triggers that keep checkpoints final are
 * dropped for good, as someone editing the file would). Returns whether a row changed.
 */
export function tamperCheckpoint(
  ledger: Ledger,
  seq: number,
  column: 'seq' | 'hash' | 'written_at' | 'has_table' | 'state' | 'signature',
  value: string | number,
): boolean {
  const db = connectionOf(ledger);
  db.exec('DROP TRIGGER IF EXISTS checkpoints_no_update; DROP TRIGGER IF EXISTS checkpoints_no_delete');
  db.pragma('foreign_keys = OFF');
  try {
    return db.prepare(`UPDATE checkpoints SET ${column} = ? WHERE seq = ?`).run(value, seq).changes > 0;
  } finally {
    db.pragma('foreign_keys = ON');
  }
}

/** Deletes checkpoints from `seq` on (every one by default), as someone editing the file would. */
export function deleteCheckpoints(ledger: Ledger, fromSeq = 0): number {
  const db = connectionOf(ledger);
  db.exec('DROP TRIGGER IF EXISTS checkpoints_no_update; DROP TRIGGER IF EXISTS checkpoints_no_delete');
  return db.prepare('DELETE FROM checkpoints WHERE seq >= ?').run(fromSeq).changes;
}
