import path from 'node:path';
import type { z } from 'zod';
import { canonicalJson, storeSchemaProblems, type SqliteDb } from '../../ledger/index.js';
import { Pin, StaffNumber } from '../../protocol/index.js';
import { JournalledAccounts, type AccountEntry, type AccountJournal } from './account-journal.js';
import { AccountError, AccountsFile, applyChange, Change, type Account } from './account-record.js';
import { serviceSaid } from '../../locales/said.js';
import { ACCOUNTS_DB, ACCOUNTS_MIGRATIONS, copyAccountsDb, importLegacyOnce, openAccountsDb } from './accounts-db.js';
import { auditAccount, auditAccounts } from './accounts-audit.js';
import { changeAccounts, isJournalled, markJournalled, putAccount, readAccounts } from './account-rows.js';
import { hashPin, pinDigest, samePinHash, SCRYPT_PARAMS, verifyPin, type PinHash } from './pin-hash.js';

/**
 * Service accounts live in their own SQLite database (host/service/accounts-db.ts), not in the
 * ledger; the ledger journals every change to them (`service.account`, with a digest of the PIN
 * hash) and the rows are checked against it (host/service/accounts-audit.ts). Every sign-in,
 * exit and refusal is journalled too.
 */
export { ACCOUNTS_DB } from './accounts-db.js';
export { AccountError, type Account } from './account-record.js';

export interface LockoutPolicy {
  /** Wrong PINs in a row that lock the account. */
  maxFailures: number;
  /** How long it stays locked. */
  lockMs: number;
}

export const DEFAULT_LOCKOUT: LockoutPolicy = { maxFailures: 5, lockMs: 15 * 60_000 };

export type CheckRefusal = 'unknown' | 'bad-pin' | 'locked' | 'disabled' | 'busy' | 'integrity';
export type CheckResult =
  | { ok: true; account: Account }
  | { ok: false; reason: Exclude<CheckRefusal, 'integrity'>; lockedUntil?: string; account?: Account }
  | { ok: false; reason: 'integrity'; problems: string[]; account?: Account };

/** Where an account stands for a two-person action started earlier: still the account that started it. */
export type Standing = { ok: true; account: Account } | { ok: false; reason: 'unknown' | 'disabled' | 'integrity'; problems?: string[] };

/** What a supervisor may do to an account on the command line (besides `setRole`). */
export type AccountAction = 'disable' | 'enable' | 'unlock' | 'reset-pin';

export interface AccountStoreOptions {
  policy?: LockoutPolicy;
  /** The clock of locks (the host's timers in a test). */
  now?: () => number;
  scrypt?: { N: number; r: number; p: number };
  /**
   * The journal the rows are checked against and every change is written to first (the ledger).
   * Null: the data folder has no ledger yet (the first set-up); the host adopts what it finds.
   */
  journal?: AccountJournal | null;
  /** Called for each PIN compared with an account's hash, or with a decoy for an unknown staff number (metrics). */
  onPinCheck?: (outcome: 'right' | 'wrong' | 'unknown') => void;
  /**
   * Work on a copy of the store in memory, as the host would find it at its next start (migrated,
   * an old JSON file imported), and write nothing to the folder: `etg ledger verify`.
   */
  inMemoryCopy?: boolean;
}

/** A dummy hash, checked once to learn how long a PIN check takes before any real one has run. */
let decoy: Promise<PinHash> | null = null;

export const label = (a: { name: string; staff: string }) => `${a.name} (${a.staff})`;

/** How long a PIN check's reservation holds if its process dies mid-hash (real time). */
const CHECK_HOLD_MS = 60_000;
/** A proposal its maker never journalled (it died first) is dropped after this long (real time). */
const PROPOSAL_STALE_MS = 60_000;

