import { existsSync } from 'node:fs';
import { ledgerFile, openExistingLedger, type Ledger } from '../../ledger/index.js';
import { ledgerAccountJournal } from '../../host/service/account-journal.js';
import { AccountStore } from '../../host/service/accounts.js';
import { lockFolderForTool } from '../folder-lock.js';

/**
 * The accounts of a data folder as the command line changes them, under the folder's lock (one
 * writer per folder: while a host runs this refuses, naming it; the service screen has no
 * accounts page, so accounts are changed with the host stopped): with the folder's ledger when it has one, so that every change is
 * journalled before its row changes, and the accounts found there unjournalled are adopted first.
 * A folder without a ledger yet (the first set-up, before the first start) has its accounts
 * adopted by the host.
 */
export function openAccounts(dataDir: string, what: string): { store: AccountStore; ledger: Ledger | null; close(): void } {
  const lock = lockFolderForTool(dataDir, what, 'accounts are changed with the host stopped (a PIN lock also ends by itself at its expiry)');
  let ledger: Ledger | null = null;
  let store: AccountStore | null = null;
  const close = () => {
    store?.close();
    ledger?.close();
    lock.release();
  };
  try {
    ledger = existsSync(ledgerFile(dataDir)) ? openExistingLedger(dataDir) : null;
    store = new AccountStore(dataDir, { journal: ledger ? ledgerAccountJournal(ledger) : null });
    store.adopt();
    return { store, ledger, close };
  } catch (e) {
    close();
    throw e;
  }
}
