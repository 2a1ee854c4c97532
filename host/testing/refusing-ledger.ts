import type { Ledger } from '../../ledger/index.js';

/**
 * The next write of an entry of `type` refused as a full disk refuses it (SQLite's SQLITE_FULL
 * thrown before anything is written), once; every other write goes through. A batch
 * (`appendMany`) holding such an entry is refused whole, as SQLite's one transaction is. For tests
 * of a path that journals two entries, where the journal may take the first and refuse the second.
 */
export function refusingOnce(ledger: Ledger, type: string): void {
  let armed = true;
  refuseWrites(ledger, (entries) => {
    if (armed && entries.some((e) => e.type === type)) {
      armed = false;
      throw new Error('SQLITE_FULL: database or disk is full');
    }
  });
}

/**
 * Puts `refuse` (which throws to refuse) before every write of `ledger`. `append` is `appendMany`
 * of one (ledger.ts), so patching the batch covers both; both patched all the same, should that
 * ever change.
 */
function refuseWrites(ledger: Ledger, refuse: (entries: readonly { type: string }[]) => void): void {
  const appendMany = ledger.appendMany.bind(ledger);
  ledger.appendMany = (entries, then) => {
    refuse(entries);
    // Entries made inside the transaction from those written (appendMany's `then`) are refused
    // there: the throw rolls the whole batch back, as SQLite refusing a row of it would.
    return appendMany(
      entries,
      then &&
        ((written) => {
          const more = then(written);
          refuse(more);
          return more;
        }),
    );
  };
  const append = ledger.append.bind(ledger);
  ledger.append = (entry) => {
    refuse([entry]);
    return append(entry);
  };
}

/**
 * Every write of an entry of `type` (every write at all, with no type) refused as a full disk
 * refuses it, until the returned `release` is called: a disk that stays full across several
 * attempts, or across a start, and is freed later. Stacks with `refusingOnce` on the same ledger.
 */
export function refusingUntilReleased(ledger: Ledger, type?: string): () => void {
  let refusing = true;
  refuseWrites(ledger, (entries) => {
    if (refusing && (type === undefined || entries.some((e) => e.type === type))) throw new Error('SQLITE_FULL: database or disk is full');
  });
  return () => {
    refusing = false;
  };
}

/**
 * Every write of an entry of `type` refused with the error `error` makes (a schema's CHECK, a
 * bug: anything but a full disk), until `release`; `attempts` counts the writes of that type tried.
 */
export function refusingWith(ledger: Ledger, type: string, error: () => Error): { release: () => void; attempts: () => number } {
  let refusing = true;
  let attempts = 0;
  refuseWrites(ledger, (entries) => {
    if (!entries.some((e) => e.type === type)) return;
    attempts++;
    if (refusing) throw error();
  });
  return {
    release: () => {
      refusing = false;
    },
    attempts: () => attempts,
  };
}
