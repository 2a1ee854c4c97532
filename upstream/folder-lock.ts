// One process per embedded database folder (`--data-dir`, PGlite): PGlite takes no lock of its own,
// and two processes writing one folder may damage it (a tool opening it beside the service, or two
// services started at once on a fresh folder, both running initdb into it). The lock
// is the kiosk's (ledger/data-folder-lock.ts) made with Node's own SQLite (`node:sqlite`, built
// into Node 24, nothing installed; the upstream must not install better-sqlite3): an exclusive
// SQLite transaction held open on `upstream.lock` in the folder for the life of the process.
// SQLite's lock is a POSIX advisory lock on the file, which the kernel drops when the process ends
// however it ends (SIGKILL, power cut), so no stale lock is ever left to clear by hand; taking it
// is one system call, so of two processes starting at once exactly one gets it; and a second
// process, or a second open in this one, is refused at once (no waiting). It names no socket, so
// no path is too long for it. Beside it, `upstream.lock.json` says who holds it (PID, what, since
// when) so that a refusal can name the holder; that file only informs, it is never the lock.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { z } from 'zod';

export const UPSTREAM_LOCK_FILE = 'upstream.lock';
export const UPSTREAM_HOLDER_FILE = 'upstream.lock.json';

const Holder = z.object({ pid: z.number().int().positive(), what: z.string().max(200), since: z.string().max(64) });
export type FolderHolder = z.infer<typeof Holder>;

/** The folder is held by another process (or another open in this one): `holder` says which, when it could be read. */
export class PgliteFolderBusy extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: FolderHolder | null,
  ) {
    super(
      `the upstream's data folder ${dataDir} is in use by ${holder ? `${holder.what} (PID ${holder.pid}, since ${holder.since})` : 'another process (its PID could not be read)'}: one process per embedded database folder`,
    );
  }
}

export interface PgliteFolderLock {
  /** The folder, resolved. */
  readonly dataDir: string;
  release(): void;
}

function readHolder(dataDir: string): FolderHolder | null {
  try {
    const parsed = Holder.safeParse(JSON.parse(readFileSync(path.join(dataDir, UPSTREAM_HOLDER_FILE), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** SQLITE_BUSY (5) or SQLITE_LOCKED (6), extended codes included: the lock is held. */
function isBusy(e: unknown): boolean {
  if (!(e instanceof Error) || !('errcode' in e) || typeof e.errcode !== 'number') return false;
  const primary = e.errcode & 0xff;
  return primary === 5 || primary === 6;
}

/** The lock's transaction, open; throws PgliteFolderBusy at once when another holds it. */
function holdExclusive(dir: string): DatabaseSync {
  // timeout 0: a held lock is an answer, not something to wait for.
  const db = new DatabaseSync(path.join(dir, UPSTREAM_LOCK_FILE), { timeout: 0 });
  try {
    db.exec('PRAGMA journal_mode = DELETE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('CREATE TABLE IF NOT EXISTS held (pid INTEGER)');
  } catch (e) {
    db.close();
    if (isBusy(e)) throw new PgliteFolderBusy(dir, readHolder(dir));
    throw e;
  }
  return db;
}

/**
 * Takes the folder's lock (making the folder, owner-only, when it does not exist) or throws
 * PgliteFolderBusy at once. `what` names the holder in a refusal ("etg upstream serve").
 */
export function lockPgliteFolder(dataDir: string, what: string): PgliteFolderLock {
  const dir = path.resolve(dataDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const db = holdExclusive(dir);
  const holderFile = path.join(dir, UPSTREAM_HOLDER_FILE);
  const tmp = `${holderFile}.${process.pid}.tmp`;
  const holder: FolderHolder = { pid: process.pid, what, since: new Date().toISOString() };
  writeFileSync(tmp, `${JSON.stringify(holder)}\n`, { mode: 0o600 });
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
