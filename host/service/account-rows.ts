import type { SqliteDb } from '../../ledger/index.js';
import { Account } from './account-record.js';

/** An account's row as the accounts database holds it (host/service/accounts-db.ts). */
interface AccountRow {
  staff: string;
  name: string;
  role: string;
  pin: string;
  created_at: string;
  created_by: string;
  failures: number;
  locked_until: string | null;
  journalled_seq: number | null;
  disabled: number;
}

/** Every account, each with the actions it has that the journal does not hold yet, parsed once as it is read. */
export function readAccounts(db: SqliteDb): Account[] {
  const rows = db.prepare('SELECT * FROM accounts ORDER BY rowid').all() as AccountRow[];
  const pending = db.prepare('SELECT staff, action, by, at FROM unjournalled ORDER BY id').all() as {
    staff: string;
    action: string;
    by: string;
    at: string;
  }[];
  return rows.map((r) => {
    const todo = pending.filter((u) => u.staff === r.staff).map(({ action, by, at }) => ({ action, by, at }));
    return Account.parse({
      staff: r.staff,
      name: r.name,
      role: r.role,
      pin: JSON.parse(r.pin) as unknown,
      createdAt: r.created_at,
      createdBy: r.created_by,
      failures: r.failures,
      lockedUntil: r.locked_until,
      ...(r.journalled_seq !== null ? { journalledSeq: r.journalled_seq } : {}),
      ...(r.disabled ? { disabled: true } : {}),
      ...(todo.length ? { unjournalled: todo } : {}),
    });
  });
}

/** Inserts or replaces one account and its unjournalled actions (inside a transaction). */
export function putAccount(db: SqliteDb, a: Account): void {
  db.prepare(
    `INSERT INTO accounts (staff, name, role, pin, created_at, created_by, failures, locked_until, journalled_seq, disabled)
     VALUES (@staff, @name, @role, @pin, @createdAt, @createdBy, @failures, @lockedUntil, @journalledSeq, @disabled)
     ON CONFLICT (staff) DO UPDATE SET name = excluded.name, role = excluded.role, pin = excluded.pin,
       failures = excluded.failures, locked_until = excluded.locked_until, journalled_seq = excluded.journalled_seq,
       disabled = excluded.disabled`,
  ).run({
    staff: a.staff,
    name: a.name,
    role: a.role,
    pin: JSON.stringify(a.pin),
    createdAt: a.createdAt,
    createdBy: a.createdBy,
    failures: a.failures,
    lockedUntil: a.lockedUntil,
    journalledSeq: a.journalledSeq ?? null,
    disabled: a.disabled ? 1 : 0,
  });
  db.prepare('DELETE FROM unjournalled WHERE staff = ?').run(a.staff);
  const add = db.prepare('INSERT INTO unjournalled (staff, action, by, at) VALUES (?, ?, ?, ?)');
  for (const u of a.unjournalled ?? []) add.run(a.staff, u.action, u.by, u.at);
}

/**
 * Reads the accounts, changes them and writes back what changed in one IMMEDIATE transaction:
 * neither another await in this process nor the other process (the host, a command) can slip a
 * write in between and have one of the two changes lost, and a power cut keeps all or none.
 */
export function changeAccounts<T>(db: SqliteDb, f: (current: Account[]) => { accounts: Account[]; result: T }): T {
  return db
    .transaction(() => {
      const current = readAccounts(db);
      const before = new Map(current.map((a) => [a.staff, JSON.stringify(a)]));
      const { accounts, result } = f(current);
      for (const a of accounts) if (before.get(a.staff) !== JSON.stringify(a)) putAccount(db, Account.parse(a));
      return result;
    })
    .immediate();
}

/** Whether the accounts were ever journalled in full here (adopted, or changed through the journal). */
export function isJournalled(db: SqliteDb): boolean {
  return db.prepare("SELECT value FROM meta WHERE key = 'journalled'").pluck().get() !== undefined;
}

export function markJournalled(db: SqliteDb): void {
  db.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES ('journalled', '1')").run();
}
