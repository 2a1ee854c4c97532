// The rows an append writes, counted. A BEFORE trigger that says `RAISE(IGNORE)` makes SQLite skip
// the row and report success; one planted while the host runs (the schema check, ledger/schema-check.ts,
// runs at the start) would have an entry acknowledged that was never journalled, or journalled and
// never queued upstream. A statement's `changes` counts its own rows, not a trigger's.
import type Database from 'better-sqlite3';
import { schemaProblems } from './schema-check.js';

export class LedgerWriteLost extends Error {
  override name = 'LedgerWriteLost';
}

/**
 * Who hears of an append refused as `LedgerWriteLost` (the host: its `ledger-integrity` fault).
 * Kept beside the ledger rather than on it, keyed by the ledger: the appender is told by the
 * throw, but a refusal inside a group commit or a listener's append reaches no one who can halt
 * the table, and the schema stays wrong for every append after it.
 */
const writeLostListeners = new WeakMap<object, Set<(e: LedgerWriteLost) => void>>();

/** Calls `listener` at each append of `ledger` refused as `LedgerWriteLost`; returns its removal. */
export function onLedgerWriteLost(ledger: object, listener: (e: LedgerWriteLost) => void): () => void {
  const set = writeLostListeners.get(ledger) ?? new Set();
  writeLostListeners.set(ledger, set);
  set.add(listener);
  return () => set.delete(listener);
}

/** Tells the listeners of `ledger`; one that throws is not the appender's fault (its own throw follows). */
export function tellWriteLost(ledger: object, e: LedgerWriteLost): void {
  for (const l of writeLostListeners.get(ledger) ?? []) {
    try {
      l(e);
    } catch {
      // The append's own refusal is thrown next all the same.
    }
  }
}

/** Throws unless the statement wrote exactly one row: inside the append's transaction, so nothing of it is kept. */
export function wroteOne(info: Database.RunResult, table: string, seq: number): void {
  if (info.changes !== 1)
    throw new LedgerWriteLost(
      `ledger write lost: the ${table} row of entry ${seq} was not written (${info.changes} rows); a trigger that is not the ledger's own is the likely cause (etg ledger verify names it); nothing of the entry was kept`,
    );
}

/**
 * The schema checked again when SQLite's schema cookie moved since the last check (every CREATE,
 * DROP or ALTER by any connection moves it): called under the append's write lock, before it
 * writes, so no schema change can come between the check and the rows. A count of rows cannot see
 * an AFTER trigger that undoes a row already counted, nor a table it does not count; the schema
 * the migrations make has no such trigger. Returns the cookie checked; throws, and the append's
 * transaction keeps nothing, when the schema is not the migrations'.
 */
export function schemaStillChecked(db: Database.Database, checked: number | null): number {
  const cookie = schemaCookie(db);
  if (cookie === checked) return cookie;
  const problems = schemaProblems(db);
  if (problems.length > 0)
    throw new LedgerWriteLost(
      `ledger schema changed while open: ${problems.join('; ')}; nothing of the entry was kept (etg ledger verify names it; a restart refuses the file until it is the migrations' again)`,
    );
  return cookie;
}

/** Prepared once a connection: `db.pragma()` prepares its statement at every call (about 80 µs against 0.5–0.9 µs, measured). */
const cookieReads = new WeakMap<Database.Database, Database.Statement>();

/** SQLite's schema cookie (`PRAGMA schema_version`) as this connection reads it now. */
export function schemaCookie(db: Database.Database): number {
  let read = cookieReads.get(db);
  if (!read) {
    read = db.prepare('PRAGMA schema_version').pluck();
    cookieReads.set(db, read);
  }
  return Number(read.get());
}
