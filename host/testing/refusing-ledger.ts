import type { Ledger } from '../../ledger/index.js';

/**
 * The next write of an entry of `type` refused as a full disk refuses it (SQLite's SQLITE_FULL
 * thrown before anything is written), once; every other write goes through. A batch
 * (`appendMany`) holding such an entry is refused whole, as SQLite's one transaction is. For tests
 * of a path that journals two entries, where the journal may take the first and refuse the second.
 */
export function refusingOnce(ledger: Ledger, type: string): void {
  const appendMany = ledger.appendMany.bind(ledger);
  let armed = true;
  // `append` is `appendMany` of one (ledger.ts), so patching the batch covers both; both patched
  // all the same, should that ever change.
  const refuse = (entries: readonly { type: string }[]) => {
    if (armed && entries.some((e) => e.type === type)) {
      armed = false;
      throw new Error('SQLITE_FULL: database or disk is full');
    }
  };
  ledger.appendMany = (entries) => {
    refuse(entries);
    return appendMany(entries);
  };
  const append = ledger.append.bind(ledger);
  ledger.append = (entry) => {
    refuse([entry]);
    return append(entry);
  };
}
