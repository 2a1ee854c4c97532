import { existsSync } from 'node:fs';
import { ledgerFile, openExistingLedger, type Ledger } from '../../ledger/index.js';
import { ledgerAccountJournal } from '../../host/service/account-journal.js';
import { AccountStore } from '../../host/service/accounts.js';

/**
 * The accounts of a data folder as the command line changes them: with the folder's ledger when
 * it has one (opened as the other ledger tools open it, beside a host that may be running: an
 * append chains from the head the database holds), so that every change is journalled before its
 * row changes, and the accounts found there unjournalled are adopted first. A folder without a
 * ledger yet (the first set-up, before the first start) has its accounts adopted by the host.
 */
export function openAccounts(dataDir: string): { store: AccountStore; close(): void } {
  const ledger: Ledger | null = existsSync(ledgerFile(dataDir)) ? openExistingLedger(dataDir) : null;
  let store: AccountStore;
  try {
    store = new AccountStore(dataDir, { journal: ledger ? ledgerAccountJournal(ledger) : null });
  } catch (e) {
    ledger?.close();
    throw e;
  }
  try {
    store.adopt();
  } catch (e) {
    store.close();
    ledger?.close();
    throw e;
  }
  return {
    store,
    close: () => {
      store.close();
      ledger?.close();
    },
  };
}
