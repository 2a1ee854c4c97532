import { openUpstreamDb, PgliteFolderBusy, lockPgliteFolder, type Db, type PgliteFolderLock } from '../../upstream/index.js';
import { UsageError } from '../tool.js';

export { defineCommand, options } from '../command.js';
export { UsageError } from '../tool.js';

export const DB_OPTIONS = {
  pg: { type: 'string', value: 'URL', help: 'PostgreSQL connection string' },
  'data-dir': { type: 'string', value: 'DIR', help: 'embedded PGlite database in DIR (instead of --pg; no server needed)' },
} as const;

/** `--pg URL` or `--data-dir DIR` (PGlite); one of them, for tools that must not guess. */
export function dbChoice(v: { pg?: unknown; 'data-dir'?: unknown }, usage: string): { pg?: string; dataDir?: string } {
  if (v.pg && v['data-dir']) throw new UsageError(`give --pg or --data-dir, not both\n${usage}`);
  if (v.pg) return { pg: String(v.pg) };
  if (v['data-dir']) return { dataDir: String(v['data-dir']) };
  throw new UsageError(`--pg URL or --data-dir DIR is required\n${usage}`);
}

// A held folder is the user's to resolve (another `etg upstream` on it): exit 2, naming the holder.
const FOLDER_ADVICE = "stop it first, or use the running service's admin routes (docs/upstream.md)";

function refusedIfBusy(e: unknown): never {
  if (e instanceof PgliteFolderBusy) throw new UsageError(`${e.message}; ${FOLDER_ADVICE}`);
  throw e;
}

/** The data folder's lock, taken before anything reads or writes the folder (a PGlite folder is one process's); none with --pg. */
export function lockToolFolder(choice: { dataDir?: string }, what: string): PgliteFolderLock | undefined {
  if (!choice.dataDir) return undefined;
  try {
    return lockPgliteFolder(choice.dataDir, what);
  } catch (e) {
    return refusedIfBusy(e);
  }
}

/** A tool's database: a PGlite folder under its lock, taken before PGlite opens it and released on close. */
export async function openToolDb(choice: { pg?: string; dataDir?: string }, what: string): Promise<Db> {
  try {
    return await openUpstreamDb({ ...choice, holder: what });
  } catch (e) {
    return refusedIfBusy(e);
  }
}
