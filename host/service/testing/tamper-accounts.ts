import { canonicalJson } from '../../../ledger/index.js';
import { openAccountsDb } from '../accounts-db.js';
import { PinRecord } from '../account-record.js';

/**
 * What someone with file access can do to `service-accounts.sqlite` behind the host's back, for
 * the attack tests (tests/security/service-accounts-*.test.ts). Each opens the file as any SQLite
 * client would, changes one thing in one statement and closes it.
 */
function tamper(dataDir: string, sql: string, ...params: (string | number | null)[]): number {
  const db = openAccountsDb(dataDir);
  try {
    return db.prepare(sql).run(...params).changes;
  } finally {
    db.close();
  }
}

/** Copies one account's PIN hash into another's row: the second staff number then opens with the first's PIN. */
export function copyPinHash(dataDir: string, from: string, to: string): void {
  if (tamper(dataDir, 'UPDATE accounts SET pin = (SELECT pin FROM accounts WHERE staff = ?) WHERE staff = ?', from, to) !== 1) throw new Error(`no row ${to}`);
}

export function setRole(dataDir: string, staff: string, role: string): void {
  if (tamper(dataDir, 'UPDATE accounts SET role = ? WHERE staff = ?', role, staff) !== 1) throw new Error(`no row ${staff}`);
}

export function setDisabled(dataDir: string, staff: string, disabled: boolean): void {
  if (tamper(dataDir, 'UPDATE accounts SET disabled = ? WHERE staff = ?', disabled ? 1 : 0, staff) !== 1) throw new Error(`no row ${staff}`);
}

/** Sets (or with null lifts) an account's lock and its count of wrong PINs. */
export function setLock(dataDir: string, staff: string, lockedUntil: string | null, failures = 0): void {
  if (tamper(dataDir, 'UPDATE accounts SET locked_until = ?, failures = ? WHERE staff = ?', lockedUntil, failures, staff) !== 1)
    throw new Error(`no row ${staff}`);
}

/** Adds a row the command line never wrote: a copy of `from` under another staff number, name and role. */
export function insertCopy(dataDir: string, from: string, staff: string, name: string, role: string): void {
  const n = tamper(
    dataDir,
    `INSERT INTO accounts (staff, name, role, pin, created_at, created_by, failures, locked_until, journalled_seq, disabled)
     SELECT ?, ?, ?, pin, created_at, created_by, 0, NULL, journalled_seq, 0 FROM accounts WHERE staff = ?`,
    staff,
    name,
    role,
    from,
  );
  if (n !== 1) throw new Error(`no row ${from}`);
}

/**
 * A change as a command's first step proposes it (host/service/accounts.ts `mutate`): with its
 * entry journalled after it, this is a command cut between journalling its change and applying it.
 */
export function writeProposal(dataDir: string, staff: string, change: object, entry: object, afterSeq: number): void {
  tamper(
    dataDir,
    'INSERT INTO proposals (staff, change, entry, after_seq, proposed_at) VALUES (?, ?, ?, ?, ?)',
    staff,
    JSON.stringify(change),
    canonicalJson(entry),
    afterSeq,
    Date.now(),
  );
}

/** The PIN hash record a row holds, as the file stores it (for an attacker who also rewrites the journal's digest of it). */
export function pinRecordOf(dataDir: string, staff: string): ReturnType<typeof PinRecord.parse> {
  const db = openAccountsDb(dataDir);
  try {
    const row = db.prepare('SELECT pin FROM accounts WHERE staff = ?').get(staff) as { pin: string } | undefined;
    if (!row) throw new Error(`no row ${staff}`);
    return PinRecord.parse(JSON.parse(row.pin));
  } finally {
    db.close();
  }
}

/** Adds a schema object by plain SQL, as any SQLite client may (a trigger, a table). */
export function plantSchema(dataDir: string, sql: string): void {
  const db = openAccountsDb(dataDir);
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}

/**
 * Writes a row straight into `sqlite_schema` with `writable_schema`, under a name SQLite refuses to
 * CREATE (`sqlite_…`): it loads and runs the row at the next open like any other.
 */
export function plantSchemaRow(dataDir: string, row: { type: 'trigger'; name: string; table: string; sql: string }): void {
  const db = openAccountsDb(dataDir);
  try {
    db.unsafeMode(true);
    db.pragma('writable_schema = ON');
    db.prepare('INSERT INTO sqlite_schema (type, name, tbl_name, rootpage, sql) VALUES (?, ?, ?, 0, ?)').run(row.type, row.name, row.table, row.sql);
    db.pragma('writable_schema = OFF');
  } finally {
    db.close();
  }
}

/**
 * A store as an earlier build left it: made at `version` of the migrations and holding one account
 * (its PIN hash given), never migrated further. Not an attack: what `etg ledger verify` may be
 * given beside a host of another build, or on a folder copied off a cabinet that ran one.
 */
export function earlierBuildsStore(
  dataDir: string,
  version: number,
  a: { staff: string; name: string; role: string; pin: ReturnType<typeof PinRecord.parse> },
): void {
  const db = openAccountsDb(dataDir, version);
  try {
    db.prepare(
      `INSERT INTO accounts (staff, name, role, pin, created_at, created_by, failures, locked_until, journalled_seq, disabled)
       VALUES (?, ?, ?, ?, '2025-01-01T00:00:00.000Z', 'first-run set-up', 0, NULL, NULL, 0)`,
    ).run(a.staff, a.name, a.role, JSON.stringify(a.pin));
  } finally {
    db.close();
  }
}
