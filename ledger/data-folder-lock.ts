// One host per data folder (issue 28 item 5): the folder's lock is the one folder lock
// (witness/sqlite-folder-lock.ts, the upstream's and the witness's too), an exclusive SQLite
// transaction held open on `host.lock` for the life of the process, opened here with the ledger's
// better-sqlite3 (the host runs inside Electron too). SQLite's lock is a POSIX advisory lock on the
// file, which the kernel drops when the process ends however it ends (SIGKILL, power cut), so a
// dead host never leaves a stale lock to clear by hand, and a second process on the same folder is
// refused at once. Beside it, `host.lock.json` says who holds it (PID, what, since when) so that the
// refusal can name the running host; that file is only information, never the lock.
import Database from 'better-sqlite3';
import path from 'node:path';
import { holdFolder, readFolderHolder, type FolderHolder } from '../witness/sqlite-folder-lock.js';

export const LOCK_FILE = 'host.lock';
export const HOLDER_FILE = 'host.lock.json';

export type Holder = FolderHolder;

/** The folder is held by another process: `holder` says which, when it could be read. */
export class DataFolderBusy extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: Holder | null,
  ) {
    super(
      `the data folder ${dataDir} is in use by ${holder ? `${holder.what} (PID ${holder.pid}, since ${holder.since})` : 'another process (its PID could not be read)'}: one host per data folder; stop it first`,
    );
  }
}

export interface DataFolderLock {
  readonly dataDir: string;
  release(): void;
}

/**
 * Takes the folder's lock or throws DataFolderBusy at once (no waiting). `what` names the holder
 * in a refusal ("the table host", "etg service add-user").
 */
export function lockDataFolder(dataDir: string, what: string): DataFolderLock {
  const dir = path.resolve(dataDir);
  const held = holdFolder({
    dir,
    lockFile: LOCK_FILE,
    open: (file) => new Database(file, { timeout: 0 }),
    busy: () => new DataFolderBusy(dir, readFolderHolder(dir, HOLDER_FILE)),
    holder: { file: HOLDER_FILE, what },
  });
  return { dataDir: dir, release: () => held.release() };
}
