// The rows an append writes, counted. A BEFORE trigger that says `RAISE(IGNORE)` makes SQLite skip
// the row and report success; one planted while the host runs (the schema check, ledger/schema-check.ts,
// runs at the start) would have an entry acknowledged that was never journalled, or journalled and
// never queued upstream. A statement's `changes` counts its own rows, not a trigger's.
import type Database from 'better-sqlite3';

export class LedgerWriteLost extends Error {
  override name = 'LedgerWriteLost';
}

/** Throws unless the statement wrote exactly one row: inside the append's transaction, so nothing of it is kept. */
export function wroteOne(info: Database.RunResult, table: string, seq: number): void {
  if (info.changes !== 1)
    throw new LedgerWriteLost(
      `ledger write lost: the ${table} row of entry ${seq} was not written (${info.changes} rows); a trigger that is not the ledger's own is the likely cause (etg ledger verify names it); nothing of the entry was kept`,
    );
}
