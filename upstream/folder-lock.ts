// One process per embedded database folder (`--data-dir`, PGlite): PGlite takes no lock of its own,
// and two processes writing one folder may damage it (a tool opening it beside the service, or two
// services started at once on a fresh folder, both running initdb into it). The lock is the one
// folder lock (witness/sqlite-folder-lock.ts, the kiosk's data folder's and the witness's too),
// opened with Node's own SQLite (`node:sqlite`, built into Node 24, nothing installed; the upstream
// must not install better-sqlite3): an exclusive SQLite transaction held open on `upstream.lock` in
// the folder for the life of the process, which the kernel drops however the process ends, refused
// at once to a second process or a second open in this one. Beside it, `upstream.lock.json` says
// who holds it (PID, what, since when) so that a refusal can name the holder; that file only
// informs, it is never the lock.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { holdFolder, readFolderHolder, type FolderHolder } from '../witness/sqlite-folder-lock.js';

export type { FolderHolder } from '../witness/sqlite-folder-lock.js';

export const UPSTREAM_LOCK_FILE = 'upstream.lock';
export const UPSTREAM_HOLDER_FILE = 'upstream.lock.json';

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

/**
 * Takes the folder's lock (making the folder, owner-only, when it does not exist) or throws
 * PgliteFolderBusy at once. `what` names the holder in a refusal ("etg upstream serve").
 */
export function lockPgliteFolder(dataDir: string, what: string): PgliteFolderLock {
  const dir = path.resolve(dataDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const held = holdFolder({
    dir,
    lockFile: UPSTREAM_LOCK_FILE,
    open: (file) => new DatabaseSync(file, { timeout: 0 }),
    busy: () => new PgliteFolderBusy(dir, readFolderHolder(dir, UPSTREAM_HOLDER_FILE)),
    holder: { file: UPSTREAM_HOLDER_FILE, what },
  });
  return { dataDir: dir, release: () => held.release() };
}
