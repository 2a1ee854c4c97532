import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { migrate } from './migrations.js';

export const LEDGER_FILE = 'ledger.sqlite';

export class LedgerOpenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LedgerOpenError';
  }
}

export interface OpenDbOptions {
  /** Stop after this migration (tests of a migration open the database one step behind). */
  migrateTo?: number;
  readonly?: boolean;
}

/**
 * Opens the ledger database with every durability setting checked, not assumed:
 * - WAL, and `synchronous=FULL` read back as 2 — better-sqlite3 is compiled with
 *   SQLITE_DEFAULT_WAL_SYNCHRONOUS=1, so WAL silently runs at NORMAL (not durable across power
 *   loss) unless FULL is set again on every open;
 * - foreign keys on (the postings → journal key is what makes a half-written entry impossible);
 * - trusted_schema off; a full `integrity_check`, whose failure is a hard stop;
 * - numbered migrations, refusing a database written by newer software.
 */
export function openDatabase(file: string, options: OpenDbOptions = {}): Database.Database {
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const db = new Database(file, { readonly: options.readonly ?? false });
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
    const integrity = db.pragma('integrity_check') as { integrity_check: string }[];
    if (integrity.length !== 1 || integrity[0]?.integrity_check !== 'ok') {
      throw new LedgerOpenError(`integrity_check failed: ${integrity.map((r) => r.integrity_check).join('; ')}`);
    }
    if (!options.readonly) migrate(db, options.migrateTo);
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}

export function ledgerFile(dataDir: string): string {
  return path.join(dataDir, LEDGER_FILE);
}