/** A new PIN: 4 to 12 digits, not one digit repeated nor a run. */
function checkNewPin(pin: string): void {
  if (!Pin.safeParse(pin).success) throw new AccountError('a PIN is 4 to 12 digits');
  if (/^(\d)\1+$/.test(pin) || '0123456789012'.includes(pin) || '9876543210987'.includes(pin)) {
    throw new AccountError('choose a PIN that is not one digit repeated or a run of digits');
  }
}

interface ProposalRow {
  id: number;
  staff: string;
  change: string;
  entry: string;
  after_seq: number;
  proposed_at: number;
}

type Reservation = { kind: 'reserved'; account: Account } | { kind: 'done'; result: CheckResult; spend?: PinHash | 'decoy' };

/** The later of two ISO times (either may be null). */
function later(a: string | null, b: string | null | undefined): string | null {
  if (a === null) return b ?? null;
  if (b === null || b === undefined) return a;
  return Date.parse(b) > Date.parse(a) ? b : a;
}

export class AccountStore {
  /** The database file. */
  readonly file: string;
  private readonly db: SqliteDb;
  private readonly policy: LockoutPolicy;
  private readonly now: () => number;
  private readonly scrypt: { N: number; r: number; p: number };
  private readonly journal: AccountJournal | null;
  private readonly journalled: JournalledAccounts | null;
  private readonly onPinCheck: (outcome: 'right' | 'wrong' | 'unknown') => void;
  /** The check in progress per staff number in this process: the next waits for it. */
  private readonly checks = new Map<string, Promise<unknown>>();
  /** How long a PIN check has been taking (ms, a moving average of the real ones); null before the first. */
  private hashMs: number | null = null;

