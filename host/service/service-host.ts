import { randomBytes, timingSafeEqual } from 'node:crypto';
import {
  ServicePage,
  TWO_PERSON_ACTIONS,
  type CommandBody,
  type Language,
  type ServiceAction,
  type ServiceNotice,
  type ServiceState,
} from '../../protocol/index.js';
import type { Timers } from '../table/timers.js';
import type { Account, AccountStore } from './accounts.js';
import { buildPage, FIRST_PAGE, type PageRequest } from './pages.js';
import { mayConfirm, mayStart, mayStartTwoPerson } from './roles.js';
import type { BackendResult, ServiceBackend } from './service-backend.js';

/** Why a service command was refused; worded under `service.refused.<reason>` in every locale. */
export type ServiceRefusal = 'not-signed-in' | 'signed-in' | 'busy' | 'role' | 'no-confirm' | 'not-service';

export type ServiceApply = { ok: true } | { ok: false; reason: ServiceRefusal; detail: string };

export interface ServiceHostOptions {
  accounts: AccountStore;
  backend: ServiceBackend;
  timers: Timers;
  /** A session with no command for this long ends by itself (default 5 minutes). */
  idleMs?: number;
  /** A two-person action waits this long for its second person (default 2 minutes). */
  confirmMs?: number;
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

export type ExportKind = 'meters.csv' | 'meters.json' | 'meters.html' | 'evidence' | 'enrolment';

const label = (a: Account) => `${a.name} (${a.staff})`;

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

  constructor(private readonly o: ServiceHostOptions) {
    o.backend.onChange(() => {
      for (const [conn, c] of this.consoles) if (c.signedIn()) this.changed(conn);
    });
    // A kill or a power cut ended the sessions open then: their exits are journalled now.
    o.backend.closeOpenSessions();
    this.journalAccounts();
  }

  /** Accounts added by `npm run service -- add-user` are journalled by the host, the ledger's one writer. */
  journalAccounts(): void {
    this.o.accounts.journalNew((a, done) =>
      done ? this.o.backend.journalAccount(done.by, a.staff, a.name, a.role, done.action) : this.o.backend.journalAccount(a.createdBy, a.staff, a.name, a.role),
    );
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
        () => this.journalAccounts(),
        () => this.changed(conn),
      );
      this.consoles.set(conn, c);
    }
    return c;
  }

  private changed(conn: string): void {
    for (const l of this.listeners) l(conn);
  }
}

