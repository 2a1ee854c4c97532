import type { Logger } from 'pino';
import { openTilts, type Ledger, type NewEntry } from '../../ledger/index.js';
import type { RefusalReason, TiltNotice } from '../../protocol/index.js';
import { inEnglish, serviceSaid, type Said } from '../../locales/said.js';
import { elapsedOf } from '../../hardware/clock.js';
import { unrefTimers, type Timers } from '../table/timers.js';
import { mayClear, type Actor } from './staff.js';
import { clearRefusal, isPersonCleared, keyOf, type ClearHow, type CurrentTilt, type Held, type TiltClearRefusal, type TiltEffects } from './tilt-held.js';
import { RefusalLog, RetryTimer } from './tilt-refusals.js';
import { isTiltKind, tiltClearsKey, tiltMessageKey, tiltSpec, type TiltKind } from './tilt-kinds.js';

export type { CurrentTilt, TiltClearRefusal, TiltEffects, TiltSaid } from './tilt-held.js';

/**
 * A fault that clears itself (`clears: 'auto'`) cleared this many times at one place (its kind and
 * station) within `FLAP_WINDOW_MS` is flapping: its next clear waits until its condition has stayed
 * gone `FLAP_SETTLE_MS`, and a raise meanwhile journals nothing (the fault is still held). A bill
 * acceptor saying STACKER_FULL and IDLE at every poll (a worn sensor, or a hostile device), or a
 * casino system sending an AFT lock and its cancel back and forth, journalled a raise and a clear
 * per flip (a review: 1,000 flips, 1,000 of each; ~860,000 entries a day at a 100 ms poll). A fault
 * raised and cleared a few times a minute still clears at once. Not a fault the casino system
 * orders (`ordered`: a station disabled, an AFT lock): the station follows the order at once, and
 * its source bounds how often it changes.
 */
export const FLAP_CLEARS = 3;
export const FLAP_WINDOW_MS = 60_000;
/** As the printer's paper (10 s, host/devices/printers.ts): long enough that a poll-rate flip never reaches it. */
export const FLAP_SETTLE_MS = 10_000;
/**
 * The longest a flapping fault's clear waits. A place whose settled clear is followed by its raise
 * within the window waits twice as long the next time (a condition that goes for a little longer
 * than the settle time, then comes back), up to this: five minutes of a stacker held full is a
 * worn sensor a technician should see, not a poll-rate flip.
 */
export const FLAP_SETTLE_MAX_MS = 300_000;

/** A place whose fault is flapping: since when, the flips taken without an entry, and its clear waiting (a timer), if any. */
interface Flapping {
  since: number;
  flips: number;
  /** When its condition last came back (or the episode began): an episode with no flip for the window is over. */
  lastFlip: number;
  settling: unknown;
  /** How long its clear waits: fixed for the episode (`settleMs` when it began). */
  ms: number;
}

/**
 * The set of current faults (issue 7 item 5). Each is journalled when raised and when cleared
 * (`tilt.raise` / `tilt.clear`, no money moves) and rebuilt from the journal at start, so a fault
 * outlives a restart until it is cleared. Sources call `raise` and `conditionGone`; service mode
 * calls `list` and `clear`.
 */
export class TiltManager {
  private readonly held = new Map<string, Held>();
  /** Later occurrences of an `each` fault already held at that place, journalled, oldest first: each comes up once the one before is cleared. */
  private readonly queued = new Map<string, Held[]>();
  private readonly listeners = new Set<() => void>();
  /** The times of the last `FLAP_CLEARS` automatic clears at each place, oldest first. */
  private readonly clearedAt = new Map<string, number[]>();
  private readonly flapping = new Map<string, Flapping>();
  /** Each place's last clear that waited for its condition to settle: how long it waited, and when it cleared. */
  private readonly lastSettled = new Map<string, { ms: number; at: number }>();
  /** When each place was last said to be flapping: at most one warn line per place per window. */
  private readonly flapSaidAt = new Map<string, number>();
  private readonly timers: Timers;
  private closed = false;
  /** Each entry refused and not yet journalled (`raise kind@station`, `clear …`): for the rate of its log lines. */
  private readonly refusals: RefusalLog;
  /** The retry of the faults held unjournalled (docs/table-host.md, "A fault the journal refuses"). */
  private readonly retry: RetryTimer;

