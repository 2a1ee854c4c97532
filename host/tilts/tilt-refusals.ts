// What the tilt manager does with an entry the journal refused (host/tilts/tilt-manager.ts): whether
// to try it again (`journalMayTakeLater`), when (`RetryTimer`), and how often to say so
// (`RefusalLog`).
import type { Logger } from 'pino';
import { LedgerWriteLost } from '../../ledger/index.js';
import type { Timers } from '../table/timers.js';

/**
 * The retry timer of the faults held unjournalled (a raise or a clear the journal refused): the
 * first try this long after the refusal, each next twice as long, up to `RETRY_MAX_MS`. Without it
 * the entry waited for some other commit, and a table the fault stopped may commit nothing for
 * minutes: a host killed meanwhile lost the fault's record (only the log had it). The cap bounds
 * the time between the disk having space again and the record reaching the journal (30 s); a
 * try while the disk is still full costs one refused write transaction (microseconds), so 2 a
 * minute is nothing, while the backoff keeps a failing disk (SQLITE_IOERR) from being written at
 * a steady rate. The first tries come quickly (2 s, 4 s…): a disk full for a moment (a log rotated,
 * a temporary file removed) is over by then.
 */
export const RETRY_FIRST_MS = 2_000;
export const RETRY_MAX_MS = 30_000;
/**
 * A refusal of the same entry (a fault's raise or clear at one place) is logged at error once;
 * its repeats (each poll of a source that says the condition is gone, each retry) are counted and
 * logged at most once per this, with their count (`repeats`), and a last line says when it went
 * through (`refusals`). A source polling at 10 a second logged 10 error lines a second while the
 * disk was full.
 */
export const REFUSAL_SUMMARY_MS = 60_000;

/** The SQLite result codes (better-sqlite3's `code`, or a message beginning with one) of a journal that may take the write later. */
// With their extended codes, as better-sqlite3 reports them (SQLITE_IOERR_WRITE, SQLITE_IOERR_FSYNC,
// SQLITE_READONLY_DBMOVED, SQLITE_BUSY_SNAPSHOT): a failing disk says IOERR_WRITE, not IOERR.
const MENDABLE_SQLITE = /^SQLITE_(FULL|IOERR|BUSY|LOCKED|READONLY|NOMEM|CANTOPEN)(_[A-Z]+)*(?![A-Za-z0-9_])/;
/** The same as the system says it: no space, no quota, an I/O error, a read-only remount, no file handle left. */
const MENDABLE_ERRNO = new Set(['ENOSPC', 'EDQUOT', 'EIO', 'EROFS', 'EAGAIN', 'EBUSY', 'EMFILE', 'ENFILE']);

/**
 * Whether a write the journal refused may go through later without the entry changing: the disk
 * full or failing, the file locked or remounted read-only, a schema changed under the host that a
 * technician puts back (`LedgerWriteLost`: the host halts on it and journals the halt once put
 * right, docs/security.md), the ledger closed as the host stops. Anything else (a CHECK or a type
 * the schema refuses, a bug in the entry) refuses the same entry every time: retried, it is an
 * error line per commit, forever.
 */
export function journalMayTakeLater(e: unknown): boolean {
  if (e instanceof LedgerWriteLost) return true;
  if (!(e instanceof Error)) return false;
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string') return MENDABLE_SQLITE.test(code) || MENDABLE_ERRNO.has(code);
  return MENDABLE_SQLITE.test(e.message) || /database connection is not open/.test(e.message);
}

/** One entry's refusals not yet gone through: how many since the last line said, in all, and when the last line was. */
interface Refusals {
  repeats: number;
  total: number;
  saidAt: number;
}

/**
 * The refusals of each entry (a fault's raise or clear at one place, named by `key`), logged: the
 * first at error level (at fatal, with the entry, when no retry will mend it), its repeats
 * counted and said at most once per `REFUSAL_SUMMARY_MS` (`repeats`); `wentThrough` says how many
 * there were once it is journalled.
 */
export class RefusalLog {
  private readonly refusals = new Map<string, Refusals>();

  constructor(private readonly deps: { log: Logger; timers: Timers }) {}

  /** Logs a refusal of `key` (`fields`: what names it; `entry`: what a fatal line adds); true when no retry mends it. */
  refused(key: string, err: unknown, said: { fields: object; entry: object; msg: string; fatal: string }): boolean {
    const forGood = !journalMayTakeLater(err);
    const now = this.deps.timers.now();
    const r = this.refusals.get(key);
    if (!r) {
      this.refusals.set(key, { repeats: 0, total: 1, saidAt: now });
      if (forGood) this.deps.log.fatal({ err, ...said.fields, ...said.entry }, said.fatal);
      else this.deps.log.error({ err, ...said.fields }, said.msg);
      return forGood;
    }
    r.repeats++;
    r.total++;
    // Either way: a wall clock stepped back an hour must not silence the summaries for an hour.
    if (Math.abs(now - r.saidAt) < REFUSAL_SUMMARY_MS) return forGood;
    this.deps.log.error({ err, ...said.fields, repeats: r.repeats, sinceMs: now - r.saidAt, forGood }, `${said.msg} (refused again)`);
    r.repeats = 0;
    r.saidAt = now;
    return forGood;
  }

  /** `key` journalled: how many times it was refused before, if it was. */
  wentThrough(key: string): number | undefined {
    const total = this.refusals.get(key)?.total;
    this.refusals.delete(key);
    return total;
  }

  clear(): void {
    this.refusals.clear();
  }
}

/**
 * Calls `tryNow` `RETRY_FIRST_MS` after `arm`, then twice as long each time it returns false (up
 * to `RETRY_MAX_MS`), until it returns true or `stop`. On the owner's `timers` (the host's are
 * unref'd: a retry never holds the process open).
 */
export class RetryTimer {
  private timer: unknown = null;
  private ms = RETRY_FIRST_MS;

  constructor(
    private readonly timers: Timers,
    private readonly tryNow: () => boolean,
  ) {}

  arm(): void {
    if (this.timer !== null) return;
    const ms = this.ms;
    this.ms = Math.min(2 * ms, RETRY_MAX_MS);
    this.timer = this.timers.setTimeout(() => {
      this.timer = null;
      // A refusal inside the try may have armed the next one already (then this is a no-op).
      if (!this.tryNow()) this.arm();
    }, ms);
  }

  stop(): void {
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
    this.ms = RETRY_FIRST_MS;
  }
}