  constructor(dataDir: string, o: AccountStoreOptions = {}) {
    this.policy = o.policy ?? DEFAULT_LOCKOUT;
    this.now = o.now ?? Date.now;
    this.scrypt = o.scrypt ?? SCRYPT_PARAMS;
    this.journal = o.journal ?? null;
    this.journalled = this.journal ? new JournalledAccounts(this.journal) : null;
    this.onPinCheck = o.onPinCheck ?? (() => undefined);
    this.file = path.join(dataDir, ACCOUNTS_DB);
    this.db = o.inMemoryCopy ? copyAccountsDb(dataDir) : openAccountsDb(dataDir);
    try {
      importLegacyOnce(this.db, dataDir, { rename: !o.inMemoryCopy }, (text) => {
        let parsed: z.infer<typeof AccountsFile>;
        try {
          parsed = AccountsFile.parse(JSON.parse(text));
        } catch (e) {
          throw new AccountError(`the old accounts file cannot be imported: ${e instanceof Error ? e.message : String(e)}`);
        }
        for (const a of parsed.accounts) putAccount(this.db, a);
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
    return readAccounts(this.db);
  }

  find(staff: string): Account | undefined {
    return this.list().find((a) => a.staff === staff);
  }

  // ── the journal ──

  /**
   * Journals the accounts once, as they stand, when the journal does not hold them yet: an
   * accounts store from before accounts were journalled in full, or one set up before the data
   * folder had a ledger. The actions the set-up recorded come first (as an earlier version
   * journalled them), then one `service.account` entry per row, marked `adopt`, with its PIN
   * hash's digest: the baseline every later check compares with. Done under the accounts' write
   * lock, so two processes opening the folder at once adopt once. Returns the rows adopted.
   */
  adopt(): number {
    const journal = this.journal;
    const journalled = this.journalled;
    if (!journal || !journalled) return 0;
    return this.db
      .transaction(() => {
        journalled.refresh();
        if (journalled.adopted) {
          this.db.prepare('DELETE FROM unjournalled').run();
          markJournalled(this.db);
          return 0;
        }
        const rows = this.list();
        if (rows.length === 0) return 0;
        const legacy: AccountEntry[] = rows.flatMap((a) =>
          (a.unjournalled ?? []).map((u) => ({ by: u.by, staff: a.staff, name: a.name, role: a.role, action: u.action })),
        );
        const baseline: AccountEntry[] = rows.map((a) => ({
          by: a.createdBy.slice(0, 128),
          staff: a.staff,
          name: a.name,
          role: a.role,
          action: 'adopt',
          pin: pinDigest(a.staff, a.pin),
          disabled: a.disabled === true,
        }));
        const seqs = journal.record([...legacy, ...baseline]).slice(legacy.length);
        rows.forEach((a, i) => this.db.prepare('UPDATE accounts SET journalled_seq = ? WHERE staff = ?').run(seqs[i] ?? null, a.staff));
        this.db.prepare('DELETE FROM unjournalled').run();
        markJournalled(this.db);
        return rows.length;
      })
      .immediate();
  }

  /**
   * Every difference between the rows and the journal (`service account 1002: …`), after applying
   * the changes found journalled but not yet applied (a command cut between its two steps). Empty
   * when the accounts are not journalled yet (nothing to compare with).
   */
  audit(): string[] {
    const rows = this.reconcile(true);
    if (!this.journalled?.adopted) return [];
    return auditAccounts([...rows.values()], this.journalled.all(), this.now());
  }

  /** The same as `audit`, writing nothing (`etg ledger verify`): a journalled change not yet applied is applied in memory. */
  auditReadOnly(): { adopted: boolean; accounts: number; problems: string[] } {
    const rows = this.reconcile(false);
    if (!this.journalled?.adopted) return { adopted: false, accounts: rows.size, problems: [] };
    return { adopted: true, accounts: rows.size, problems: auditAccounts([...rows.values()], this.journalled.all(), this.now()) };
  }

  /**
   * The account that started a two-person action, checked again when the second person confirms:
   * still there, still what the journal says, not disabled since.
   */
  standing(staff: string): Standing {
    const row = this.reconcile(true).get(staff);
    const problems = this.problemsOf(staff, row);
    if (problems.length) return { ok: false, reason: 'integrity', problems };
    if (!row) return { ok: false, reason: 'unknown' };
    if (row.disabled) return { ok: false, reason: 'disabled' };
    return { ok: true, account: row };
  }

  // ── PIN checks ──

  /**
   * Checks a PIN, one check per account at a time: in this process the next waits for the one in
   * progress; another process's is refused as `busy` while it runs. The attempt is reserved
   * before the PIN is hashed, in one write transaction: the row is checked against the journal,
   * a lock (the store's or the journal's, whichever ends later) refuses even the right PIN, and
   * the attempt is counted as a failure, locking the account if it is the last one allowed; only
   * then the hash runs, and a right PIN clears the count and the lock. So however many checks are
   * sent at once, at most `maxFailures` wrong PINs are ever hashed before the lock.
   */
  check(staff: string, pin: string): Promise<CheckResult> {
    const before = this.checks.get(staff) ?? Promise.resolve();
    const run = before.then(
      () => this.checkNow(staff, pin),
      () => this.checkNow(staff, pin),
    );
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.checks.set(staff, tail);
    void tail.then(() => {
      if (this.checks.get(staff) === tail) this.checks.delete(staff);
    });
    return run;
  }

  private async checkNow(staff: string, pin: string): Promise<CheckResult> {
    const r = this.reserve(staff);
    if (r.kind === 'done') {
      // The time a real check takes: an unknown or disabled account is not told apart by timing. It
      // is waited, not hashed (but once, to learn it): a flood of staff numbers that name no
      // account then costs no CPU, and a right PIN is not queued behind its hashes (issue 50).
      if (r.spend) await this.spendCheckTime(pin, r.spend);
      if (r.spend === 'decoy') this.onPinCheck('unknown');
      return r.result;
    }
    let good = false;
    let failure: { error: unknown } | null = null;
    const startedAt = performance.now();
    try {
      good = await verifyPin(pin, r.account.pin);
      this.measured(performance.now() - startedAt);
    } catch (error) {
      failure = { error };
    }
    // Settled even if the hash failed: the attempt stays counted, the next check may run.
    const result = this.settle(staff, r.account.pin, good);
    if (failure) throw failure.error;
    this.onPinCheck(good ? 'right' : 'wrong');
    return result;
  }

  /** Waits as long as a real PIN check takes; hashes only while that is not known yet. */
  private async spendCheckTime(pin: string, spend: PinHash | 'decoy'): Promise<void> {
    if (this.hashMs !== null) {
      const ms = this.hashMs;
      return new Promise((resolve) => setTimeout(resolve, ms));
    }
    decoy ??= hashPin('000000', this.scrypt);
    const against = spend === 'decoy' ? await decoy : spend;
    const startedAt = performance.now();
    await verifyPin(pin, against);
    this.measured(performance.now() - startedAt);
  }

  private measured(ms: number): void {
    this.hashMs = this.hashMs === null ? ms : 0.8 * this.hashMs + 0.2 * ms;
  }

  /** Counts the attempt before its hash runs (see `check`). */
  private reserve(staff: string): Reservation {
    this.reconcile(true);
    return this.db
      .transaction((): Reservation => {
        // First, under the write lock: a trigger planted while the host runs would act on the writes below.
        const planted = this.plantedSchema();
        if (planted.length) return { kind: 'done', result: { ok: false, reason: 'integrity', problems: planted } };
        const row = this.find(staff);
        const problems = this.problemsOf(staff, row);
        if (problems.length) return { kind: 'done', result: { ok: false, reason: 'integrity', problems, ...(row ? { account: row } : {}) } };
        if (!row) return { kind: 'done', result: { ok: false, reason: 'unknown' }, spend: 'decoy' };
        const now = this.now();
        const lock = later(row.lockedUntil, this.journalled?.get(staff)?.lockedUntil);
        if (lock !== null && Date.parse(lock) > now) return { kind: 'done', result: { ok: false, reason: 'locked', lockedUntil: lock, account: row } };
        if (row.disabled) return { kind: 'done', result: { ok: false, reason: 'disabled', account: row }, spend: row.pin };
        const checking = this.db.prepare('SELECT checking_until FROM accounts WHERE staff = ?').pluck().get(staff) as string | null;
        if (checking !== null && Date.parse(checking) > Date.now()) return { kind: 'done', result: { ok: false, reason: 'busy', account: row } };
        // A lock served resets the count: the next mistake starts a new series.
        const failures = (row.lockedUntil !== null ? 0 : row.failures) + 1;
        const lockedUntil = failures >= this.policy.maxFailures ? new Date(now + this.policy.lockMs).toISOString() : null;
        this.db
          .prepare('UPDATE accounts SET failures = ?, locked_until = ?, checking_until = ? WHERE staff = ?')
          .run(failures, lockedUntil, new Date(Date.now() + CHECK_HOLD_MS).toISOString(), staff);
        return { kind: 'reserved', account: row };
      })
      .immediate();
  }

  /** The outcome of a reserved check: a right PIN (still the row's) clears the count and the lock. */
  private settle(staff: string, checked: PinHash, good: boolean): CheckResult {
    return this.db
      .transaction((): CheckResult => {
        const planted = this.plantedSchema(); // as in `reserve`: planted while the PIN was hashed
        if (planted.length) return { ok: false, reason: 'integrity', problems: planted };
        this.db.prepare('UPDATE accounts SET checking_until = NULL WHERE staff = ?').run(staff);
        const row = this.find(staff);
        if (!row) return { ok: false, reason: 'unknown' };
        const problems = this.problemsOf(staff, row);
        if (problems.length) return { ok: false, reason: 'integrity', problems, account: row };
        if (row.disabled) return { ok: false, reason: 'disabled', account: row };
        if (good && samePinHash(row.pin, checked)) {
          this.db.prepare('UPDATE accounts SET failures = 0, locked_until = NULL WHERE staff = ?').run(staff);
          return { ok: true, account: { ...row, failures: 0, lockedUntil: null } };
        }
        if (row.lockedUntil !== null && Date.parse(row.lockedUntil) > this.now())
          return { ok: false, reason: 'locked', lockedUntil: row.lockedUntil, account: row };
        return { ok: false, reason: 'bad-pin', account: row };
      })
      .immediate();
  }

  /**
   * What differs from the schema the store's migrations make (a trigger, table or index planted by
   * another process since the open checked it), each named: `service-accounts.sqlite: schema: …`.
   */
  private plantedSchema(): string[] {
    return storeSchemaProblems(this.db, ACCOUNTS_MIGRATIONS).map((p) => `${ACCOUNTS_DB}: ${p}`);
  }

  /** How the row differs from the journal; nothing while the accounts are not journalled yet. */
  private problemsOf(staff: string, row: Account | undefined): string[] {
    const journalled = this.journalled?.refresh();
    if (!journalled?.adopted) return [];
    return auditAccount(staff, row, journalled.get(staff), this.now());
  }

  // ── changes ──

  /**
   * Adds an account. The first must be a supervisor (nobody else could authorise the next ones),
   * and only on a store and a journal that hold no account; later ones need a supervisor's PIN,
   * checked here with the lockout rules. The slow parts (the supervisor's PIN, hashing the new
   * PIN) come first; the change is then proposed, journalled and applied (`mutate`).
   */
  async add(
    input: { name: string; role: Account['role']; pin: string; staff?: string },
    authorisedBy: { staff: string; pin: string } | null,
  ): Promise<Account> {
    checkNewPin(input.pin);
    this.reconcile(true);
    const journalKnows = this.journalled?.refresh().knowsAccounts ?? false;
    let by = 'first-run set-up';
    if (this.list().length === 0 && !journalKnows) {
      if (input.role !== 'supervisor') throw new AccountError('the first account must be a supervisor');
      if (authorisedBy) throw new AccountError('there are no accounts yet: the first supervisor needs no authorisation');
    } else {
      if (this.list().length === 0)
        throw new AccountError(
          'the journal records accounts this accounts store does not hold (a lost or replaced store): restore service-accounts.sqlite from a backup; no account is added without a supervisor',
        );
      if (!authorisedBy) throw new AccountError('adding an account needs an existing supervisor (--by STAFF and their PIN)');
      by = label(await this.supervisor(authorisedBy));
    }
    const pin = await hashPin(input.pin, this.scrypt);
    return this.mutate((current) => {
      // Checked again on the fresh rows: they may have changed while the PINs were hashed.
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
      return { staff, change: { kind: 'add', account }, entry: { by, staff, name: input.name, role: input.role, pin: pinDigest(staff, pin) } };
    });
  }

  /**
   * A supervisor disables or enables an account, lifts its lock, or sets a new PIN. The
   * supervisor's PIN is checked with the lockout rules (a disabled supervisor authorises nothing);
   * a supervisor may not disable their own account, so one enabled supervisor always remains.
   * Journalled (`service.account` with the action) before the row changes.
   */
  async manage(staff: string, action: AccountAction, authorisedBy: { staff: string; pin: string }, newPin?: string): Promise<Account> {
    if (action === 'reset-pin') {
      if (newPin === undefined) throw new AccountError('reset-pin needs the new PIN');
      checkNewPin(newPin);
    }
    if (!this.find(staff)) throw new AccountError(`no account with staff number ${staff}`);
    const sup = await this.supervisor(authorisedBy);
    const pin = action === 'reset-pin' && newPin !== undefined ? await hashPin(newPin, this.scrypt) : null;
    return this.mutate((current) => {
      const a = current.find((x) => x.staff === staff);
      if (!a) throw new AccountError(`no account with staff number ${staff}`);
      // The acting supervisor stays enabled, so a supervisor is always left to undo it.
      if (action === 'disable' && a.staff === sup.staff) throw new AccountError('a supervisor may not disable their own account');
      const change: Change = {
        kind: 'set',
        ...(action === 'disable' ? { disabled: true } : {}),
        ...(action === 'enable' ? { disabled: false } : {}),
        // A new PIN or an unlock starts a new series of tries.
        ...(action === 'unlock' || action === 'reset-pin' ? { unlock: true } : {}),
        ...(pin ? { pin } : {}),
      };
      return {
        staff,
        change,
        entry: { by: label(sup), staff, name: a.name, role: a.role, action, ...(pin ? { pin: pinDigest(staff, pin) } : {}) },
        legacy: { action, by: label(sup), at: new Date(this.now()).toISOString() },
      };
    });
  }

  /**
   * A supervisor signed in to service mode lifts another account's lock (issue 50): their session
   * is their authorisation (their PIN was checked at sign-in), their own standing is checked again
   * here (still the journal's, enabled, a supervisor), and nobody lifts their own lock. Journalled
   * (`service.account`, action `unlock`) before the row changes, like the command line's unlock.
   */
  unlockBy(staff: string, by: Account): Account {
    if (staff === by.staff) throw new AccountError(serviceSaid('unlockOwnLock'));
    const sup = this.standing(by.staff);
    if (!sup.ok || sup.account.role !== 'supervisor') throw new AccountError(serviceSaid('unlockNotSupervisor'));
    return this.mutate((current) => {
      const a = current.find((x) => x.staff === staff);
      if (!a) throw new AccountError(serviceSaid('accountUnknown', { staff }));
      const lock = later(a.lockedUntil, this.journalled?.get(staff)?.lockedUntil);
      if (lock === null || Date.parse(lock) <= this.now()) throw new AccountError(serviceSaid('accountNotLocked', { name: a.name, staff: a.staff }));
      return {
        staff,
        change: { kind: 'set', unlock: true },
        entry: { by: label(sup.account), staff, name: a.name, role: a.role, action: 'unlock' },
        legacy: { action: 'unlock', by: label(sup.account), at: new Date(this.now()).toISOString() },
      };
    });
  }

  /** The accounts whose lock (the store's or the journal's, whichever ends later) still holds. */
  locked(): { staff: string; name: string; until: string }[] {
    const now = this.now();
    this.journalled?.refresh();
    return this.list().flatMap((a) => {
      const lock = later(a.lockedUntil, this.journalled?.get(a.staff)?.lockedUntil);
      return lock !== null && Date.parse(lock) > now ? [{ staff: a.staff, name: a.name, until: lock }] : [];
    });
  }

  /** A supervisor gives an account another role (not their own: a supervisor is always left). */
  async setRole(staff: string, role: Account['role'], authorisedBy: { staff: string; pin: string }): Promise<Account> {
    if (!this.find(staff)) throw new AccountError(`no account with staff number ${staff}`);
    const sup = await this.supervisor(authorisedBy);
    return this.mutate((current) => {
      const a = current.find((x) => x.staff === staff);
      if (!a) throw new AccountError(`no account with staff number ${staff}`);
      if (a.staff === sup.staff) throw new AccountError('a supervisor may not change their own role');
      if (a.role === role) throw new AccountError(`${label(a)} is ${role === 'auditor' ? 'an' : 'a'} ${role} already`);
      return { staff, change: { kind: 'set', role }, entry: { by: label(sup), staff, name: a.name, role, action: 'role' } };
    });
  }

  /** The authorising supervisor, checked with the lockout rules (a wrong PIN counts against them, and is journalled). */
  private async supervisor(by: { staff: string; pin: string }): Promise<Account> {
    const check = await this.check(by.staff, by.pin);
    if (!check.ok) {
      if (check.reason !== 'busy') this.journal?.denied(by.staff, check.reason, check.reason === 'locked' ? check.lockedUntil : undefined);
      const why = check.reason === 'integrity' ? `integrity (${check.problems.join('; ')})` : check.reason;
      throw new AccountError(`the authorising supervisor was refused: ${why}`);
    }
    if (check.account.role !== 'supervisor') throw new AccountError('only a supervisor may do this');
    return check.account;
  }

  /**
   * Makes a change. With a journal, in three steps: the change is proposed (written to
   * `proposals`, checked against the rows as they are), journalled, then applied to the row. A
   * process cut after the journal leaves a proposal whose entry is journalled: the next read
   * applies it (`reconcile`); one cut before leaves an entry-less proposal, dropped later. So the
   * row never holds what the journal does not say, and what the journal says reaches the row.
   * Without one (no ledger yet) the row changes at once and the action waits for the adoption.
   */
  private mutate(
    build: (current: Account[]) => {
      staff: string;
      change: Change;
      entry: AccountEntry;
      legacy?: { action: AccountAction; by: string; at: string };
    },
  ): Account {
    const journal = this.journal;
    if (!journal) {
      if (isJournalled(this.db)) throw new AccountError(serviceSaid('accountsJournalled'));
      return changeAccounts(this.db, (current) => {
        const b = build(current);
        const before = current.find((a) => a.staff === b.staff);
        const row = applyChange(b.change, before);
        if (b.legacy && b.change.kind === 'set') row.unjournalled = [...(before?.unjournalled ?? []), b.legacy];
        return { accounts: before ? current.map((a) => (a.staff === b.staff ? row : a)) : [...current, row], result: row };
      });
    }
    this.reconcile(true);
    const proposal = this.db
      .transaction(() => {
        const b = build(this.list());
        const text = canonicalJson(b.entry);
        const id = Number(
          this.db
            .prepare('INSERT INTO proposals (staff, change, entry, after_seq, proposed_at) VALUES (?, ?, ?, ?, ?)')
            .run(b.staff, JSON.stringify(b.change), text, journal.head(), Date.now()).lastInsertRowid,
        );
        return { id, ...b };
      })
      .immediate();
    let seq: number | undefined;
    try {
      [seq] = journal.record([proposal.entry]);
    } catch (e) {
      this.db.prepare('DELETE FROM proposals WHERE id = ?').run(proposal.id);
      throw e;
    }
    return this.db
      .transaction(() => {
        const row = applyChange(proposal.change, this.find(proposal.staff), seq);
        putAccount(this.db, row);
        this.db.prepare('DELETE FROM proposals WHERE id = ?').run(proposal.id);
        markJournalled(this.db);
        return row;
      })
      .immediate();
  }

  /**
   * The rows, with every proposal whose entry the journal holds applied (`write`: in the store, as
   * its maker would have; otherwise in the returned rows only), and proposals never journalled
   * dropped once stale. A proposal still young and not journalled is another process's change in
   * progress: left alone.
   */
  private reconcile(write: boolean): Map<string, Account> {
    const rows = new Map(this.list().map((a) => [a.staff, a]));
    const journalled = this.journalled;
    if (!journalled) return rows;
    journalled.refresh();
    const proposals = this.db.prepare('SELECT * FROM proposals ORDER BY id').all() as ProposalRow[];
    if (proposals.length === 0) return rows;
    const found = proposals.map((p) => ({ p, seq: journalled.findEntry(p.staff, p.entry, p.after_seq) }));
    for (const { p, seq } of found) if (seq !== undefined) rows.set(p.staff, applyChange(Change.parse(JSON.parse(p.change)), rows.get(p.staff), seq));
    if (!write) return rows;
    this.db
      .transaction(() => {
        for (const { p, seq } of found) {
          if (seq === undefined) {
            if (Date.now() - p.proposed_at > PROPOSAL_STALE_MS) this.db.prepare('DELETE FROM proposals WHERE id = ?').run(p.id);
            continue;
          }
          // Applied to the row as it is now (its count of wrong PINs may have moved since).
          if (this.db.prepare('DELETE FROM proposals WHERE id = ?').run(p.id).changes === 0) continue; // its maker applied it meanwhile
          putAccount(this.db, applyChange(Change.parse(JSON.parse(p.change)), this.find(p.staff), seq));
        }
      })
      .immediate();
    return new Map(this.list().map((a) => [a.staff, a]));
  }
}
