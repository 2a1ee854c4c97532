import { existsSync } from 'node:fs';
import path from 'node:path';
import { JournalledAccounts, ledgerAccountJournal } from '../../host/service/account-journal.js';
import { ACCOUNTS_DB, AccountStore } from '../../host/service/accounts.js';
import { LEGACY_ACCOUNTS_FILE } from '../../host/service/accounts-db.js';
import { StoreOpenError, type Ledger } from '../../ledger/index.js';

/** What `etg ledger verify` says of the service accounts: what it checked, and each account that differs. */
export interface AccountsReport {
  checked: string;
  problems: string[];
}

/**
 * The service accounts store of the data folder against the journal's `service.account` entries
 * (host/service/accounts-audit.ts), once it opens (a store refused at open, its schema not its
 * migrations' among others, is reported: ledger/sqlite-store.ts): each row's PIN hash (by its
 * journalled digest), role, name, disabled state and lock must be what the journal says, and
 * every journalled account must have its row. A change the journal holds and its maker had not yet applied (a command cut between
 * its two steps) is counted as applied, as the host would apply it. The store is read into memory
 * and checked, migrated and (an old JSON file not imported yet) imported there, as the host would
 * at its next start: neither the store's bytes nor any file of the folder is changed (a copy taken off a
 * cabinet is evidence), though SQLite leaves an empty `-wal` and a `-shm` beside a WAL database it
 * read, if none were there, as the ledger's read-only tools do (docs/ledger.md).
 */
export function verifyAccounts(dataDir: string, ledger: Ledger): AccountsReport {
  const journal = ledgerAccountJournal(ledger);
  // An old JSON file alone is what the host would import at its next start: checked as such, below.
  if (!existsSync(path.join(dataDir, ACCOUNTS_DB)) && !existsSync(path.join(dataDir, LEGACY_ACCOUNTS_FILE))) {
    const known = new JournalledAccounts(journal).refresh();
    return known.adopted
      ? {
          checked: 'service accounts against the journal',
          problems: [`service accounts: the journal records ${known.all().length}, and there is no ${ACCOUNTS_DB}`],
        }
      : { checked: 'service accounts: none in this folder', problems: [] };
  }
  let store: AccountStore;
  try {
    store = new AccountStore(dataDir, { journal, inMemoryCopy: true });
  } catch (e) {
    // Refused at open (ledger/sqlite-store.ts): damaged, from newer software, or its schema not its migrations'.
    if (!(e instanceof StoreOpenError)) throw e;
    return { checked: 'service accounts against the journal', problems: [`service accounts: ${e.message}`] };
  }
  try {
    const r = store.auditReadOnly();
    if (!r.adopted) return { checked: `service accounts (${r.accounts}): not journalled yet (the host adopts them at its next start)`, problems: [] };
    return { checked: `service accounts (${r.accounts}) against the journal`, problems: r.problems };
  } finally {
    store.close();
  }
}
