import { randomBytes, timingSafeEqual } from 'node:crypto';
import { ServicePage, type CommandBody, type Language, type ServiceAction, type ServiceNotice, type ServiceState } from '../../protocol/index.js';
import type { Timers } from '../table/timers.js';
import { needsTwoPeople } from './two-person.js';
import { routeAction } from './action-routes.js';
import { AccountError, label, type Account, type AccountStore, type CheckResult } from './accounts.js';
import type { DeniedReason } from './account-journal.js';
import { serviceSaid, tiltDetailSaid } from '../../locales/said.js';
import { refusedBy } from './refusal-words.js';
import { faultKind, faultNotice } from './fault-words.js';
import { buildPage, FIRST_PAGE, type PageRequest } from './pages.js';
import { mayConfirm, mayStart, mayStartTwoPerson } from './roles.js';
import type { BackendResult, ServiceBackend } from './service-backend.js';
import { SIGN_IN_LIMITS, SignInGate, type Admission, type SignInLimits, type TokenBucket } from './sign-in-limits.js';

/** Why a service command was refused; worded under `service.refused.<reason>` in every locale. */
export type ServiceRefusal = 'not-signed-in' | 'signed-in' | 'busy' | 'role' | 'no-confirm' | 'not-service' | 'rate-limited';

/** Why a sign-in or a confirmation was refused, as /metrics counts them. */
export type SignInRefusal = Exclude<CheckResult, { ok: true }>['reason'] | 'same-person' | 'role' | 'rate-limited-connection';

export type ServiceApply = { ok: true } | { ok: false; reason: ServiceRefusal; detail: string };

export interface ServiceHostOptions {
  accounts: AccountStore;
  backend: ServiceBackend;
  timers: Timers;
  /** A session with no command for this long ends by itself (default 5 minutes). */
  idleMs?: number;
  /** A two-person action waits this long for its second person (default 2 minutes). */
  confirmMs?: number;
  /** How fast PINs may be tried per connection, how many refusals the table journals (default SIGN_IN_LIMITS). */
  limits?: SignInLimits;
  /** Each refused sign-in or confirmation, by reason (/metrics). */
  onRefused?: (reason: SignInRefusal) => void;
  /** Where an exception a service action threw is written in full (the screen is told its kind only), and each refusal's English (`info`). */
  log?: { error(fields: object, message: string): void; info?(fields: object, message: string): void };
}

interface Session {
  account: Account;
  /** Its `service.enter` entry, which its exit names. */
  enterSeq: number;
  idleEndsAt: number;
  exportToken: string;
  timer: unknown;
}

export interface ExportFile {
  contentType: string;
  filename: string;
  body: string;
  /** Shown by the browser (the printable report) rather than saved. */
  inline?: boolean;
}

export type ExportKind = 'meters.csv' | 'meters.json' | 'meters.html' | 'evidence' | 'enrolment' | 'peer-enrolment';

/**
 * Service mode for every screen connection to the `/service` view. Each connection signs in on
 * its own and has its own session (idle timeout, export token, pending two-person action): a
 * second tab opened with the service URL, or a second service window, sees the sign-in pad and
 * nothing else, and closing it ends only its own session. What they share is the accounts (so
 * the lockout counts wrong PINs from every connection) and the backend.
 */
export class ServiceHost {
  private readonly consoles = new Map<string, ServiceConsole>();
  private readonly listeners = new Set<(conn: string) => void>();
  private readonly gate: SignInGate;
  /** The latest lock journalled per staff number: a new lock is journalled whatever the budget. */
  private readonly locksJournalled = new Map<string, string>();

  constructor(private readonly o: ServiceHostOptions) {
    this.gate = new SignInGate(o.limits ?? SIGN_IN_LIMITS, () => o.timers.now());
    o.backend.onChange(() => {
      for (const [conn, c] of this.consoles) if (c.signedIn()) this.changed(conn);
    });
    // A kill or a power cut ended the sessions open then: their exits are journalled now.
    o.backend.sessions.closeOpen();
    // The accounts set up before this folder's ledger, or before accounts were journalled in full,
    // are journalled once as found; from then on every row must be what the journal says.
    o.accounts.adopt();
    const problems = o.accounts.audit();
    if (problems.length > 0) o.backend.sessions.raiseFault('accounts-integrity', { detail: problems.slice(0, 20).join('; ') });
  }

