import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { Pin, ServiceRole, StaffNumber } from '../../protocol/index.js';
import { hashPin, SCRYPT_PARAMS, verifyPin, type PinHash } from './pin-hash.js';

/**
 * Service accounts live in `<dataDir>/service-accounts.json` (mode 0600), not in the ledger:
 * the ledger is append-only and replicated upstream, and a PIN hash must be replaceable and
 * must never leave the kiosk. Every sign-in, exit and refusal is journalled in the ledger.
 */
export const ACCOUNTS_FILE = 'service-accounts.json';

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
  | { ok: true; account: Account }
  | { ok: false; reason: 'unknown' | 'bad-pin' | 'locked'; lockedUntil?: string; account?: Account };

export class AccountError extends Error {}

/** A dummy hash to spend the same time on an unknown staff number as on a known one. */
let decoy: Promise<PinHash> | null = null;

export class AccountStore {
  readonly file: string;

  constructor(
    dataDir: string,
    private readonly policy: LockoutPolicy = DEFAULT_LOCKOUT,
    private readonly now: () => number = Date.now,
    private readonly scrypt: { N: number; r: number; p: number } = SCRYPT_PARAMS,
  ) {
    this.file = path.join(dataDir, ACCOUNTS_FILE);
  }

  /** Read from disk every time: `npm run service -- add-user` may change it while the host runs. */
  list(): Account[] {
    if (!existsSync(this.file)) return [];
    return AccountsFile.parse(JSON.parse(readFileSync(this.file, 'utf8'))).accounts;
  }

  find(staff: string): Account | undefined {
    return this.list().find((a) => a.staff === staff);
  }

  /**
   * Adds an account. The first must be a supervisor (nobody else could authorise the next ones);
   * later ones need a supervisor's PIN, checked here with the lockout rules.
   */
  async add(input: { name: string; role: Account['role']; pin: string; staff?: string }, authorisedBy: { staff: string; pin: string } | null): Promise<Account> {
    const pin = Pin.safeParse(input.pin);
    if (!pin.success) throw new AccountError('a PIN is 4 to 12 digits');
    if (/^(\d)\1+$/.test(input.pin) || '0123456789012'.includes(input.pin) || '9876543210987'.includes(input.pin)) {
      throw new AccountError('choose a PIN that is not one digit repeated or a run of digits');
    }
    const accounts = this.list();
    let by = 'first-run set-up';
    if (accounts.length === 0) {
      if (input.role !== 'supervisor') throw new AccountError('the first account must be a supervisor');
      if (authorisedBy) throw new AccountError('there are no accounts yet: the first supervisor needs no authorisation');
    } else {
      if (!authorisedBy) throw new AccountError('adding an account needs an existing supervisor (--by STAFF and their PIN)');
      const check = await this.check(authorisedBy.staff, authorisedBy.pin);
      if (!check.ok) throw new AccountError(`the authorising supervisor was refused: ${check.reason}`);
      if (check.account.role !== 'supervisor') throw new AccountError('only a supervisor may add accounts');
      by = `${check.account.name} (${check.account.staff})`;
    }
    const current = this.list();
    if (current.some((a) => a.name === input.name)) throw new AccountError(`an account named ${input.name} exists`);
    const staff = input.staff ?? String(1000 + current.length + 1);
    if (!StaffNumber.safeParse(staff).success) throw new AccountError('a staff number is 3 to 8 digits');
    if (current.some((a) => a.staff === staff)) throw new AccountError(`staff number ${staff} is taken`);
    const account: Account = {
      staff,
      name: input.name,
      role: input.role,
      pin: await hashPin(input.pin, this.scrypt),
      createdAt: new Date(this.now()).toISOString(),
      createdBy: by,
      failures: 0,
      lockedUntil: null,
    };
    this.write([...current, account]);
    return account;
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
    const good = await verifyPin(pin, account.pin);
    // Re-read: another check may have finished while this one hashed.
    const fresh = this.find(staff) ?? account;
    if (good) {
      this.update({ ...fresh, failures: 0, lockedUntil: null });
      return { ok: true, account: { ...fresh, failures: 0, lockedUntil: null } };
    }
    const failures = fresh.failures + 1;
    const lockedUntil = failures >= this.policy.maxFailures ? new Date(this.now() + this.policy.lockMs).toISOString() : null;
    // A lock served resets the count: the next mistake starts a new series.
    this.update({ ...fresh, failures: lockedUntil ? 0 : failures, lockedUntil });
    return lockedUntil ? { ok: false, reason: 'locked', lockedUntil, account: fresh } : { ok: false, reason: 'bad-pin', account: fresh };
  }

  /** Accounts not yet recorded in the ledger; `journal` records one and returns its seq. */
  journalNew(journal: (a: Account) => number): void {
    for (const a of this.list()) {
      if (a.journalledSeq !== undefined) continue;
      const seq = journal(a);
      const fresh = this.find(a.staff);
      if (fresh) this.update({ ...fresh, journalledSeq: seq });
    }
  }

  private update(account: Account): void {
    this.write(this.list().map((a) => (a.staff === account.staff ? account : a)));
  }

  /** Write-then-rename with fsync: a power cut leaves the old file or the new one, never half. */
  private write(accounts: Account[]): void {
    const tmp = `${this.file}.tmp`;
    const fd = openSync(tmp, 'w', 0o600);
    try {
      writeSync(fd, JSON.stringify(AccountsFile.parse({ version: 1, accounts }), null, 1));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.file);
  }
}
