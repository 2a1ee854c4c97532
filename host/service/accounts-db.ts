import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import { copySqliteStore, openSqliteStore, type SqliteDb, type StoreMigration } from '../../ledger/index.js';

/**
 * The service accounts' own SQLite database, `<dataDir>/service-accounts.sqlite` (mode 0600).
 * Not the ledger: the ledger is append-only and replicated upstream, while a PIN hash must be
 * replaceable and must never leave the kiosk. SQLite gives what the JSON file did by hand (a lock
 * file, write-then-rename, no directory fsync): `BEGIN IMMEDIATE` serialises the host and the
 * command-line tools, and WAL with synchronous=FULL makes each change atomic and durable.
 */
export const ACCOUNTS_DB = 'service-accounts.sqlite';
/** The file the accounts lived in before; imported once, then renamed to `<name>.imported`. */
export const LEGACY_ACCOUNTS_FILE = 'service-accounts.json';

/** Numbered; `PRAGMA user_version` holds the last applied. Append only; never edit a shipped one. */
export const ACCOUNTS_MIGRATIONS: readonly StoreMigration[] = [
  {
    version: 1,
    name: 'accounts and their unjournalled actions',
    up(db) {
      db.exec(`
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
        CREATE TABLE accounts (
          staff TEXT PRIMARY KEY,
          name TEXT NOT NULL UNIQUE,
          role TEXT NOT NULL,
          pin TEXT NOT NULL,            -- the scrypt hash and its parameters, as JSON
          created_at TEXT NOT NULL,
          created_by TEXT NOT NULL,
          failures INTEGER NOT NULL CHECK (failures >= 0),
          locked_until TEXT,
          journalled_seq INTEGER CHECK (journalled_seq > 0),
          disabled INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1))
        ) STRICT;
        -- What a supervisor did on the command line that the host has not journalled yet.
        CREATE TABLE unjournalled (
          id INTEGER PRIMARY KEY,
          staff TEXT NOT NULL REFERENCES accounts(staff),
          action TEXT NOT NULL CHECK (action IN ('disable', 'enable', 'unlock', 'reset-pin')),
          by TEXT NOT NULL,
          at TEXT NOT NULL
        ) STRICT;
        CREATE INDEX unjournalled_staff ON unjournalled(staff, id);
      `);
    },
  },
  {
    version: 2,
    name: 'PIN checks reserved before they hash; account changes proposed before they are journalled',
    up(db) {
      db.exec(`
        -- A PIN check in progress for the account (by this process or another) until this time:
        -- its attempt is counted and the next check waits for it (host/service/accounts.ts).
        ALTER TABLE accounts ADD COLUMN checking_until TEXT;
        -- A change written here first, then journalled (service.account), then applied to its row:
        -- a change found journalled is applied at the next read, one never journalled is dropped.
        CREATE TABLE proposals (
          id INTEGER PRIMARY KEY,
          staff TEXT NOT NULL,
          change TEXT NOT NULL,         -- what the change does to the row, as JSON
          entry TEXT NOT NULL,          -- the service.account payload that journals it, canonical JSON
          after_seq INTEGER NOT NULL,   -- the journal's head when it was proposed: its entry comes after
          proposed_at INTEGER NOT NULL  -- ms since the epoch
        ) STRICT;
      `);
    },
  },
];
export const ACCOUNTS_LATEST = ACCOUNTS_MIGRATIONS.at(-1)?.version ?? 0;

/** Opens (creating it 0600 if new) and migrates the accounts database of `dataDir`. */
export function openAccountsDb(dataDir: string, to = ACCOUNTS_LATEST): SqliteDb {
  return openSqliteStore(path.join(dataDir, ACCOUNTS_DB), ACCOUNTS_MIGRATIONS, to);
}

/** The accounts database of `dataDir` copied into memory, checked and migrated there; the file is only read. */
export function copyAccountsDb(dataDir: string): SqliteDb {
  return copySqliteStore(path.join(dataDir, ACCOUNTS_DB), ACCOUNTS_MIGRATIONS);
}

/**
 * The one-time import of the old JSON file. `insert` writes the parsed accounts inside the same
 * transaction that records the import (with the file's SHA-256), so a crash leaves either nothing
 * imported or everything. The file is renamed after the commit; a crash in between is finished on
 * the next open (same hash: renamed, not imported twice). A JSON file that appears after the
 * import with other content is left where it is and never read. Into a copy in memory
 * (`rename: false`), the file is imported and left where it is.
 */
export function importLegacyOnce(db: SqliteDb, dataDir: string, o: { rename: boolean }, insert: (text: string) => number): { imported: number } | null {
  const legacy = path.join(dataDir, LEGACY_ACCOUNTS_FILE);
  if (!existsSync(legacy)) return null;
  const text = readFileSync(legacy, 'utf8');
  const sha = createHash('sha256').update(text).digest('hex');
  const recorded = () => db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get('legacy-json-sha256') as string | undefined;
  // Checked again inside the write lock: the host and a command may open the folder at once.
  const imported = db
    .transaction(() => {
      if (recorded() !== undefined) return null;
      const n = insert(text);
      db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run('legacy-json-sha256', sha);
      return n;
    })
    .immediate();
  if (o.rename && recorded() === sha) {
    try {
      renameSync(legacy, `${legacy}.imported`);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e; // the other process renamed it first
    }
  }
  return imported === null ? null : { imported };
}
