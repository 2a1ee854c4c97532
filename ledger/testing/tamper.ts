// Test-only: damage a ledger the way an attacker or a failing disk would, so that tests can check
// that verification, the start-up tail check and the host's halt catch it. Nothing the kiosk
// runs imports this (tests/lint/ledger-private.test.ts holds that), and `ledger/index.ts` does
// not export it.
import { closeSync, openSync, readSync } from 'node:fs';
import BetterSqlite from 'better-sqlite3';
import type Database from 'better-sqlite3';
import { ledgerFile } from '../db.js';
import { connectionOf, internalsOf, type Ledger } from '../ledger.js';
import { signCheckpoint } from '../sign.js';

/**
 * Runs `edit` with the named triggers lifted, then puts them back word for word: what someone
 * editing the file does to hide the edit, so that what catches it is the data, not the missing
 * trigger (the schema check, ledger/schema-check.ts, catches a trigger left out).
 */
export function withTriggersLifted<T>(db: Database.Database, names: readonly string[], edit: () => T): T {
  const saved = names
    .map((name) => db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name = ?").get(name) as { name: string; sql: string } | undefined)
    .filter((t) => t !== undefined);
  for (const t of saved) db.exec(`DROP TRIGGER ${t.name}`);
  try {
    return edit();
  } finally {
    for (const t of saved) db.exec(t.sql);
  }
}

/**
 * Rewrites `from` to `to` in the body of entry `seq`, leaving its hashes as they were, the
 * trigger that refuses journal updates lifted for the edit and put back. Returns whether the body
 * held `from` (and changed).
 */
export function tamperJournalBody(ledger: Ledger, seq: number, from: string, to: string): boolean {
  const db = connectionOf(ledger);
  return withTriggersLifted(
    db,
    ['journal_no_update'],
    () => db.prepare('UPDATE journal SET body = replace(body, ?, ?) WHERE seq = ? AND instr(body, ?) > 0').run(from, to, seq, from).changes > 0,
  );
}

/**
 * Moves an account's balance projection by `delta` minor units with no entry behind it. With
 * `create`, an account the projection does not hold yet is added (the attacker's house row).
 */
export function tamperBalance(ledger: Ledger, account: string, delta: number, options: { create?: boolean } = {}): void {
  const db = connectionOf(ledger);
  const r = options.create
    ? db
        .prepare('INSERT INTO balances (account, balance) VALUES (?, ?) ON CONFLICT(account) DO UPDATE SET balance = balance + excluded.balance')
        .run(account, delta)
    : db.prepare('UPDATE balances SET balance = balance + ? WHERE account = ?').run(delta, account);
  if (r.changes !== 1) throw new Error(`no balance of ${account} to tamper with`);
}

/** The balance and meter projections as the file holds them: what someone forging a checkpoint state reads. */
export function projectionsAsFound(ledger: Ledger): { balances: [string, number][]; meters: unknown[] } {
  const db = connectionOf(ledger);
  const balances = db.prepare('SELECT account, balance FROM balances ORDER BY account').raw(true).all() as [string, number][];
  const meters = db.prepare('SELECT scope, name, value FROM meters ORDER BY scope, name').raw(true).all();
  return { balances, meters };
}

/** Inserts a checkpoint row by hand, with whatever state and signature the editor chose. */
export function insertCheckpointRow(ledger: Ledger, row: { seq: number; hash: string; writtenAt: string; state: string; signature: string }): void {
  connectionOf(ledger)
    .prepare('INSERT INTO checkpoints (seq, hash, written_at, has_table, state, signature) VALUES (?, ?, ?, 0, ?, ?)')
    .run(row.seq, row.hash, row.writtenAt, row.state, row.signature);
}

/**
 * Sets one column of checkpoint `seq` to `value` (the triggers that keep checkpoints final lifted
 * for the edit and put back). Returns whether a row changed.
 */
export function tamperCheckpoint(
  ledger: Ledger,
  seq: number,
  column: 'seq' | 'hash' | 'written_at' | 'has_table' | 'state' | 'signature',
  value: string | number,
): boolean {
  const db = connectionOf(ledger);
  db.pragma('foreign_keys = OFF');
  try {
    return withTriggersLifted(
      db,
      ['checkpoints_no_update', 'checkpoints_no_delete'],
      () => db.prepare(`UPDATE checkpoints SET ${column} = ? WHERE seq = ?`).run(value, seq).changes > 0,
    );
  } finally {
    db.pragma('foreign_keys = ON');
  }
}

/** Deletes checkpoints from `seq` on (every one by default), as someone editing the file would. */
export function deleteCheckpoints(ledger: Ledger, fromSeq = 0): number {
  const db = connectionOf(ledger);
  return withTriggersLifted(
    db,
    ['checkpoints_no_update', 'checkpoints_no_delete'],
    () => db.prepare('DELETE FROM checkpoints WHERE seq >= ?').run(fromSeq).changes,
  );
}

/** Opens a closed ledger's file by hand (as sqlite3 would, foreign keys off) and runs `edit` on it. */
function editLedgerFile<T>(dataDir: string, edit: (db: Database.Database) => T): T {
  const db = new BetterSqlite(ledgerFile(dataDir));
  try {
    db.pragma('foreign_keys = OFF');
    return edit(db);
  } finally {
    db.close();
  }
}

/** Deletes the newest entry and its postings, the delete triggers lifted and put back word for word; the head mark is left. */
export function deleteLastEntryInFile(dataDir: string): number {
  return editLedgerFile(dataDir, (db) =>
    withTriggersLifted(db, ['journal_no_delete', 'postings_no_delete'], () => {
      const last = (db.prepare('SELECT MAX(seq) AS seq FROM journal').get() as { seq: number }).seq;
      db.prepare('DELETE FROM postings WHERE seq = ?').run(last);
      db.prepare('DELETE FROM journal WHERE seq = ?').run(last);
      return last;
    }),
  );
}

/** Drops triggers for good (someone who wants the journal writable from then on). */
export function dropTriggersInFile(dataDir: string, names: readonly string[]): void {
  editLedgerFile(dataDir, (db) => {
    for (const n of names) db.exec(`DROP TRIGGER ${n}`);
  });
}

/** Any DDL by hand (an added column, a table). */
export function alterSchemaInFile(dataDir: string, ddl: string): void {
  editLedgerFile(dataDir, (db) => db.exec(ddl));
}

/**
 * Writes a schema object straight into `sqlite_schema`, as the `sqlite3` shell's `.dbconfig defensive
 * off` and `PRAGMA writable_schema` let anyone with the file do: SQLite refuses `CREATE` of a name
 * beginning `sqlite_` (its own), but loads such a row at the next open and runs it.
 */
export function plantSchemaRowInFile(dataDir: string, row: { type: 'trigger' | 'index' | 'view' | 'table'; name: string; table: string; sql: string }): void {
  editLedgerFile(dataDir, (db) => {
    db.unsafeMode(true);
    db.pragma('writable_schema = ON');
    db.prepare('INSERT INTO sqlite_schema (type, name, tbl_name, rootpage, sql) VALUES (?, ?, ?, 0, ?)').run(row.type, row.name, row.table, row.sql);
    db.pragma('writable_schema = OFF');
  });
}

/**
 * Pads the file past the size up to which its open checks every page (ledger/db.ts,
 * `FULL_CHECK_BYTES`): a table of zeros made and dropped leaves free pages. A cabinet's ledger is
 * that large within days.
 */
export function padLedgerFile(dataDir: string, megabytes = 40): void {
  editLedgerFile(dataDir, (db) => {
    db.exec(
      `CREATE TABLE pad (x BLOB); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${megabytes}) INSERT INTO pad SELECT zeroblob(1000000) FROM n; DROP TABLE pad;`,
    );
  });
}

/**
 * Rebuilds an index of the journal so that it leaves entry `seq` out, then puts its SQL back word
 * for word: the schema reads as the migrations made it, the rows and their hashes are untouched,
 * and a read through the index no longer finds the entry (a review, 1 December).
 */
export function indexLeavingOutInFile(dataDir: string, index: string, seq: number): void {
  const file = ledgerFile(dataDir);
  const db = new BetterSqlite(file);
  const sql = db.prepare("SELECT sql FROM sqlite_schema WHERE type = 'index' AND name = ?").pluck().get(index) as string;
  db.unsafeMode(true);
  db.pragma('writable_schema = ON');
  db.prepare("UPDATE sqlite_schema SET sql = ? WHERE type = 'index' AND name = ?").run(`${sql.replace(/ WHERE .*$/s, '')} WHERE seq <> ${seq}`, index);
  db.close();
  const again = new BetterSqlite(file);
  again.exec(`REINDEX ${index}`);
  again.unsafeMode(true);
  again.pragma('writable_schema = ON');
  again.prepare("UPDATE sqlite_schema SET sql = ? WHERE type = 'index' AND name = ?").run(sql, index);
  again.close();
}

/**
 * Swaps the journal's UNIQUE index on `tx_id` (SQLite's `sqlite_autoindex_journal_1`) for one that
 * lacks entry `seq`, by their root pages: the schema rows' type, name and SQL are unchanged. The
 * append's duplicate check then misses that transaction (a review, 1 December).
 */
export function txIdIndexWithoutInFile(dataDir: string, seq: number): void {
  const file = ledgerFile(dataDir);
  const db = new BetterSqlite(file);
  db.exec(`CREATE UNIQUE INDEX forged ON journal(tx_id) WHERE seq <> ${seq}`);
  const root = (name: string) => db.prepare('SELECT rootpage FROM sqlite_schema WHERE name = ?').pluck().get(name) as number;
  const [auto, forged] = [root('sqlite_autoindex_journal_1'), root('forged')];
  db.unsafeMode(true);
  db.pragma('writable_schema = ON');
  db.prepare('UPDATE sqlite_schema SET rootpage = ? WHERE name = ?').run(forged, 'sqlite_autoindex_journal_1');
  db.prepare('UPDATE sqlite_schema SET rootpage = ? WHERE name = ?').run(auto, 'forged');
  db.close();
  const again = new BetterSqlite(file);
  again.exec('DROP INDEX forged');
  again.close();
}

/**
 * Moves entry `seq` to another round in the `round_id` column (no hash covers it; recall and evidence
 * read it), the update trigger lifted and put back word for word.
 */
export function setRoundIdInFile(dataDir: string, seq: number, roundId: string): void {
  editLedgerFile(dataDir, (db) =>
    withTriggersLifted(db, ['journal_no_update'], () => {
      const changed = db.prepare('UPDATE journal SET round_id = ? WHERE seq = ?').run(roundId, seq).changes;
      if (changed !== 1) throw new Error(`no entry ${seq} to move`);
    }),
  );
}

/**
 * Writes a checkpoint at the head of the state as the file holds it now (tampering included),
 * signed by this ledger's own signer (the key it was opened with): what someone who can read the
 * key file beside the database does after moving a balance. Any checkpoint at the head is removed
 * first. Returns the seq written.
 */
export function checkpointAsFound(ledger: Ledger): number | null {
  deleteCheckpoints(ledger, ledger.headOf().seq);
  internalsOf(ledger).verified();
  return ledger.checkpoints.write();
}

/** The stored state of checkpoint `seq` as its row holds it (to edit it with `tamperCheckpoint`). */
export function checkpointStateText(ledger: Ledger, seq: number): string {
  const r = connectionOf(ledger).prepare('SELECT state FROM checkpoints WHERE seq = ?').get(seq) as { state: string } | undefined;
  if (!r) throw new Error(`no checkpoint at ${seq}`);
  return r.state;
}

/**
 * Replaces checkpoint `seq`'s state with `state` and signs it again with the ledger's own key
 * file, as whoever holds that file could: the signature then holds, and only what reads the state
 * stands between the edit and the table (host/table/recover.ts parses it).
 */
export function resignCheckpointState(ledger: Ledger, seq: number, state: string): void {
  const key = internalsOf(ledger).key;
  const hash = ledger.entry(seq)?.hash;
  if (!key || !hash) throw new Error(`checkpoint ${seq}: no key file, or no entry ${seq}, to sign it with`);
  tamperCheckpoint(ledger, seq, 'state', state);
  tamperCheckpoint(ledger, seq, 'signature', signCheckpoint(key, ledger.terminalId, seq, hash, state));
}

/** Sets `PRAGMA user_version` by hand (a file written by a newer build, or made to look so). */
export function setUserVersionInFile(dataDir: string, version: number): void {
  editLedgerFile(dataDir, (db) => db.pragma(`user_version = ${Math.trunc(version)}`));
}

/**
 * The file's `user_version` from its header (bytes 60-63, big-endian), read without SQLite: a
 * connection, even a read-only one, leaves -wal and -shm files beside it. Only what the main file
 * holds: a closed ledger's (its last close checkpointed the WAL into it).
 */
export function userVersionInFile(dataDir: string): number {
  const fd = openSync(ledgerFile(dataDir), 'r');
  try {
    const header = Buffer.alloc(64);
    readSync(fd, header, 0, 64, 0);
    return header.readUInt32BE(60);
  } finally {
    closeSync(fd);
  }
}
