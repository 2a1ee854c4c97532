import { PAYLOADS } from '../../../ledger/index.js';
import type { AccountJournal, JournalledEntry } from '../account-journal.js';

/**
 * An accounts journal in memory, for the unit tests of the accounts and of the service view: what
 * the ledger would hold, each payload checked against the ledger's schema as an append checks it.
 * `fail` makes the next `record` throw (a ledger that refuses the write).
 */
export function memoryAccountJournal() {
  const entries: JournalledEntry[] = [];
  let failNext = false;
  const journal: AccountJournal = {
    record: (payloads) => {
      if (failNext) {
        failNext = false;
        throw new Error('the ledger refused the write');
      }
      return payloads.map((p) => {
        const seq = entries.length + 1;
        entries.push({ seq, type: 'service.account', payload: PAYLOADS['service.account'].parse(p) });
        return seq;
      });
    },
    denied: (staff, reason, lockedUntil) => {
      entries.push({
        seq: entries.length + 1,
        type: 'service.denied',
        payload: PAYLOADS['service.denied'].parse({ staff, reason, ...(lockedUntil ? { lockedUntil } : {}) }),
      });
    },
    head: () => entries.length,
    after: (seq) => entries.filter((e) => e.seq > seq),
  };
  return {
    journal,
    entries,
    /** The account entries' payloads, in order. */
    accounts: () => entries.flatMap((e) => (e.type === 'service.account' ? [e.payload] : [])),
    fail: () => {
      failNext = true;
    },
  };
}
