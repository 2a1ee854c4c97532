import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

/**
 * A small SQLite database beside the ledger, for state that must be durable and locked but is
 * not journal (the service accounts: host/service/accounts-db.ts). The ledger owns better-sqlite3
 * (lint: layering), so other layers open their databases through here, with the ledger's rules:
 * WAL, synchronous=FULL, foreign keys, trusted_schema off, a busy timeout, a quick check, and
 * numbered migrations by `PRAGMA user_version`.
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

/** Applies the missing migrations up to `to`, each in one transaction with its version bump. */
export function migrateStore(db: SqliteDb, migrations: readonly StoreMigration[], to = migrations.at(-1)?.version ?? 0): number[] {
  const latest = migrations.at(-1)?.version ?? 0;
  const from = storeVersion(db);
  if (from > latest) throw new StoreOpenError(`${db.name} is at version ${from}, newer than this software (${latest})`);
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
    db.pragma('foreign_keys = ON');
    db.pragma('trusted_schema = OFF');
    db.pragma('busy_timeout = 5000');
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new StoreOpenError(`${file} is damaged: ${String(check)}`);
    migrateStore(db, migrations, to);
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}
