import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { schemaProblems, type SchemaReference } from './schema-check.js';
import { unreadableFileSaid } from './unreadable-file.js';

/**
 * A small SQLite database beside the ledger, for state that must be durable and locked but is
 * not journal (the service accounts: host/service/accounts-db.ts). The ledger owns better-sqlite3
 * (lint: layering), so other layers open their databases through here, with the ledger's rules:
 * WAL, synchronous=FULL, foreign keys, trusted_schema off, a busy timeout, a quick check, the
 * schema against its own migrations (ledger/schema-check.ts), and numbered migrations by
 * `PRAGMA user_version`.
 */
export type SqliteDb = Database.Database;

export interface StoreMigration {
  version: number;
  name: string;
  up(db: SqliteDb): void;
}

export class StoreOpenError extends Error {}

export function storeVersion(db: SqliteDb): number {
  return Number(db.pragma('user_version', { simple: true }));
}

/** The store's version; a store from newer software is refused. `name` is its file's (a copy in memory has none). */
function versionOf(db: SqliteDb, migrations: readonly StoreMigration[], name = db.name): number {
  const latest = migrations.at(-1)?.version ?? 0;
  const from = storeVersion(db);
  if (from > latest) throw new StoreOpenError(`${name} is at version ${from}, newer than this software (${latest})`);
  return from;
}

/** The schema a store's migrations make, for the schema check. */
export const storeSchema = (migrations: readonly StoreMigration[]): SchemaReference => ({
  build: (reference, version) => void migrateStore(reference, migrations, version),
});

/**
 * The open store's schema against its migrations, now: the open checks it once, and an object
 * planted by another process afterwards acts on every later write (a store of locks whose failure
 * count a trigger sets back to none). Run inside a write transaction, nothing can be planted between
 * the check and the writes it guards (a schema change needs the same lock).
 */
export function storeSchemaProblems(db: SqliteDb, migrations: readonly StoreMigration[]): string[] {
  return schemaProblems(db, storeSchema(migrations));
}

/** Applies the missing migrations up to `to`, each in one transaction with its version bump. */
export function migrateStore(db: SqliteDb, migrations: readonly StoreMigration[], to = migrations.at(-1)?.version ?? 0, name = db.name): number[] {
  const from = versionOf(db, migrations, name);
  const applied: number[] = [];
  for (const m of migrations) {
    if (m.version <= from || m.version > to) continue;
    db.transaction(() => {
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    }).immediate();
    applied.push(m.version);
  }
  return applied;
}

/** Opens `file` (created mode 0600 if new, in a 0700 folder) and migrates it. */
export function openSqliteStore(file: string, migrations: readonly StoreMigration[], to?: number): SqliteDb {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  // Created here with mode 0600 first: SQLite gives its -wal and -shm files the same mode.
  if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600));
  const db = new Database(file);
  try {
    if (db.pragma('journal_mode = WAL', { simple: true }) !== 'wal') throw new StoreOpenError(`${file} could not use WAL`);
    db.pragma('synchronous = FULL');
    db.pragma('busy_timeout = 5000');
    checkAndMigrate(db, file, migrations, to);
    return db;
  } catch (e) {
    db.close();
    const said = unreadableFileSaid(e, file);
    throw said === null ? e : new StoreOpenError(said);
  }
}

/**
 * A copy of `file` in memory, read in one snapshot on a read-only connection, then checked and
 * migrated as `openSqliteStore` does the file itself: for a tool that must answer what the host
 * would find at its next start and write nothing to the folder it reads (`etg ledger verify` of a
 * folder copied off a cabinet as evidence, or beside a host of another build). Changes made to
 * the copy stay in memory.
 */
export function copySqliteStore(file: string, migrations: readonly StoreMigration[], to?: number): SqliteDb {
  const db = existsSync(file) ? new Database(imageOf(file)) : new Database(':memory:'); // none: as `openSqliteStore` would make it
  try {
    checkAndMigrate(db, file, migrations, to);
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}

/** The committed pages of `file`, those still in its -wal included, read in one snapshot. */
function imageOf(file: string): Buffer {
  const source = new Database(file, { readonly: true, fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    const image = source.serialize();
    // An in-memory database cannot be in WAL mode: the header's read and write versions (bytes 18
    // and 19, SQLite's file format §1.3) are set back to the rollback journal's, or it will not open.
    if (image.length >= 20) image[18] = image[19] = 1;
    return image;
  } finally {
    source.close();
  }
}

/** What every store's connection is checked and brought to before it is used. `name` is the file's, for what it says. */
function checkAndMigrate(db: SqliteDb, name: string, migrations: readonly StoreMigration[], to?: number): void {
  db.pragma('foreign_keys = ON');
  db.pragma('trusted_schema = OFF');
  const check = db.pragma('quick_check', { simple: true });
  if (check !== 'ok') throw new StoreOpenError(`${name} is damaged: ${String(check)}`);
  refuseForeignSchema(db, name, migrations);
  migrateStore(db, migrations, to, name);
}

/**
 * The schema as the store's migrations make it, checked at the file's version before migrating it:
 * a trigger planted in the file (one that sets the accounts' failure count back to none turns the
 * lockout off) would otherwise run inside the migrations' own writes, an object planted under a name
 * a later migration creates would stop the start with SQLite's "already exists" instead of its name,
 * and a refused file is left as found (not moved to a version older software cannot open). The
 * migrations that follow are the reference's own, so they add nothing a second check would find.
 */
function refuseForeignSchema(db: SqliteDb, name: string, migrations: readonly StoreMigration[]): void {
  // The version and the schema read in one snapshot: another process may migrate the file meanwhile.
  const found = db.transaction(() => {
    const version = versionOf(db, migrations, name);
    return { version, problems: schemaProblems(db, storeSchema(migrations)) };
  })();
  if (found.problems.length > 0)
    throw new StoreOpenError(
      `${name} (version ${found.version}) is not as its migrations make it, so it is not opened (a schema object added, changed or dropped outside this software): ${found.problems.join('; ')}`,
    );
}