/**
 * One connection's service view: sign-in, the idle timeout, pages, actions by role, and the
 * two-person confirmation built once for every action that needs it. Before sign-in the state
 * holds the cabinet label and the last sign-in notice only: no page data leaves the host.
 *
 * PIN checks are asynchronous (scrypt on libuv's pool); their outcome arrives as a new snapshot.
 * One check runs at a time per connection, so a screen cannot queue guesses faster than they are
 * refused; the per-account lockout counts the wrong PINs of every connection.
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
    private readonly journalAccounts: () => void,
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
      tableId: b.tableId,
      softwareVersion: b.softwareVersion,
      language,
      signedIn: this.session !== null,
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
        currency: b.currency === 'HKD' ? 'HKD' : 'MOP',
        idleEndsAt: s.idleEndsAt,
        exportToken: s.exportToken,
      },
      // Parsed so a page that outgrew its schema is a host error here, not a frame the screen drops.
      page: ServicePage.parse(buildPage(b, this.request)),
      confirm: this.confirm ? { action: this.confirm.action, requestedBy: label(this.confirm.by), expiresAt: this.confirm.expiresAt } : null,
    };
  }

  apply(command: CommandBody): ServiceApply {
    switch (command.name) {
      case 'service-sign-in':
        if (this.session) return refuse('signed-in', 'sign out first');
        if (this.busy) return refuse('busy', 'a PIN is being checked');
        this.run(() => this.signIn(command.staff, command.pin));
        return { ok: true };
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
      this.run(() => this.secondPerson(pending, command.staff, command.pin));
      return { ok: true };
    }
    const action = command.action;
    const role = s.account.role;
    if (!mayStart(role, action.kind)) return refuse('role', `a ${role} may not ${action.kind}`);
    if (this.needsTwo(action)) {
      if (!mayStartTwoPerson(role)) return refuse('role', `${action.kind} is started by a supervisor`);
      // A value the host would refuse is refused now, before a second person is called over.
      const invalid = action.kind === 'config-change' ? this.o.backend.checkConfigChange(action.key, action.value, action.authorisation) : null;
      if (invalid !== null) {
        this.say(
          invalid.notice ? { ok: false, ...invalid.notice } : { ok: false, key: 'service.failed.refused', values: { detail: invalid.detail.slice(0, 200) } },
        );
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
      return { contentType: 'text/html; charset=utf-8', filename: `meters-${b.tableId}-${stamp}.html`, body: b.metersHtml(language ?? 'en'), inline: true };
    if (kind === 'meters.csv') return { contentType: 'text/csv; charset=utf-8', filename: `meters-${b.tableId}-${stamp}.csv`, body: b.metersCsv() };
    if (kind === 'meters.json') return { contentType: 'application/json', filename: `meters-${b.tableId}-${stamp}.json`, body: b.metersJson() };
    if (kind === 'enrolment') {
      // The station's secret leaves the host once, to the session that enrolled it.
      const station = Number(roundId);
      const body = Number.isInteger(station) ? b.takeEnrolment(station) : null;
      return body ? { contentType: 'application/json', filename: `station-${station}.enrolment.json`, body } : null;
    }
    const body = roundId ? b.evidenceJson(roundId) : null;
    return body ? { contentType: 'application/json', filename: `evidence-${roundId}.json`, body } : null;
  }

  /** The connection closed or the host stops: a PIN check still running finds nobody to sign in. */
  dispose(): void {
    this.disposed = true;
    this.clearConfirm();
  }

  // ── internals ──

  private needsTwo(action: ServiceAction): boolean {
    if (!TWO_PERSON_ACTIONS.has(action.kind)) return false;
    if (action.kind !== 'handpay-confirm') return true;
    const pending = this.o.backend.pendingHandpays()?.find((p) => p.requestTxId === action.requestTxId);
    // An unknown request goes to the backend alone, which refuses it with its reason.
    return pending !== undefined && pending.amount > this.o.backend.twoPersonHandpayAbove;
  }

  private async signIn(staff: string, pin: string): Promise<void> {
    this.journalAccounts();
    const r = await this.o.accounts.check(staff, pin);
    if (!r.ok) {
      this.o.backend.journalDenied(staff, r.reason, r.lockedUntil);
      // An unknown staff number reads like a wrong PIN: the screen does not confirm which numbers exist.
      this.say(
        r.reason === 'locked' ? { ok: false, key: 'service.signIn.locked', values: { until: r.lockedUntil ?? '' } } : { ok: false, key: 'service.signIn.bad' },
      );
      return;
    }
    // The screen may have closed while the PIN was checked: nobody is left to sign in.
    if (this.session || this.disposed) return;
    const now = this.o.timers.now();
    // Journalled first: a session that is not in the journal never starts.
    const enterSeq = this.o.backend.journalEnter(r.account.name, r.account.staff, r.account.role);
    this.session = { account: r.account, enterSeq, idleEndsAt: now + this.idleMs, exportToken: randomBytes(24).toString('base64url'), timer: null };
    this.touch(this.session);
    this.request = FIRST_PAGE;
    this.say({ ok: true, key: 'service.signIn.welcome', values: { name: r.account.name } });
  }

  private async secondPerson(pending: NonNullable<ServiceConsole['confirm']>, staff: string, pin: string): Promise<void> {
    if (staff === pending.by.staff) {
      this.o.backend.journalDenied(staff, 'same-person');
      return this.say({ ok: false, key: 'service.confirm.samePerson' });
    }
    const r = await this.o.accounts.check(staff, pin);
    if (!r.ok) {
      this.o.backend.journalDenied(staff, r.reason, r.lockedUntil);
      return this.say(
        r.reason === 'locked' ? { ok: false, key: 'service.signIn.locked', values: { until: r.lockedUntil ?? '' } } : { ok: false, key: 'service.signIn.bad' },
      );
    }
    if (!mayConfirm(r.account.role)) {
      this.o.backend.journalDenied(staff, 'role');
      return this.say({ ok: false, key: 'service.confirm.role' });
    }
    // The request may have expired or been cancelled while the PIN was checked.
    if (this.confirm !== pending || !this.session) return;
    this.clearConfirm();
    this.outcome(await this.execute(pending.action, [label(pending.by), label(r.account)]));
  }

  private async execute(a: ServiceAction, by: string[]): Promise<BackendResult> {
    const b = this.o.backend;
    const two = by as [string, string];
    const who = by[0] ?? 'unknown';
    switch (a.kind) {
      case 'void-round':
        return b.voidRound(a.roundId, a.reason, two, a.uncorrectable);
      case 'enter-card':
        return b.enterCard(a.roundId, a.card, two);
      case 'dealing-error':
        return b.reportDealingError(a.roundId, who);
      case 'correct':
        return b.correct(a.roundId, a.correction, two);
      case 'meter-clear':
        return b.clearMeters(a.scope, a.authorisation, a.reason, two);
      case 'config-change':
        return b.changeConfig(a.key, a.value, a.authorisation, two);
      case 'handpay-confirm':
        return b.confirmHandpay(a.station, a.requestTxId, by);
      case 'new-shoe':
        return b.newShoe(who);
      case 'table-open':
        return b.setTableOpen(a.open, who);
      case 'test-note':
        return b.testNote(a.station, who);
      case 'test-card':
        return b.testCard(who);
      case 'device-enable':
        return b.setDeviceEnabled(a.device, a.enabled, who);
      case 'device-reconnect':
        return b.reconnectDevice(a.device, who);
      case 'sync-retry':
        return b.retrySync(who);
      case 'program-hash':
        return b.computeProgramHash(who);
      case 'clear-tilt':
        return b.clearTilt(a.tilt, a.station, who, this.session?.account.role ?? 'auditor');
      case 'station-enrol':
        return b.enrolStation(a.station, two);
      case 'station-revoke':
        return b.revokeStation(a.station, two);
      case 'jackpot-reset':
        return b.resetJackpot(a.level, a.to, a.authorisation, two);
    }
  }

  private outcome(r: BackendResult): void {
    this.say(
      r.ok
        ? { ok: true, key: r.key, ...(r.values ? { values: r.values } : {}) }
        : r.notice
          ? { ok: false, ...r.notice }
          : { ok: false, key: `service.failed.${r.code}`, values: { detail: r.detail.slice(0, 200) } },
    );
  }

  private run(task: () => Promise<void>): void {
    this.busy = true;
    this.changed();
    task()
      .catch((e: unknown) =>
        this.say({ ok: false, key: 'service.failed.refused', values: { detail: (e instanceof Error ? e.message : String(e)).slice(0, 200) } }),
      )
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
    this.o.backend.journalExit(s.account.name, s.account.staff, reason, s.enterSeq);
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
