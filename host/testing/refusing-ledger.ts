import type { Ledger } from '../../ledger/index.js';

/**
 * The next append of an entry of `type` refused as a full disk refuses it (SQLite's SQLITE_FULL
 * thrown before anything is written), once; every other append goes through. For tests of a path
 * that journals two entries one after the other, where the journal may take the first and refuse
 * the second.
 */
export function refusingOnce(ledger: Ledger, type: string): void {
  const append = ledger.append.bind(ledger);
  let armed = true;
  ledger.append = (entry) => {
    if (armed && entry.type === type) {
      armed = false;
      throw new Error('SQLITE_FULL: database or disk is full');
    }
    return append(entry);
  };
}