  /** `listener(conn)`: the state of that connection's service view changed. */
  onChange(listener: (conn: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Who is signed in, per connection (for tests and the host's own log). */
  sessions(): { conn: string; name: string; staff: string; role: Account['role'] }[] {
    return [...this.consoles].flatMap(([conn, c]) => {
      const a = c.signedIn();
      return a ? [{ conn, ...a }] : [];
    });
  }

  state(conn: string, language: Language): ServiceState {
    return this.console(conn).state(language);
  }

  apply(conn: string, command: CommandBody): ServiceApply {
    return this.console(conn).apply(command);
  }

  /** An export for the signed-in session holding `token`; null for anyone else. */
  exportFile(token: string, kind: ExportKind, roundId?: string, language?: Language): ExportFile | null {
    for (const c of this.consoles.values()) {
      const file = c.exportFile(token, kind, roundId, language);
      if (file) return file;
    }
    return null;
  }

  /** A service screen's connection went away: its own session (if any) ends, no other. */
  screenGone(conn: string): void {
    const c = this.consoles.get(conn);
    if (!c) return;
    c.end('disconnect');
    c.dispose();
    this.consoles.delete(conn);
  }

  /** The host is stopping: every session is journalled out. */
  stop(): void {
    for (const c of this.consoles.values()) {
      c.end('host-stop');
      c.dispose();
    }
    this.consoles.clear();
  }

  private console(conn: string): ServiceConsole {
    let c = this.consoles.get(conn);
    if (!c) {
      c = new ServiceConsole(
        this.o,
        {
          bucket: this.gate.connection(),
          admit: (own) => this.admit(own),
          refused: (reason) => this.o.onRefused?.(reason),
          denied: (staff, reason, lockedUntil) => this.denied(staff, reason, lockedUntil),
        },
        () => this.changed(conn),
      );
      this.consoles.set(conn, c);
    }
    return c;
  }

  private changed(conn: string): void {
    for (const l of this.listeners) l(conn);
  }

  /**
   * An attempt at a PIN (a sign-in or a second person's confirmation), let through or refused by
   * its connection's limit. A refusal is a burst: a security event, journalled once as the
   * `service-sign-in-burst` fault until a supervisor clears it, and counted on /metrics.
   */
  private admit(own: TokenBucket): Admission | null {
    const r = this.gate.admit(own);
    if (r) return r;
    this.o.onRefused?.('rate-limited-connection');
    this.o.backend.sessions.raiseFault('service-sign-in-burst', { say: tiltDetailSaid('signInBurst') });
    return null;
  }

  /**
   * A refused PIN check, journalled (`service.denied`) within the table's budget of refusals; past
   * it, counted only (the caller counted it) and the burst fault raised, so a flood from fresh
   * connections cannot fill the journal. A lock not journalled before is journalled always: the
   * journal's locks are what the accounts store is checked against.
   */
  private denied(staff: string, reason: DeniedReason, lockedUntil?: string): void {
    const newLock = reason === 'locked' && lockedUntil !== undefined && this.locksJournalled.get(staff) !== lockedUntil;
    if (!newLock && !this.gate.journalRefusal()) {
      this.o.backend.sessions.raiseFault('service-sign-in-burst', { say: tiltDetailSaid('signInBurstUncounted') });
      return;
    }
    // A lock is taken as journalled once the journal took it: refused (a full disk), the next refusal journals it.
    if (this.o.backend.sessions.denied(staff, reason, lockedUntil) && newLock) this.locksJournalled.set(staff, lockedUntil);
  }
}

/** What a console asks of its host for each PIN attempt. */
interface Attempts {
  /** The connection's own bucket. */
  bucket: TokenBucket;
  admit(own: TokenBucket): Admission | null;
  refused(reason: SignInRefusal): void;
  /** Journals a refusal, within the table's budget of journalled refusals. */
  denied(staff: string, reason: DeniedReason, lockedUntil?: string): void;
}

/**
 * One connection's service view: sign-in, the idle timeout, pages, actions by role, and the
 * two-person confirmation built once for every action that needs it. Before sign-in the state
 * holds the cabinet label and the last sign-in notice only: no page data leaves the host.
 *
 * PIN checks are asynchronous (scrypt on libuv's pool); their outcome arrives as a new snapshot.
 * One check runs at a time per connection and per account (host/service/accounts.ts reserves the
 * attempt before it hashes), and each attempt passes the connection's and the table's limits
 * first (host/service/sign-in-limits.ts): however many screens guess at once, an account's
 * lockout comes after `maxFailures` wrong PINs hashed, and the table's limit after a few more.
 */
class ServiceConsole {
  private session: Session | null = null;
  private request: PageRequest = FIRST_PAGE;
  private confirm: { action: ServiceAction; by: Account; expiresAt: number; timer: unknown } | null = null;
  private notice: ServiceNotice | null = null;
  private busy = false;
  private disposed = false;
  private readonly idleMs: number;
  private readonly confirmMs: number;

  constructor(
    private readonly o: ServiceHostOptions,
    private readonly attempts: Attempts,
    private readonly changed: () => void,
  ) {
    this.idleMs = o.idleMs ?? 5 * 60_000;
    this.confirmMs = o.confirmMs ?? 2 * 60_000;
  }

  signedIn(): { name: string; staff: string; role: Account['role'] } | null {
    const a = this.session?.account;
    return a ? { name: a.name, staff: a.staff, role: a.role } : null;
  }

  state(language: Language): ServiceState {
    const b = this.o.backend;
    const base: ServiceState = {
      kind: 'service',
      tableId: b.cabinet.tableId,
      softwareVersion: b.cabinet.softwareVersion,
      language,
      signedIn: this.session !== null,
      ...(b.cabinet.demonstration ? { demonstration: true as const } : {}),
      notice: this.notice,
      busy: this.busy,
    };
    const s = this.session;
    if (!s) return base;
    return {
      ...base,
      session: {
        name: s.account.name,
        staff: s.account.staff,
        role: s.account.role,
        currency: b.cabinet.currency === 'HKD' ? 'HKD' : 'MOP',
        idleEndsAt: s.idleEndsAt,
        exportToken: s.exportToken,
      },
      // Parsed so a page that outgrew its schema is a host error here, not a frame the screen drops.
      page: ServicePage.parse(this.page(s)),
      confirm: this.confirm ? { action: this.confirm.action, requestedBy: label(this.confirm.by), expiresAt: this.confirm.expiresAt } : null,
    };
  }

  /** The page asked for; the status page lists the accounts locked now, which a supervisor may unlock. */
  private page(s: Session): ServicePage {
    const page = buildPage(this.o.backend, this.request, s.enterSeq);
    if (page.page !== 'status') return page;
    const locked = this.o.accounts.locked().slice(0, 32);
    return locked.length > 0 ? { ...page, locked } : page;
  }

  apply(command: CommandBody): ServiceApply {
    switch (command.name) {
      case 'service-sign-in': {
        if (this.session) return refuse('signed-in', 'sign out first');
        if (this.busy) return refuse('busy', 'a PIN is being checked');
        const admitted = this.attempts.admit(this.attempts.bucket);
        if (!admitted) return refuse('rate-limited', 'too many PINs tried: wait');
        this.run(() => this.signIn(command.staff, command.pin, admitted));
        return { ok: true };
      }
      case 'service-sign-out':
        if (!this.session) return refuse('not-signed-in', 'nobody is signed in');
        this.end('sign-out');
        return { ok: true };
      case 'service-page':
      case 'service-action':
      case 'service-confirm':
      case 'service-cancel':
        break;
      default:
        return refuse('not-service', `${command.name} is not a service command`);
    }
    const s = this.session;
    if (!s) return refuse('not-signed-in', 'sign in first');
    this.touch(s);
    if (command.name === 'service-page') {
      this.request = {
        page: command.page,
        offset: command.offset ?? 0,
        station: command.station ?? null,
        filter: command.filter ?? {},
        device: command.device ?? null,
      };
      this.notice = null;
      this.changed();
      return { ok: true };
    }
    if (command.name === 'service-cancel') {
      if (!this.confirm) return refuse('no-confirm', 'nothing waits for a second person');
      this.clearConfirm();
      this.say({ ok: true, key: 'service.confirm.cancelled' });
      return { ok: true };
    }
    if (this.busy) return refuse('busy', 'the previous action is still running');
    if (command.name === 'service-confirm') {
      const pending = this.confirm;
      if (!pending) return refuse('no-confirm', 'nothing waits for a second person');
      // The second person's PIN is a sign-in like any other: the same limits, lockout and journal.
      const admitted = this.attempts.admit(this.attempts.bucket);
      if (!admitted) return refuse('rate-limited', 'too many PINs tried: wait');
      this.run(() => this.secondPerson(pending, command.staff, command.pin, admitted));
      return { ok: true };
    }
    const action = command.action;
    const role = s.account.role;
    if (!mayStart(role, action.kind)) return refuse('role', `a ${role} may not ${action.kind}`);
    if (this.needsTwo(action)) {
      if (!mayStartTwoPerson(role)) return refuse('role', `${action.kind} is started by a supervisor`);
      // A value the host would refuse is refused now, before a second person is called over.
      const invalid = action.kind === 'config-change' ? this.o.backend.config.check(action.key, action.value, action.authorisation) : null;
      if (invalid !== null) {
        this.o.log?.info?.({ action: action.kind, key: invalid.notice.key, detail: invalid.detail }, 'service action refused');
        this.say({ ok: false, ...invalid.notice });
        return { ok: true };
      }
      this.clearConfirm();
      const expiresAt = this.o.timers.now() + this.confirmMs;
      const timer = this.o.timers.setTimeout(() => {
        this.confirm = null;
        this.say({ ok: false, key: 'service.confirm.expired' });
      }, this.confirmMs);
      this.confirm = { action, by: s.account, expiresAt, timer };
      this.say({ ok: true, key: 'service.confirm.waiting' });
      return { ok: true };
    }
    this.run(async () => this.outcome(await this.execute(action, [label(s.account)])));
    return { ok: true };
  }

  /** An export for the signed-in session holding `token`; null for anyone else. */
  exportFile(token: string, kind: ExportKind, roundId?: string, language?: Language): ExportFile | null {
    const s = this.session;
    if (!s || !safeEqual(token, s.exportToken)) return null;
    const b = this.o.backend;
    const stamp = new Date(this.o.timers.now()).toISOString().replace(/[:.]/g, '-');
    if (kind === 'meters.html')
      return {
        contentType: 'text/html; charset=utf-8',
        filename: `meters-${b.cabinet.tableId}-${stamp}.html`,
        body: b.meters.html(language ?? 'en'),
        inline: true,
      };
    if (kind === 'meters.csv') return { contentType: 'text/csv; charset=utf-8', filename: `meters-${b.cabinet.tableId}-${stamp}.csv`, body: b.meters.csv() };
    if (kind === 'meters.json') return { contentType: 'application/json', filename: `meters-${b.cabinet.tableId}-${stamp}.json`, body: b.meters.json() };
    if (kind === 'enrolment') {
      // The station's secret leaves the host once, to the session that enrolled it (the backend
      // checks and journals the download or the refusal).
      const station = Number(roundId);
      const body = Number.isInteger(station) ? b.stations.takeEnrolment(station, { enterSeq: s.enterSeq, who: label(s.account) }) : null;
      return body ? { contentType: 'application/json', filename: `station-${station}.enrolment.json`, body } : null;
    }
    if (kind === 'peer-enrolment') {
      // This table's enrolment file for a peer (its secret inside): once, to the session that made it.
      const body = roundId ? b.peers.takeFile(roundId, { enterSeq: s.enterSeq, who: label(s.account) }) : null;
      return body && roundId ? { contentType: 'application/json', filename: `${b.cabinet.tableId}-for-${roundId}.peer-enrolment.json`, body } : null;
    }
    const body = roundId ? b.recall.evidenceJson(roundId) : null;
    return body ? { contentType: 'application/json', filename: `evidence-${roundId}.json`, body } : null;
  }

  /** The connection closed or the host stops: a PIN check still running finds nobody to sign in. */
  dispose(): void {
    this.disposed = true;
    this.clearConfirm();
  }

  // ── internals ──

  private needsTwo(action: ServiceAction): boolean {
    return needsTwoPeople(action, this.o.backend);
  }

  private async signIn(staff: string, pin: string, admitted: Admission): Promise<void> {
    const r = await this.o.accounts.check(staff, pin);
    if (!r.ok) return this.refusedCheck(staff, r);
    admitted.succeeded();
    // The screen may have closed while the PIN was checked: nobody is left to sign in.
    if (this.session || this.disposed) return;
    const now = this.o.timers.now();
    // Journalled first: a session that is not in the journal never starts.
    const enterSeq = this.o.backend.sessions.enter(r.account.name, r.account.staff, r.account.role);
    if (enterSeq === null) return this.notJournalled();
    this.session = { account: r.account, enterSeq, idleEndsAt: now + this.idleMs, exportToken: randomBytes(24).toString('base64url'), timer: null };
    this.touch(this.session);
    this.request = FIRST_PAGE;
    this.say({ ok: true, key: 'service.signIn.welcome', values: { name: r.account.name } });
  }

  /**
   * The second person of a two-person action: never the account that started it, checked as a
   * sign-in (limits, lockout, the row against the journal), and a session of their own,
   * journalled in (`service.enter`) before the act and out (`service.exit`, `confirmed`) after
   * it. The account that started it is checked again too: still what the journal says, enabled,
   * a supervisor. The act is journalled once, naming both.
   */
  private async secondPerson(pending: NonNullable<ServiceConsole['confirm']>, staff: string, pin: string, admitted: Admission): Promise<void> {
    if (staff === pending.by.staff) {
      this.attempts.refused('same-person');
      this.attempts.denied(staff, 'same-person');
      return this.say({ ok: false, key: 'service.confirm.samePerson' });
    }
    const r = await this.o.accounts.check(staff, pin);
    if (!r.ok) return this.refusedCheck(staff, r);
    admitted.succeeded();
    if (!mayConfirm(r.account.role)) {
      this.attempts.refused('role');
      this.attempts.denied(staff, 'role');
      return this.say({ ok: false, key: 'service.confirm.role' });
    }
    // The request may have expired or been cancelled while the PIN was checked.
    if (this.confirm !== pending || !this.session) return;
    const first = this.o.accounts.standing(pending.by.staff);
    if (!first.ok || !mayStartTwoPerson(first.account.role)) {
      this.clearConfirm();
      if (!first.ok && first.reason === 'integrity')
        this.o.backend.sessions.raiseFault('accounts-integrity', {
          say: tiltDetailSaid('accountProblems', { staff: pending.by.staff, problems: (first.problems ?? []).join('; ') }),
        });
      return this.say({ ok: false, key: 'service.confirm.firstRefused' });
    }
    this.clearConfirm();
    const second = r.account;
    const enterSeq = this.o.backend.sessions.enter(second.name, second.staff, second.role);
    if (enterSeq === null) return this.notJournalled();
    try {
      this.outcome(await this.execute(pending.action, [label(first.account), label(second)]));
    } finally {
      this.o.backend.sessions.exit(second.name, second.staff, 'confirmed', enterSeq);
    }
  }

  /** A session the journal refused to open (its `service.enter`, logged): nothing was done. */
  private notJournalled(): void {
    this.outcome(refusedBy(serviceSaid('actNotJournalled')));
  }

  /** A PIN check that refused: journalled (but a busy account, which checked nothing), told to the screen, counted. */
  private refusedCheck(staff: string, r: Exclude<CheckResult, { ok: true }>): void {
    this.attempts.refused(r.reason);
    if (r.reason === 'busy') return this.say({ ok: false, key: 'service.signIn.busy' });
    if (r.reason === 'integrity') {
      // The row is not what the journal says: someone changed the accounts store behind the journal's back.
      this.o.backend.sessions.raiseFault('accounts-integrity', { say: tiltDetailSaid('accountProblems', { staff, problems: r.problems.join('; ') }) });
      this.attempts.denied(staff, 'integrity');
      return this.say({ ok: false, key: 'service.signIn.integrity' });
    }
    this.attempts.denied(staff, r.reason, r.lockedUntil);
    // An unknown staff number reads like a wrong PIN: the screen does not confirm which numbers exist.
    this.say(
      r.reason === 'locked' ? { ok: false, key: 'service.signIn.locked', values: { until: r.lockedUntil ?? '' } } : { ok: false, key: 'service.signIn.bad' },
    );
  }

  private async execute(a: ServiceAction, by: string[]): Promise<BackendResult> {
    if (a.kind === 'account-unlock') return this.unlock(a.staff);
    const s = this.session;
    return routeAction(this.o.backend, a, {
      by,
      role: s?.account.role ?? 'auditor',
      session: s ? { enterSeq: s.enterSeq, who: label(s.account) } : null,
    });
  }

  /** A supervisor lifts another account's lock (AccountStore.unlockBy journals it); never their own. */
  private unlock(staff: string): BackendResult {
    const s = this.session;
    if (!s) return refusedBy(serviceSaid('unlockNoSession'));
    if (staff === s.account.staff)
      return { ok: false, code: 'refused', detail: 'not their own lock', notice: { key: 'service.failed.samePerson', values: {} } };
    try {
      const a = this.o.accounts.unlockBy(staff, s.account);
      return { ok: true, key: 'service.done.accountUnlock', values: { name: label(a), staff } };
    } catch (e) {
      // An account's refusal without a key of its own says that nothing changed; its English is the log's (`outcome`).
      if (e instanceof AccountError) return e.say ? refusedBy(e.say) : { ...refusedBy(serviceSaid('accountRefused')), detail: e.message };
      throw e;
    }
  }

  /** What an action did, as the screen says it: always by key (a refusal's notice); a refusal's English (`detail`) is the log's. */
  private outcome(r: BackendResult): void {
    if (!r.ok) this.o.log?.info?.({ code: r.code, key: r.notice.key, detail: r.detail }, 'service action refused');
    this.say(r.ok ? { ok: true, key: r.key, ...(r.values ? { values: r.values } : {}) } : { ok: false, ...r.notice });
  }

  private run(task: () => Promise<void>): void {
    this.busy = true;
    this.changed();
    task()
      .catch((e: unknown) => {
        const kind = faultKind(e);
        this.o.log?.error({ kind, error: e instanceof Error ? e.message : String(e) }, 'service action failed: the screen is told its kind');
        this.say(faultNotice(e));
      })
      .finally(() => {
        this.busy = false;
        this.changed();
      });
  }

  private touch(s: Session): void {
    if (s.timer !== null) this.o.timers.clearTimeout(s.timer);
    s.idleEndsAt = this.o.timers.now() + this.idleMs;
    s.timer = this.o.timers.setTimeout(() => {
      if (this.session === s) this.end('idle');
    }, this.idleMs);
  }

  end(reason: 'sign-out' | 'idle' | 'disconnect' | 'host-stop'): void {
    const s = this.session;
    if (!s) return;
    if (s.timer !== null) this.o.timers.clearTimeout(s.timer);
    this.session = null;
    this.clearConfirm();
    this.request = FIRST_PAGE;
    this.o.backend.sessions.exit(s.account.name, s.account.staff, reason, s.enterSeq);
    this.o.backend.sessions.ended(s.enterSeq);
    this.say(reason === 'idle' ? { ok: false, key: 'service.signIn.idle' } : null);
  }

  private clearConfirm(): void {
    if (this.confirm) this.o.timers.clearTimeout(this.confirm.timer);
    this.confirm = null;
  }

  private say(notice: ServiceNotice | null): void {
    this.notice = notice;
    this.changed();
  }
}

function refuse(reason: ServiceRefusal, detail: string): ServiceApply {
  return { ok: false, reason, detail };
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
