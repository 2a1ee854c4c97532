// One witness per folder, and no `forget` beside a running one. The witness keeps each terminal's
// head in memory and its head file open: a second `etg witness serve` on the same folder signed
// from its own, older idea of a head (two heads at one entry, on two chains, both signed), and
// `etg witness forget` beside a running witness removed a head file it went on writing into (the
// unlinked file), so the forget was undone at the next start, the terminal answered `failed`. The
// lock is the one folder lock (witness/sqlite-folder-lock.ts, as the kiosk's data folder and the
// upstream's are held) on `witness.lock`, opened with Node's own SQLite (the witness taking no
// package but zod): a POSIX advisory lock the kernel drops however the process ends (SIGKILL, a
// power cut), so a dead witness never leaves a lock to clear by hand.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { holdFolder, type HeldFolder } from './sqlite-folder-lock.js';

export const WITNESS_LOCK_FILE = 'witness.lock';

/** The folder is held by another witness process (or a `forget` under way). */
export class WitnessFolderBusy extends Error {
  constructor(readonly dir: string) {
    super(`the witness's folder ${dir} is in use by another process (a witness serving it, or a forget under way): stop it first`);
    this.name = 'WitnessFolderBusy';
  }
}

export type WitnessFolderLock = HeldFolder;

/**
 * Takes the folder's lock, or throws WitnessFolderBusy at once. `create: false` (forget, run as
 * root): a folder no witness has locked yet has no lock file, and none is made, so root never
 * leaves a file of its own that the witness's user could not open.
 */
export function lockWitnessFolder(dir: string, o: { create?: boolean } = {}): WitnessFolderLock | null {
  if (o.create === false && !existsSync(path.join(dir, WITNESS_LOCK_FILE))) return null;
  return holdFolder({
    dir,
    lockFile: WITNESS_LOCK_FILE,
    open: (file) => new DatabaseSync(file, { timeout: 0 }),
    busy: () => new WitnessFolderBusy(dir),
  });
}
