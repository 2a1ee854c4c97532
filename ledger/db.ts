import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { LATEST_VERSION, migrate, NewerSchemaError, schemaVersion } from './migrations.js';
import { unreadableFileSaid } from './unreadable-file.js';

export const LEDGER_FILE = 'ledger.sqlite';

/**
 * SQLite's page cache for a ledger connection, KiB (`PRAGMA cache_size = -N`): SQLite's own default.
 * better-sqlite3 is built with SQLITE_DEFAULT_CACHE_SIZE=-16000, and a ledger grows by about 16 KB a
 * round, so at 16 MB the host's resident set grew by the cache's filling for its first thousand rounds
 * on a new data folder (about 15 MB with the cache's headers; issue 52, docs/benchmarks.md, "The host's
 * resident set"). A round's commit is bound by its fsync: on a 35 MB ledger, 2 and 16 MB gave p50s
 * within the noise of each other (two interleaved runs at load 16); the OS's file cache still holds
 * what SQLite's does not.
 */
export const LEDGER_CACHE_KIB = 2000;

export class LedgerOpenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LedgerOpenError';
  }
}

export interface OpenDbOptions {
  /** Stop after this migration (tests of a migration open the database one step behind). */
  migrateTo?: number;
  /**
   * A reader's open (the ledger tools, `openExistingLedger(dir, { readonly: true })`): an existing
   * file, on a read-only connection, at the schema it holds. Never migrated: a newer schema is
   * refused (NewerSchemaError), one older than `OLDEST_READABLE` refused by name.
   */
  readonly?: boolean;
}

/**
 * The oldest schema a read-only open reads as it is. Below it the tables the ledger's reads name
 * (the outbox and sync anchor, migration 4; the checkpoints, migration 5) are not there, and a
 * reader may not add them: it refuses the file, naming its version and this build's.
 */
export const OLDEST_READABLE = 5;

/**
 * Opens the ledger database with every durability setting checked, not assumed:
 * - WAL, and `synchronous=FULL` read back as 2 — better-sqlite3 is compiled with
 *   SQLITE_DEFAULT_WAL_SYNCHRONOUS=1, so WAL silently runs at NORMAL (not durable across power
 *   loss) unless FULL is set again on every open;
 * - foreign keys on (the postings → journal key is what makes a half-written entry impossible);
 * - SQLite's page cache bounded to `LEDGER_CACHE_KIB`, not better-sqlite3's 16 MB;
 * - trusted_schema off; `integrity_check` (of the whole file up to 32 MiB, of the state tables
 *   beyond: `integrityChecks`), whose failure is a hard stop;
 * - numbered migrations, refusing a database written by newer software.
 */
export function openDatabase(file: string, options: OpenDbOptions = {}): Database.Database {
  if (file !== ':memory:' && !options.readonly) mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const db = new Database(file, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
  try {
    if (!options.readonly) {
      const mode = db.pragma('journal_mode = WAL', { simple: true });
      if (file !== ':memory:' && mode !== 'wal') throw new LedgerOpenError(`journal_mode is ${String(mode)}, not wal`);
    }
    db.pragma('synchronous = FULL');
    const sync = db.pragma('synchronous', { simple: true });
    if (sync !== 2) throw new LedgerOpenError(`synchronous reads back ${String(sync)}, not 2 (FULL)`);
    db.pragma('foreign_keys = ON');
    if (db.pragma('foreign_keys', { simple: true }) !== 1) throw new LedgerOpenError('foreign_keys could not be enabled');
    db.pragma('trusted_schema = OFF');
    db.pragma('busy_timeout = 5000');
    // Before the integrity check, which reads the first 32 MiB of the file through this cache.
    db.pragma(`cache_size = -${LEDGER_CACHE_KIB}`);
    for (const check of integrityChecks(db)) {
      const integrity = db.pragma(check) as { integrity_check: string }[];
      if (integrity.length !== 1 || integrity[0]?.integrity_check !== 'ok') {
        throw new LedgerOpenError(`integrity_check failed: ${integrity.map((r) => r.integrity_check).join('; ')}`);
      }
    }
    if (options.readonly) readableAsItIs(db, file);
    else migrate(db, options.migrateTo);
    return db;
  } catch (e) {
    db.close();
    const said = unreadableFileSaid(e, file);
    throw said === null ? e : new LedgerOpenError(said);
  }
}

/** What a read-only open refuses instead of migrating: a schema newer than this build, or older than `OLDEST_READABLE`. */
function readableAsItIs(db: Database.Database, file: string): void {
  const version = schemaVersion(db);
  if (version > LATEST_VERSION) throw new NewerSchemaError(version, LATEST_VERSION);
  if (version < OLDEST_READABLE) {
    throw new LedgerOpenError(
      `ledger database ${file} is at schema ${version}, older than the oldest this build reads without migrating it ` +
        `(${OLDEST_READABLE}; this build's is ${LATEST_VERSION}); it was opened read-only and left as it is`,
    );
  }
}

/** Up to this size the whole file is checked at every open (about half a second on the build machine). */
export const FULL_CHECK_BYTES = 32 * 1024 * 1024;

/**
 * The tables whose size does not follow the journal's (what a start reads as the ledger's state):
 * checked at every open whatever the file's size.
 */
const STATE_TABLES = ['meta', 'balances', 'meters', 'round_bets', 'sync_state', 'checkpoints'];

/**
 * SQLite's integrity check at open: the whole file up to `FULL_CHECK_BYTES`; beyond, the state
 * tables and their indexes only, so that opening does not grow with the journal (15 s for a
 * million entries). The journal, postings and recall tables of a large file are checked by
 * `ledger verify --full`; a damaged page among them is still refused when read (the tail
 * re-hash reads the newest entries at every open).
 */
function integrityChecks(db: Database.Database): string[] {
  const bytes = (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number);
  if (bytes <= FULL_CHECK_BYTES) return ['integrity_check'];
  const present = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name));
  return STATE_TABLES.filter((t) => present.has(t)).map((t) => `integrity_check(${t})`);
}

export function ledgerFile(dataDir: string): string {
  return path.join(dataDir, LEDGER_FILE);
}
