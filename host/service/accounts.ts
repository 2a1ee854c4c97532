import path from 'node:path';
import { z } from 'zod';
import type { SqliteDb } from '../../ledger/index.js';
import { Pin, ServiceRole, StaffNumber } from '../../protocol/index.js';
import { ACCOUNTS_DB, importLegacyOnce, openAccountsDb } from './accounts-db.js';
import { hashPin, SCRYPT_PARAMS, verifyPin, type PinHash } from './pin-hash.js';

/**
 * Service accounts live in their own SQLite database (host/service/accounts-db.ts), not in the
 * ledger. Every sign-in, exit and refusal is journalled in the ledger.
 */
export { ACCOUNTS_DB } from './accounts-db.js';

const Account = z.strictObject({
  staff: StaffNumber,
  name: z.string().min(1).max(64),
  role: ServiceRole,
  pin: z.strictObject({
    algorithm: z.literal('scrypt'),
    N: z.number().int(),
    r: z.number().int(),
    p: z.number().int(),
    salt: z.string(),
    hash: z.string(),
  }),
  createdAt: z.string(),
  createdBy: z.string(),
  /** Consecutive wrong PINs since the last success; persisted so a restart does not reset it. */
  failures: z.number().int().nonnegative(),
  lockedUntil: z.string().nullable(),
  /**
   * The ledger entry that recorded this account. The command-line set-up may not write to the
   * ledger while the host runs (one writer), so the host journals new accounts itself.
   */
  journalledSeq: z.number().int().positive().optional(),
  /** Disabled by a supervisor: refused at sign-in and as a second person until enabled again. */
  disabled: z.boolean().optional(),
  /**
   * What a supervisor did to this account on the command line since the host last journalled it
   * (`service.account` with its action, at the host's next start or sign-in); then emptied.
   */
  unjournalled: z
    .array(z.strictObject({ action: z.enum(['disable', 'enable', 'unlock', 'reset-pin']), by: z.string().min(1).max(128), at: z.string() }))
    .max(64)
    .optional(),
});
export type Account = z.infer<typeof Account>;

const AccountsFile = z.strictObject({ version: z.literal(1), accounts: z.array(Account) });

export interface LockoutPolicy {
  /** Wrong PINs in a row that lock the account. */
  maxFailures: number;
  /** How long it stays locked. */
  lockMs: number;
}

export const DEFAULT_LOCKOUT: LockoutPolicy = { maxFailures: 5, lockMs: 15 * 60_000 };

export type CheckResult =
  { ok: true; account: Account } | { ok: false; reason: 'unknown' | 'bad-pin' | 'locked' | 'disabled'; lockedUntil?: string; account?: Account };

/** What a supervisor may do to an account on the command line. */
export type AccountAction = 'disable' | 'enable' | 'unlock' | 'reset-pin';

export class AccountError extends Error {}

/** A dummy hash to spend the same time on an unknown staff number as on a known one. */
let decoy: Promise<PinHash> | null = null;

const label = (a: Account) => `${a.name} (${a.staff})`;

/** A new PIN: 4 to 12 digits, not one digit repeated nor a run. */
function checkNewPin(pin: string): void {
  if (!Pin.safeParse(pin).success) throw new AccountError('a PIN is 4 to 12 digits');
  if (/^(\d)\1+$/.test(pin) || '0123456789012'.includes(pin) || '9876543210987'.includes(pin)) {
    throw new AccountError('choose a PIN that is not one digit repeated or a run of digits');
  }
}

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

export class AccountStore {
  /** The database file. */
  readonly file: string;
  private readonly db: SqliteDb;

  constructor(
    dataDir: string,
    private readonly policy: LockoutPolicy = DEFAULT_LOCKOUT,
    private readonly now: () => number = Date.now,
    private readonly scrypt: { N: number; r: number; p: number } = SCRYPT_PARAMS,
  ) {
    this.file = path.join(dataDir, ACCOUNTS_DB);
    this.db = openAccountsDb(dataDir);
    try {
      importLegacyOnce(this.db, dataDir, (text) => {
        let parsed: z.infer<typeof AccountsFile>;
        try {
          parsed = AccountsFile.parse(JSON.parse(text));
        } catch (e) {
          throw new AccountError(`the old accounts file cannot be imported: ${e instanceof Error ? e.message : String(e)}`);
        }
        for (const a of parsed.accounts) this.put(a);
        return parsed.accounts.length;
      });
    } catch (e) {
      this.db.close();
      throw e;
    }
  }

  close(): void {
    this.db.close();
  }

