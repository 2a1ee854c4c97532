// One host per data folder (issue 28 item 5): the folder's lock is an exclusive SQLite transaction
// held open on `host.lock` for the life of the process. SQLite's lock is a POSIX advisory lock on
// the file, which the kernel drops when the process ends however it ends (SIGKILL, power cut), so
// a dead host never leaves a stale lock to clear by hand, and a second process on the same folder
// gets SQLITE_BUSY at once. Beside it, `host.lock.json` says who holds it (PID, what, since when)
// so that the refusal can name the running host; that file is only information, never the lock.
import Database from 'better-sqlite3';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

export const LOCK_FILE = 'host.lock';
export const HOLDER_FILE = 'host.lock.json';

const Holder = z.object({ pid: z.number().int().positive(), what: z.string(), since: z.string() });
export type Holder = z.infer<typeof Holder>;

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

function readHolder(dataDir: string): Holder | null {
  try {
    const parsed = Holder.safeParse(JSON.parse(readFileSync(path.join(dataDir, HOLDER_FILE), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function isBusy(e: unknown): boolean {
  return e instanceof Error && 'code' in e && (e.code === 'SQLITE_BUSY' || e.code === 'SQLITE_LOCKED');
}

/**
 * Takes the folder's lock or throws DataFolderBusy at once (no waiting). `what` names the holder
 * in a refusal ("the table host", "etg service add-user").
 */
export function lockDataFolder(dataDir: string, what: string): DataFolderLock {
  const dir = path.resolve(dataDir);
  // timeout 0: a held lock is an answer, not something to wait for.
  const db = new Database(path.join(dir, LOCK_FILE), { timeout: 0 });
  try {
    db.pragma('journal_mode = DELETE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('CREATE TABLE IF NOT EXISTS held (pid INTEGER)');
  } catch (e) {
    db.close();
    if (isBusy(e)) throw new DataFolderBusy(dir, readHolder(dir));
    throw e;
  }
  const holderFile = path.join(dir, HOLDER_FILE);
  const tmp = `${holderFile}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ pid: process.pid, what, since: new Date().toISOString() } satisfies Holder)}\n`, { mode: 0o600 });
  renameSync(tmp, holderFile);
  let held = true;
  return {
    dataDir: dir,
    release() {
      if (!held) return;
      held = false;
      rmSync(holderFile, { force: true });
      try {
        db.exec('ROLLBACK');
      } finally {
        db.close();
      }
    },
  };
}
