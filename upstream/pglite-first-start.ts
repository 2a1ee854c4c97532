// The first start of an embedded database folder (`--data-dir D`, PGlite), made safe to stop.
// PGlite decides "a database is here" by D/PG_VERSION alone, and writes that file before the
// folder's last ones: a process stopped then (systemd's stop, a SIGKILL, a power cut) left D with
// PG_VERSION but no pg_hba.conf, and every later start was refused "cannot be opened". So before
// PGlite makes a database in a folder that has none, D/upstream.first-start says so, and it is
// removed once PGlite has opened the database it made. A folder that still has it at the next
// start was never opened: nothing but PGlite's own files is in it, and those are removed so that
// PGlite makes the database again. Never when the folder holds a table (a file of a relation
// PostgreSQL numbers from 16384, which initdb never makes): that folder is refused, untouched.
// Called under the folder's lock (upstream/folder-lock.ts): one process at a time.
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const FIRST_START_FILE = 'upstream.first-start';

/** PostgreSQL's own entries in its data directory (the admin token and the lock files are not). */
const POSTGRES_ENTRY = /^(PG_VERSION|base|global|pg_[a-z_]+|postgresql(\.auto)?\.conf|postmaster\.(pid|opts))$/;

/** PostgreSQL's first OID for objects not made by initdb (FirstNormalObjectId). */
const FIRST_NORMAL_OID = 16384;

/** A relation's file numbered as one initdb does not make (`base/<db>/<n>`, `<n>.1`, `<n>_fsm`…): a table made later. */
export function holdsTables(dir: string): boolean {
  const base = path.join(dir, 'base');
  if (!existsSync(base)) return false;
  return readdirSync(base).some((db) => readdirSync(path.join(base, db)).some((f) => Number(/^\d+/.exec(f)?.[0] ?? 0) >= FIRST_NORMAL_OID));
}

export class UnfinishedFirstStartWithData extends Error {
  constructor(readonly dataDir: string) {
    super(
      `the upstream's data folder ${dataDir} has ${FIRST_START_FILE} (a first start that never finished) but holds tables: it is left as it is. If a backup was restored into it, delete ${path.join(dataDir, FIRST_START_FILE)} and start again`,
    );
  }
}

/**
 * Before PGlite opens `dir` (resolved, its lock held): 'none' when a database made earlier is
 * there; 'fresh' when there is none (the mark is made); 'again' when a first start was stopped
 * before PGlite opened what it made (PostgreSQL's files removed, the mark kept).
 */
export function beginFirstStart(dir: string): 'none' | 'fresh' | 'again' {
  const mark = path.join(dir, FIRST_START_FILE);
  if (existsSync(mark)) {
    if (holdsTables(dir)) throw new UnfinishedFirstStartWithData(dir);
    for (const e of readdirSync(dir)) if (POSTGRES_ENTRY.test(e)) rmSync(path.join(dir, e), { recursive: true, force: true });
    return 'again';
  }
  if (existsSync(path.join(dir, 'PG_VERSION'))) return 'none';
  writeFileSync(mark, `${new Date().toISOString()}\n`, { mode: 0o600, flush: true });
  return 'fresh';
}

/** PGlite has opened the database it made: later starts open it, whatever happens next. */
export function endFirstStart(dir: string): void {
  rmSync(path.join(dir, FIRST_START_FILE), { force: true });
}