  /** Read from the database every time: `npm run service -- add-user` may change it while the host runs. */
  list(): Account[] {
    const rows = this.db.prepare('SELECT * FROM accounts ORDER BY rowid').all() as AccountRow[];
    const pending = this.db.prepare('SELECT staff, action, by, at FROM unjournalled ORDER BY id').all() as {
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

  find(staff: string): Account | undefined {
    return this.list().find((a) => a.staff === staff);
  }

  /**
   * Adds an account. The first must be a supervisor (nobody else could authorise the next ones);
   * later ones need a supervisor's PIN, checked here with the lockout rules. The slow parts (the
   * supervisor's PIN, hashing the new PIN) come first; the file is then read, changed and written
   * in one synchronous step under the file lock, so a lockout recorded meanwhile, by the host or
   * another command, is never lost.
   */
  async add(
    input: { name: string; role: Account['role']; pin: string; staff?: string },
    authorisedBy: { staff: string; pin: string } | null,
  ): Promise<Account> {
    checkNewPin(input.pin);
    let by = 'first-run set-up';
    if (this.list().length === 0) {
      if (input.role !== 'supervisor') throw new AccountError('the first account must be a supervisor');
      if (authorisedBy) throw new AccountError('there are no accounts yet: the first supervisor needs no authorisation');
    } else {
      if (!authorisedBy) throw new AccountError('adding an account needs an existing supervisor (--by STAFF and their PIN)');
      by = label(await this.supervisor(authorisedBy));
    }
    const pin = await hashPin(input.pin, this.scrypt);
    return this.change((current) => {
      // Checked again on the fresh file: it may have changed while the PINs were hashed.
      if (by === 'first-run set-up' && current.length > 0)
        throw new AccountError('an account was added meanwhile: the first supervisor needs no authorisation only on an empty file');
      if (current.some((a) => a.name === input.name)) throw new AccountError(`an account named ${input.name} exists`);
      const staff = input.staff ?? String(1000 + current.length + 1);
      if (!StaffNumber.safeParse(staff).success) throw new AccountError('a staff number is 3 to 8 digits');
      if (current.some((a) => a.staff === staff)) throw new AccountError(`staff number ${staff} is taken`);
      const account: Account = {
        staff,
        name: input.name,
        role: input.role,
        pin,
        createdAt: new Date(this.now()).toISOString(),
        createdBy: by,
        failures: 0,
        lockedUntil: null,
      };
      return { accounts: [...current, account], result: account };
    });
  }

  /**
   * A supervisor disables or enables an account, lifts its lock, or sets a new PIN. The
   * supervisor's PIN is checked with the lockout rules (a disabled supervisor authorises nothing);
   * a supervisor may not disable their own account, so one enabled supervisor always remains. Recorded
   * in the account for the host to journal (`service.account` with the action).
   */
  async manage(staff: string, action: AccountAction, authorisedBy: { staff: string; pin: string }, newPin?: string): Promise<Account> {
    if (action === 'reset-pin') {
      if (newPin === undefined) throw new AccountError('reset-pin needs the new PIN');
      checkNewPin(newPin);
    }
    if (!this.find(staff)) throw new AccountError(`no account with staff number ${staff}`);
    const sup = await this.supervisor(authorisedBy);
    const pin = action === 'reset-pin' && newPin !== undefined ? await hashPin(newPin, this.scrypt) : null;
    return this.change((current) => {
      const a = current.find((x) => x.staff === staff);
      if (!a) throw new AccountError(`no account with staff number ${staff}`);
      if (action === 'disable') {
        // The acting supervisor stays enabled, so a supervisor is always left to undo it.
        if (a.staff === sup.staff) throw new AccountError('a supervisor may not disable their own account');
      }
      const changed: Account = {
        ...a,
        ...(action === 'disable' ? { disabled: true } : {}),
        ...(action === 'enable' ? { disabled: false } : {}),
        // A new PIN or an unlock starts a new series of tries.
        ...(action === 'unlock' || action === 'reset-pin' ? { failures: 0, lockedUntil: null } : {}),
        ...(pin ? { pin } : {}),
        unjournalled: [...(a.unjournalled ?? []), { action, by: label(sup), at: new Date(this.now()).toISOString() }],
      };
      if (changed.disabled === false) delete changed.disabled;
      return { accounts: current.map((x) => (x.staff === staff ? changed : x)), result: changed };
    });
  }

  /** The authorising supervisor, checked with the lockout rules (a wrong PIN counts against them). */
  private async supervisor(by: { staff: string; pin: string }): Promise<Account> {
    const check = await this.check(by.staff, by.pin);
    if (!check.ok) throw new AccountError(`the authorising supervisor was refused: ${check.reason}`);
    if (check.account.role !== 'supervisor') throw new AccountError('only a supervisor may do this');
    return check.account;
  }

  /** Checks a PIN; counts failures, locks after `maxFailures` in a row, resets on success. */
  async check(staff: string, pin: string): Promise<CheckResult> {
    const account = this.find(staff);
    if (!account) {
      decoy ??= hashPin('000000', this.scrypt);
      await verifyPin(pin, await decoy);
      return { ok: false, reason: 'unknown' };
    }
    if (account.lockedUntil && Date.parse(account.lockedUntil) > this.now()) {
      return { ok: false, reason: 'locked', lockedUntil: account.lockedUntil, account };
    }
    if (account.disabled) {
      // The same scrypt time as any other answer: a disabled account is not told apart by timing.
      await verifyPin(pin, account.pin);
      return { ok: false, reason: 'disabled', account };
    }
    const good = await verifyPin(pin, account.pin);
    // Counted on the file as it is now: another check or a command may have changed it meanwhile.
    return this.change<CheckResult>((current) => {
      const fresh = current.find((a) => a.staff === staff) ?? account;
      if (good) {
        const ok = { ...fresh, failures: 0, lockedUntil: null };
        return { accounts: current.map((a) => (a.staff === staff ? ok : a)), result: { ok: true as const, account: ok } };
      }
      const failures = fresh.failures + 1;
      const lockedUntil = failures >= this.policy.maxFailures ? new Date(this.now() + this.policy.lockMs).toISOString() : null;
      // A lock served resets the count: the next mistake starts a new series.
      const counted = { ...fresh, failures: lockedUntil ? 0 : failures, lockedUntil };
      return {
        accounts: current.map((a) => (a.staff === staff ? counted : a)),
        result: lockedUntil
          ? { ok: false as const, reason: 'locked' as const, lockedUntil, account: fresh }
          : { ok: false as const, reason: 'bad-pin' as const, account: fresh },
      };
    });
  }

  /**
   * What the ledger does not record yet: accounts added and actions taken on the command line.
   * `journal` records one (the action absent for an added account) and returns its seq.
   */
  journalNew(journal: (a: Account, action?: { action: AccountAction; by: string }) => number): void {
    for (const a of this.list()) {
      if (a.journalledSeq === undefined) {
        const seq = journal(a);
        this.change((current) => ({ accounts: current.map((x) => (x.staff === a.staff ? { ...x, journalledSeq: seq } : x)), result: null }));
      }
      for (const done of a.unjournalled ?? []) {
        journal(a, { action: done.action, by: done.by });
        // Taken off one by one: an action journalled is never journalled twice.
        this.change((current) => ({
          accounts: current.map((x) => {
            if (x.staff !== a.staff) return x;
            const rest = (x.unjournalled ?? []).filter((u) => !(u.action === done.action && u.at === done.at && u.by === done.by));
            const { unjournalled: _gone, ...kept } = x;
            return rest.length ? { ...kept, unjournalled: rest } : kept;
          }),
          result: null,
        }));
      }
    }
  }

  /**
   * Reads the accounts, changes them and writes back what changed in one IMMEDIATE transaction:
   * neither another await in this process nor the other process (the host, a command) can slip a
   * write in between and have one of the two changes lost, and a power cut keeps all or none.
   */
  private change<T>(f: (current: Account[]) => { accounts: Account[]; result: T }): T {
    return this.db
      .transaction(() => {
        const current = this.list();
        const before = new Map(current.map((a) => [a.staff, JSON.stringify(a)]));
        const { accounts, result } = f(current);
        for (const a of accounts) if (before.get(a.staff) !== JSON.stringify(a)) this.put(Account.parse(a));
        return result;
      })
      .immediate();
  }

  /** Inserts or replaces one account and its unjournalled actions (inside a transaction). */
  private put(a: Account): void {
    this.db
      .prepare(
        `INSERT INTO accounts (staff, name, role, pin, created_at, created_by, failures, locked_until, journalled_seq, disabled)
         VALUES (@staff, @name, @role, @pin, @createdAt, @createdBy, @failures, @lockedUntil, @journalledSeq, @disabled)
         ON CONFLICT (staff) DO UPDATE SET name = excluded.name, role = excluded.role, pin = excluded.pin,
           failures = excluded.failures, locked_until = excluded.locked_until, journalled_seq = excluded.journalled_seq,
           disabled = excluded.disabled`,
      )
      .run({
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
    this.db.prepare('DELETE FROM unjournalled WHERE staff = ?').run(a.staff);
    const add = this.db.prepare('INSERT INTO unjournalled (staff, action, by, at) VALUES (?, ?, ?, ?)');
    for (const u of a.unjournalled ?? []) add.run(a.staff, u.action, u.by, u.at);
  }
}
