// One process per folder, held the one way for the three folders that need it: the kiosk's data
// folder (ledger/data-folder-lock.ts), the upstream's embedded database folder
// (upstream/folder-lock.ts) and the witness's (witness/folder-lock.ts). The lock is an exclusive
// SQLite transaction held open on a file of the folder for the life of the process. SQLite's lock
// is a POSIX advisory lock on the file, which the kernel drops when the process ends however it
// ends (SIGKILL, power cut), so no stale lock is ever left to clear by hand; taking it is one system
// call, so of two processes starting at once exactly one gets it; and a second process, or a second
// open in this one, is refused at once (no waiting). It names no socket, so no path is too long.
// Beside it, a holder file may say who holds it (PID, what, since when) so that a refusal can name
// the holder; that file only informs, it is never the lock.
//
// Which SQLite opens the file is the caller's: the ledger's better-sqlite3 (the host runs inside
// Electron too), Node's own `node:sqlite` for the witness and the upstream (which install no
// SQLite package). This file imports neither. It lives in witness/, the lowest Node layer, which
// imports nothing of ours; the ledger and the upstream import this one file (docs/architecture.md).
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** What a lock needs of an SQLite connection, opened on the lock file with a busy timeout of 0. */
export interface LockConnection {
  exec(sql: string): void;
  close(): void;
}

/** Who holds a folder, as its holder file says. */
export const FolderHolder = z.object({ pid: z.number().int().positive(), what: z.string().max(200), since: z.string().max(64) });
export type FolderHolder = z.infer<typeof FolderHolder>;

export interface HeldFolder {
  /** Idempotent: the holder file removed, the transaction rolled back, the connection closed. */
  release(): void;
}

export interface HoldOptions {
  /** The folder, as the caller names it in its refusal. */
  readonly dir: string;
  /** The lock file's name in the folder. */
  readonly lockFile: string;
  /** Opens the lock file (timeout 0: a held lock is an answer, not something to wait for). */
  open(file: string): LockConnection;
  /** The caller's refusal, thrown when another holds the lock (the connection closed by then). */
  busy(): Error;
  /** The holder file written once the lock is taken, naming this process as `what`. */
  readonly holder?: { readonly file: string; readonly what: string };
}

/**
 * SQLite's SQLITE_BUSY (5) or SQLITE_LOCKED (6), extended codes included, as either driver says
 * it: better-sqlite3 by `code` ('SQLITE_BUSY'), node:sqlite by `errcode` (5).
 */
export function isSqliteBusy(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  if ('errcode' in e && typeof e.errcode === 'number') {
    const primary = e.errcode & 0xff;
    return primary === 5 || primary === 6;
  }
  return 'code' in e && typeof e.code === 'string' && /^SQLITE_(BUSY|LOCKED)(_|$)/.test(e.code);
}

/** Takes the folder's lock, or throws `busy()` at once when another holds it. */
export function holdFolder(o: HoldOptions): HeldFolder {
  const db = o.open(path.join(o.dir, o.lockFile));
  try {
    db.exec('PRAGMA journal_mode = DELETE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('CREATE TABLE IF NOT EXISTS held (pid INTEGER)');
  } catch (e) {
    db.close();
    if (isSqliteBusy(e)) throw o.busy();
    throw e;
  }
  const holderFile = o.holder ? path.join(o.dir, o.holder.file) : null;
  if (o.holder && holderFile) {
    const tmp = `${holderFile}.${process.pid}.tmp`;
    const holder: FolderHolder = { pid: process.pid, what: o.holder.what, since: new Date().toISOString() };
    writeFileSync(tmp, `${JSON.stringify(holder)}\n`, { mode: 0o600 });
    renameSync(tmp, holderFile);
  }
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      if (holderFile) rmSync(holderFile, { force: true });
      try {
        db.exec('ROLLBACK');
      } finally {
        db.close();
      }
    },
  };
}

/** The holder a folder's holder file names; null when it cannot be read or does not fit. */
export function readFolderHolder(dir: string, file: string): FolderHolder | null {
  try {
    const parsed = FolderHolder.safeParse(JSON.parse(readFileSync(path.join(dir, file), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