  /** `timers`: the clock, the settle timer of a flapping fault and the retry of a fault held unjournalled (a test's manual clock; else the host's, unref'd: a clear waiting never holds the process open). */
  constructor(private readonly deps: { ledger: Ledger; log: Logger; timers?: Timers }) {
    this.timers = deps.timers ?? unrefTimers;
    this.refusals = new RefusalLog({ log: deps.log, timers: this.timers });
    this.retry = new RetryTimer(this.timers, () => this.closed || this.retryHeld());
  }

  /**
   * Rebuilds the current faults from the journal. A restored fault's condition counts as still
   * present until its source says otherwise (a device that reconnects healthy, a sync that is
   * back under the limit): nothing is forgotten because the host restarted.
   */
  restore(): void {
    this.held.clear();
    this.queued.clear();
    this.dropSettling();
    this.stopRetrying();
    this.refusals.clear();
    for (const t of openTilts(this.deps.ledger)) {
      if (!isTiltKind(t.kind)) {
        // Only a newer version could have journalled it (a downgrade): say so, do not guess.
        this.deps.log.error({ tilt: t }, 'the journal names a fault this version does not know');
        continue;
      }
      const h: Held = {
        kind: t.kind,
        ...(t.station !== undefined ? { station: t.station } : {}),
        ...(t.detail !== undefined ? { detail: t.detail } : {}),
        ...(t.say !== undefined ? { say: t.say } : {}),
        raisedSeq: t.seq,
        raisedAt: t.ts,
        conditionPresent: !tiltSpec(t.kind).latched,
      };
      const key = keyOf(t.kind, t.station);
      if (this.held.has(key)) this.queued.set(key, [...(this.queued.get(key) ?? []), h]);
      else this.held.set(key, h);
    }
    if (this.held.size > 0) this.deps.log.warn({ tilts: [...this.held.keys()] }, 'faults restored from the journal');
    this.changed();
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * A fault began (or is seen again). Journalled once; a repeat only marks its condition present.
   * Its detail said by key (`say`, a `tiltDetail.*` key: locales/said.ts `tiltDetailSaid`) is
   * journalled with the same in English as its `detail`; a `detail` alone is a text the host was
   * handed (a device's or a library's own words), journalled as it is.
   */
  raise(kind: TiltKind, at: { station?: number; detail?: string; say?: Said } = {}): void {
    const said = at.say ? { key: at.say.key, values: { ...at.say.values } } : undefined;
    const where = { ...at, ...(at.say ? { detail: inEnglish(at.say) } : {}) };
    const spec = tiltSpec(kind);
    if ((spec.scope === 'station') !== (where.station !== undefined)) throw new Error(`fault ${kind} is a ${spec.scope} fault`);
    const key = keyOf(kind, where.station);
    const existing = this.held.get(key);
    const again = existing && 'each' in spec && ![existing, ...(this.queued.get(key) ?? [])].some((h) => h.detail === where.detail);
    if (existing && !again) {
      this.unsettle(key);
      // The condition is back before a refused clear was journalled: there is nothing to clear.
      delete existing.clearing;
      if (!existing.conditionPresent && !spec.latched) {
        existing.conditionPresent = true;
        this.changed();
      }
      return;
    }
    const h: Held = {
      kind,
      ...(where.station !== undefined ? { station: where.station } : {}),
      ...(where.detail ? { detail: where.detail } : {}),
      ...(said ? { say: said } : {}),
      raisedSeq: 0,
      raisedAt: '',
      conditionPresent: !spec.latched,
    };
    if (!this.journalRaise(h)) {
      h.unjournalled = true;
      h.raisedSeq = this.headSeq();
      h.raisedAt = new Date(this.timers.now()).toISOString();
      if (!h.stuck) this.journalOnceWritable();
    }
    if (existing) this.queued.set(key, [...(this.queued.get(key) ?? []), h]);
    else this.held.set(key, h);
    if (!h.unjournalled) this.deps.log.warn({ kind, station: where.station, detail: where.detail, seq: h.raisedSeq }, 'fault raised');
    this.changed();
  }

  /** The last entry journalled; 0 when the ledger cannot say (closed as the host stops). */
  private headSeq(): number {
    try {
      return this.deps.ledger.headOf().seq;
    } catch {
      return 0;
    }
  }

  /** Removes the listener that journals unjournalled faults at the ledger's next commit, when one is set. */
  private stopWaitingForWrites: (() => void) | null = null;
  private journallingHeld = false;

  /**
   * The first commit the ledger makes again (whoever appends: a note, a transfer, the shutdown),
   * or the retry timer (`RETRY_FIRST_MS`, backed off to `RETRY_MAX_MS`) if that comes first,
   * journals the faults held unjournalled, then the clears it refused, so a restart after the
   * ledger was put right restores the halt from the journal (a review of 1 December: only the
   * clear journalled it, and a restart before the clear left no trace of the halt). Both stop once
   * nothing waits, and at `close`.
   */
  private journalOnceWritable(): void {
    if (this.closed) return;
    this.stopWaitingForWrites ??= this.deps.ledger.onAppended(() => void this.retryHeld());
    this.retry.arm();
  }

  /** Journals what waits (`journalWaiting`); true, and the commit listener and the timer stopped, once nothing does. */
  private retryHeld(): boolean {
    if (this.journallingHeld) return false;
    this.journallingHeld = true;
    try {
      // A listener of the pass's own writes may have raised (or cleared) a fault the journal refused.
      if (!this.journalWaiting() || this.allHeld().some((h) => !h.stuck && (h.unjournalled || h.clearing))) return false;
      this.stopRetrying();
      return true;
    } finally {
      this.journallingHeld = false;
    }
  }

  private allHeld(): Held[] {
    return [...this.held.values(), ...[...this.queued.values()].flat()];
  }

  private stopRetrying(): void {
    this.stopWaitingForWrites?.();
    this.stopWaitingForWrites = null;
    this.retry.stop();
  }

  /**
   * Journals the raises held unjournalled (oldest first), then the clears refused; false when the
   * journal refuses one for a reason that may pass (the rest wait for the next try). One refused
   * for good (`stuck`) is passed over: it stays held, and is not tried again here.
   */
  private journalWaiting(): boolean {
    const raises = this.allHeld()
      .filter((h) => h.unjournalled && !h.stuck)
      .sort((a, b) => a.raisedSeq - b.raisedSeq);
    let journalled = false;
    for (const h of raises) {
      // Journalled (and perhaps cleared) meanwhile by a listener of an earlier raise's commit.
      if (!h.unjournalled) continue;
      if (this.journalRaise(h)) journalled = true;
      else if (!h.stuck) return false;
    }
    if (journalled) this.changed();
    for (const h of [...this.held.values()]) if (h.clearing && !h.stuck && !this.journalClear(h, h.clearing) && !h.stuck) return false;
    return true;
  }

  /**
   * Journals `h`'s raise and takes its seq and time; false when the ledger refuses it (its disk
   * full, its schema not the migrations'), logged at error level: the caller holds the fault
   * unjournalled. Never thrown: faults are raised from timers, sockets' close and device loops,
   * where a throw ends the host process (a review of 2 December), and a fault that cannot be
   * written must still stop the table, or nothing shows a technician why every command fails.
   */
  private journalRaise(h: Held): boolean {
    // The append's commit wakes the listener that journals held faults (journalOnceWritable) before
    // `h` is marked journalled below: held off, it would raise `h` a second time (a review of 2
    // December: the clear named the first raise, and a restart restored the second).
    const outer = this.journallingHeld;
    this.journallingHeld = true;
    h.raising = true;
    try {
      const r = this.deps.ledger.append({
        type: 'tilt.raise',
        payload: {
          kind: h.kind,
          ...(h.station !== undefined ? { station: h.station } : {}),
          ...(h.detail ? { detail: h.detail.slice(0, 2000) } : {}),
          ...(h.say ? { say: h.say } : {}),
        },
      });
      h.raisedSeq = r.entry.seq;
      h.raisedAt = r.entry.ts;
      const late = h.unjournalled === true;
      delete h.unjournalled;
      delete h.stuck;
      const refusals = this.wentThrough('raise', h);
      if (late) this.deps.log.warn({ kind: h.kind, station: h.station, seq: h.raisedSeq, refusals }, 'fault held unjournalled now journalled');
      return true;
    } catch (e) {
      this.refused('raise', h, e, 'fault held but not journalled: the ledger refused its entry; retried at its next commit and on a timer');
      return false;
    } finally {
      delete h.raising;
      this.journallingHeld = outer;
    }
  }

  /**
   * The condition of a fault has gone: an automatic fault (or one cleared by its resolution) is
   * journalled as cleared; one a person clears now waits for them. Why it went, where the host says
   * so, is a `tiltDetail.*` key (`say`), journalled with its English as the clear's `detail`. An
   * automatic fault that is flapping (`FLAP_CLEARS`) clears once its condition has stayed gone
   * `FLAP_SETTLE_MS`; one the casino system orders (`ordered`) clears at once whatever.
   */
  conditionGone(kind: TiltKind, station?: number, say?: Said): void {
    const key = keyOf(kind, station);
    const held = this.held.get(key);
    if (!held) return;
    const spec = tiltSpec(kind);
    const { clears } = spec;
    // Refused for good: its condition gone is shown, nothing tried at a source's poll rate. One never
    // journalled that no person may clear goes now, as a restart would drop it; only the log has it.
    if (held.stuck) {
      if (held.unjournalled && (clears === 'auto' || clears === 'resolution')) {
        this.nextInLine(key);
        this.deps.log.error({ kind, station, detail: held.detail }, 'fault let go, its condition gone: its raise refused for good, never journalled');
        return this.changed();
      }
      if (!held.conditionPresent) return;
      held.conditionPresent = false;
      return this.changed();
    }
    if (clears === 'auto' && spec.ordered !== true && this.flaps(key)) return this.settle(key, held, say);
    if (clears === 'auto' || clears === 'resolution') {
      this.journalClear(held, { automatic: true, ...(say ? { say } : {}) });
      return;
    }
    if (held.conditionPresent) {
      held.conditionPresent = false;
      this.changed();
    }
  }

  /** The fault at `key` goes: the next raise queued behind it, if any, is held in its place. */
  private nextInLine(key: string): void {
    const [next, ...rest] = this.queued.get(key) ?? [];
    if (next) this.held.set(key, next);
    else this.held.delete(key);
    if (rest.length > 0) this.queued.set(key, rest);
    else this.queued.delete(key);
  }

  /**
   * The host stops: a clear waiting for its condition to settle is dropped, nothing journalled. The
   * fault is restored at the next start, its condition present until its source says it has gone
   * (then cleared at once: the flips before the restart are not counted again).
   */
  close(): void {
    this.closed = true;
    this.stopRetrying();
    this.dropSettling();
  }

  /**
   * A person clears a fault (service mode). Refused for a role that may not clear it, for a fault
   * that clears by itself or by its resolution, and while its condition still holds. Each refusal
   * names the fault as `fault` (its words in the reader's language, locales/said.ts); a kind that is
   * none (typed by someone) has no words, and is named as typed (`kind`). `also`: the person's
   * record of the clear (service mode's `service.action`), journalled in the clear's own
   * transaction: refused, neither is written and the fault is still held.
   */
  clear(kind: string, station: number | undefined, by: Actor, also: readonly NewEntry[] = []): { ok: true } | TiltClearRefusal {
    if (!isTiltKind(kind)) return clearRefusal(serviceSaid('tiltUnknown', { kind: kind.slice(0, 64) }));
    const held = this.held.get(keyOf(kind, station));
    if (!held)
      return clearRefusal(station !== undefined ? serviceSaid('tiltNotCurrentAt', { fault: kind, station }) : serviceSaid('tiltNotCurrent', { fault: kind }));
    const { clears } = tiltSpec(kind);
    if (clears === 'auto') return clearRefusal(serviceSaid('tiltClearsItself', { fault: kind }));
    if (clears === 'resolution') return clearRefusal(serviceSaid('tiltClearsByResolution', { fault: kind }));
    if (!mayClear(by.role, clears)) return clearRefusal(serviceSaid(clears === 'supervisor' ? 'tiltNeedsSupervisor' : 'tiltNeedsAttendant', { fault: kind }));
    if (held.conditionPresent) return clearRefusal(serviceSaid('tiltStillHolds', { fault: kind }));
    // A person's clear tries again what was refused for good (at a person's pace, not a poll's).
    delete held.stuck;
    // Refused, the person is told and clears again: not retried later in their name.
    if (!this.journalClear(held, { automatic: false, by }, { retry: false, also })) return clearRefusal(serviceSaid('tiltLedgerRefuses', { fault: kind }));
    return { ok: true };
  }

  /** Every current fault, oldest first, with how it clears. */
  list(): CurrentTilt[] {
    return [...this.held.values()]
      .sort((a, b) => a.raisedSeq - b.raisedSeq)
      .map((h) => {
        const spec = tiltSpec(h.kind);
        return {
          ...spec,
          kind: h.kind,
          ...(h.station !== undefined ? { station: h.station } : {}),
          messageKey: tiltMessageKey(h.kind),
          clearsKey: tiltClearsKey(spec.clears),
          ...(h.detail !== undefined ? { detail: h.detail } : {}),
          ...(h.say !== undefined ? { say: h.say } : {}),
          raisedSeq: h.raisedSeq,
          raisedAt: h.raisedAt,
          conditionPresent: h.conditionPresent,
          clearable: isPersonCleared(spec.clears) && !h.conditionPresent,
        };
      });
  }

  /** What a screen shows: the table's faults and, for a station, its own (never another's); never staff's own (service mode's security events). */
  notices(station: number | null): TiltNotice[] {
    return this.list()
      .filter((t) => t.staffOnly !== true && (t.station === undefined || t.station === station))
      .map((t) => ({
        kind: t.kind,
        severity: t.severity,
        disables: t.disables,
        ...(t.station !== undefined ? { station: t.station } : {}),
      }));
  }

  /** `ignore`: the effects without that one kind (what else holds a station the casino system has locked, say). */
  effects(ignore?: TiltKind): TiltEffects {
    const disabled = new Set<number>();
    let halted = false;
    let newBetsStopped = false;
    let jackpotStopped = false;
    for (const h of this.held.values()) {
      if (h.kind === ignore) continue;
      const { disables } = tiltSpec(h.kind);
      if (disables === 'table') halted = true;
      else if (disables === 'new-bets') newBetsStopped = true;
      else if (disables === 'jackpot') jackpotStopped = true;
      else if (disables === 'station' && h.station !== undefined) disabled.add(h.station);
    }
    return { halted, newBetsStopped: newBetsStopped || halted, disabledStations: disabled, jackpotStopped };
  }

  /** Why a station's new bet (or cash-out) is refused by the current faults, or null. */
  refusal(station: number, what: 'bet' | 'cash-out' | 'decision', ignore?: TiltKind): { reason: string; refusal: RefusalReason } | null {
    const e = this.effects(ignore);
    if (e.halted) return { reason: `the table is halted: ${this.describe('table')}`, refusal: 'table-halted' };
    if (what !== 'decision' && e.disabledStations.has(station))
      return { reason: `station ${station} is disabled: ${this.describe('station', station)}`, refusal: 'station-disabled' };
    if (what === 'bet' && e.newBetsStopped) {
      const upstreamOnly = [...this.held.values()].every((h) => tiltSpec(h.kind).disables !== 'new-bets' || h.kind === 'upstream-offline');
      return { reason: `new bets are stopped: ${this.describe('new-bets')}`, refusal: upstreamOnly ? 'bets-stopped' : 'bets-paused' };
    }
    return null;
  }

  private describe(disables: TiltNotice['disables'], station?: number): string {
    return [...this.held.values()]
      .filter((h) => tiltSpec(h.kind).disables === disables && (station === undefined || h.station === station))
      .map((h) => h.kind)
      .join(', ');
  }

  /** Whether the fault at `key` has cleared itself `FLAP_CLEARS` times within the window (or is flapping still: its clear waits). On the monotonic clock, as every flap interval. */
  private flaps(key: string): boolean {
    const f = this.flapping.get(key);
    // An episode whose condition came back and stayed past the window is over (a review of the
    // change: it was counted as flapping for good, each later clear held FLAP_SETTLE_MS).
    if (f && f.settling === null && elapsedOf(this.timers) - f.lastFlip >= FLAP_WINDOW_MS) this.flapping.delete(key);
    else if (f) return true;
    const times = this.clearedAt.get(key) ?? [];
    const oldest = times[0];
    return times.length >= FLAP_CLEARS && oldest !== undefined && elapsedOf(this.timers) - oldest < FLAP_WINDOW_MS;
  }

  /**
   * How long a flapping fault's clear waits at `key`: `FLAP_SETTLE_MS`, or twice what it waited
   * last when that clear was followed by this within the window (a condition that goes a little
   * longer than the wait, then comes back), up to `FLAP_SETTLE_MAX_MS`.
   */
  private settleMs(key: string): number {
    const last = this.lastSettled.get(key);
    if (last && elapsedOf(this.timers) - last.at < FLAP_WINDOW_MS) return Math.min(2 * last.ms, FLAP_SETTLE_MAX_MS);
    this.lastSettled.delete(key);
    return FLAP_SETTLE_MS;
  }

  /** A flapping fault's condition went: its clear waits `settleMs` (once: a repeat of the news leaves the wait as it is). */
  private settle(key: string, held: Held, say?: Said): void {
    if (this.closed) return;
    const f = this.flapping.get(key) ?? this.startFlapping(key, held, this.settleMs(key));
    const { ms } = f;
    if (held.conditionPresent) {
      held.conditionPresent = false;
      this.changed();
    }
    if (f.settling !== null) return;
    f.settling = this.timers.setTimeout(() => {
      f.settling = null;
      this.flapping.delete(key);
      if (this.held.get(key) !== held) return;
      this.lastSettled.set(key, { ms, at: elapsedOf(this.timers) });
      this.deps.log.info(
        { kind: held.kind, station: held.station, flips: f.flips, sinceMs: elapsedOf(this.timers) - f.since, settleMs: ms },
        'a flapping fault settled',
      );
      this.journalClear(held, { automatic: true, ...(say ? { say } : {}) });
    }, ms);
  }

  private dropSettling(): void {
    for (const f of this.flapping.values()) if (f.settling !== null) this.timers.clearTimeout(f.settling);
    this.flapping.clear();
    this.clearedAt.clear();
    this.lastSettled.clear();
  }

  private startFlapping(key: string, held: Held, settleMs: number): Flapping {
    const f: Flapping = { since: elapsedOf(this.timers), flips: 0, lastFlip: elapsedOf(this.timers), settling: null, ms: settleMs };
    this.flapping.set(key, f);
    const said = this.flapSaidAt.get(key);
    if (said === undefined || f.since - said >= FLAP_WINDOW_MS) {
      this.flapSaidAt.set(key, f.since);
      this.deps.log.warn(
        { kind: held.kind, station: held.station, clears: FLAP_CLEARS, windowMs: FLAP_WINDOW_MS, settleMs },
        'fault flapping: its clear waits until its condition stays gone',
      );
    }
    return f;
  }

  /** A flapping fault raised again: its waiting clear is cancelled, nothing journalled (it is still held). */
  private unsettle(key: string): void {
    const f = this.flapping.get(key);
    if (!f) return;
    f.flips++;
    f.lastFlip = elapsedOf(this.timers);
    if (f.settling !== null) this.timers.clearTimeout(f.settling);
    f.settling = null;
  }

  /**
   * Journals `held`'s clear (its raise first, if held unjournalled) and lets it go; false when the
   * journal refuses either, logged at error level: the fault stays held (the safe side), never
   * cleared in memory only, and (`retry`) its clear is retried at the ledger's next commit. A
   * clear's `say` (a `tiltDetail.*` key) is journalled with the same in English as its `detail`,
   * as a raise's.
   */
  private journalClear(held: Held, how: ClearHow, opts: { retry: boolean; also?: readonly NewEntry[] } = { retry: true }): boolean {
    // A raise still being appended (`raising`: a listener of its own commit asks this clear) is not
    // journalled again: the clear waits, and the pass journalling it (journalWaiting) writes it next.
    const raised = !held.unjournalled || (!held.raising && this.journalRaise(held));
    if (!raised || !this.appendClear(held, how, opts.also)) {
      if (opts.retry) held.clearing = how;
      // A person's clear is not retried in their name, but the raise it found unjournalled is.
      if (!held.stuck && (opts.retry || held.unjournalled)) this.journalOnceWritable();
      if (how.automatic && held.conditionPresent) {
        held.conditionPresent = false;
        this.changed();
      }
      return false;
    }
    delete held.clearing;
    const key = keyOf(held.kind, held.station);
    if (how.automatic && tiltSpec(held.kind).clears === 'auto')
      this.clearedAt.set(key, [...(this.clearedAt.get(key) ?? []), elapsedOf(this.timers)].slice(-FLAP_CLEARS));
    this.nextInLine(key);
    this.deps.log.info({ kind: held.kind, station: held.station, by: how.by, automatic: how.automatic }, 'fault cleared');
    this.changed();
    return true;
  }

  /** The `tilt.clear` entry, with `also` in its transaction; false when the journal refuses it (logged at error level). */
  private appendClear(held: Held, how: ClearHow, also: readonly NewEntry[] = []): boolean {
    const said = how.say ? { key: how.say.key, values: { ...how.say.values } } : undefined;
    // Held off as a raise's (journalRaise): the commit would wake the listener for this same clear.
    const outer = this.journallingHeld;
    this.journallingHeld = true;
    try {
      const clear: NewEntry = {
        type: 'tilt.clear',
        payload: {
          kind: held.kind,
          ...(held.station !== undefined ? { station: held.station } : {}),
          raisedSeq: held.raisedSeq,
          automatic: how.automatic,
          ...(how.by ? { by: how.by.user, role: how.by.role } : {}),
          ...(how.say ? { detail: inEnglish(how.say).slice(0, 2000) } : {}),
          ...(said ? { say: said } : {}),
        },
      };
      if (also.length > 0) this.deps.ledger.appendMany([clear, ...also]);
      else this.deps.ledger.append(clear);
      const refusals = this.wentThrough('clear', held);
      if (refusals !== undefined)
        this.deps.log.warn({ kind: held.kind, station: held.station, refusals }, "the fault's clear journalled after the ledger refused it");
      return true;
    } catch (e) {
      // A person's clear refused is said each time: they are told, and try again at a person's pace.
      if (how.by) this.deps.log.error({ err: e, kind: held.kind, station: held.station, by: how.by }, 'fault not cleared: the ledger refused its clear');
      else
        this.refused(
          'clear',
          held,
          e,
          'fault still held: the ledger refused its clear; retried at its next commit, on a timer and when its condition is seen gone',
        );
      return false;
    } finally {
      this.journallingHeld = outer;
    }
  }

  /** Logs a refusal of `h`'s `op` (`RefusalLog`); one no retry mends makes `h` `stuck`. */
  private refused(op: 'raise' | 'clear', h: Held, err: unknown, msg: string): void {
    const forGood = this.refusals.refused(`${op} ${keyOf(h.kind, h.station)}`, err, {
      fields: { kind: h.kind, station: h.station },
      entry: { op, detail: h.detail, say: h.say, ...(op === 'clear' ? { raisedSeq: h.raisedSeq } : {}) },
      msg,
      fatal: `fault held but its ${op} refused by the ledger for a reason no retry mends (not a full disk): the table stays stopped as the fault says; not retried until a person clears it or the host restarts`,
    });
    if (forGood) h.stuck = true;
  }

  /** `h`'s `op` journalled: how many times it was refused before, if it was. */
  private wentThrough(op: 'raise' | 'clear', h: Held): number | undefined {
    return this.refusals.wentThrough(`${op} ${keyOf(h.kind, h.station)}`);
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }
}
