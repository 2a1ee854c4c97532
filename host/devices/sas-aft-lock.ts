// A station's AFT game lock (SAS 6.02 §8.4, long poll 0x74; docs/sas.md, "The game lock"). The
// casino's system locks a station before it moves money so nothing else changes the credit meter
// meanwhile. The station grants a lock only when it can: no round in progress for it (bets on the
// table: the lock is pending and takes effect when the round is over) and the transfers the system
// names in the transfer condition possible now, and no ticket cash-out under way (else it is not
// locked at all). While locked, the station takes no bet, note or cash-out: the lock is a
// journalled station fault (`sas-aft-locked`, on the player's screen and the service page, and
// exception 6F "game locked" from the journal when it takes effect). It ends at its timeout (measured from when it took effect; a pending
// lock's from the request), on a cancel (80), when a transfer completes, with the host's run
// (a lock never survives a restart: the timer that ends it is gone), and when the hold it belongs
// to reaches `AFT_LOCK_LONGEST_MS` (re-locks included: a system cannot hold a station for ever).
import { TokenBucket } from '../limits/token-bucket.js';
import type { AftLockRequest } from '../../hardware/sas/types.js';
import { tiltDetailSaid, type Said } from '../../locales/said.js';

/** §8.4's game lock status. */
export const LOCK_STATUS = { locked: 0x00, pending: 0x40, none: 0xff } as const;
/**
 * Locks that take effect at a station: `AFT_LOCKS_BURST` at once, then one every `AFT_LOCKS_EVERY_MS`;
 * a lock asked past that is not taken (status FF, nothing journalled), and taken when the system
 * asks again later. A system sending a lock and its cancel back and forth journalled a raise and a
 * clear of `sas-aft-locked` per pair (a review: 1,000 pairs, 1,000 of each). The fault is one the
 * system orders, so the fault manager never holds its clear (`ordered`, host/tilts/tilt-kinds.ts): the
 * bound is here, as the play and acceptor orders' is (host/start/sas-links.ts `SAS_CHANGES_*`).
 * An honest system locks a station once per transfer.
 */
export const AFT_LOCKS_BURST = 10;
export const AFT_LOCKS_EVERY_MS = 5_000;

/**
 * How long a station may be held by locks: `AFT_LOCK_LONGEST_MS` of lock at most (the longest one
 * 0x74 can ask, 99.99 s), counted over every lock that follows another within `AFT_LOCK_REST_MS` of
 * its end (a re-lock while locked, or a lock after a cancel or a timeout: one hold). A re-lock takes
 * its new timeout only up to what the hold has left; a lock asked with nothing left is not taken
 * (FF, nothing journalled) until the station has been free `AFT_LOCK_REST_MS`. Before (a review), a
 * request while locked reset the timer and cost no ration, so a system asking every 99 s kept the
 * player from betting or cashing out for as long as it liked; counting re-locks against the ration
 * would not have stopped it (one lock every 5 s is allowed), and a cap on one lock alone would not
 * either (the system cancels and locks again). The rest lets the player bet (the next lock is then
 * pending until the round is over) or cash out. An honest system holds a station seconds per transfer.
 */
export const AFT_LOCK_LONGEST_MS = 99_990;
export const AFT_LOCK_REST_MS = 10_000;

/** Transfer condition bits the station can honour: to the machine (0), from it (1). A printer (2) or a bonus (3) it never does. */
const CONDITION = { toMachine: 0x01, fromMachine: 0x02, unsupported: 0x0c } as const;

export interface LockTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface StationAftLockDeps {
  station: number;
  /** The station's faults (host/tilts/tilt-manager.ts): the lock is the fault `sas-aft-locked`. */
  tilts: {
    raise(kind: 'sas-aft-locked', where: { station: number; say?: Said }): void;
    conditionGone(kind: 'sas-aft-locked', station: number, say?: Said): void;
  };
  /** Whether the station has bets on the table (a round in progress for it). */
  roundOpen(): boolean;
  /** Why a transfer to the station (or from it) is impossible now, beside the round and the lock itself; null if possible. */
  refuseIn(): string | null;
  refuseOut(): string | null;
  /**
   * How much more credit the station may take in (the room its credit limit leaves,
   * host/devices/credit-rule/credit-limit.ts); 0 fails a lock's "transfer to the machine" condition,
   * as 0x74 offers none then. Absent: no limit.
   */
  roomIn?: () => number;
  /**
   * Why the station's credit is on the move now, whatever the condition names: a ticket cash-out
   * under way (host/floor/ticket-out.ts `holdAt`: numbered, printing, or waiting for the system's
   * number). Its `ticket.issue` takes the credit off and a void after a failed print puts it back,
   * so no lock is taken meanwhile (FF; a pending one is dropped at its round's end). Absent: never.
   */
  creditMoving?: () => string | null;
  timers: LockTimers;
  /** The clock of the locks' bound (`AFT_LOCKS_*`); `performance.now` unless a test drives it. */
  now?: () => number;
}

/** Why a lock ended, as the cleared fault's detail says it (a `tiltDetail.*` key). */
export type AftLockEnd =
  | 'aftLockCancelled'
  | 'aftLockNeverMet'
  | 'aftLockConditionGone'
  | 'aftLockConditionAtRoundEnd'
  | 'aftLockTimeout'
  | 'aftLockTimeoutPending'
  | 'aftLockTransferDone'
  | 'aftLockLongest';

type State =
  | { kind: 'none' }
  | { kind: 'pending'; condition: number; timeoutMs: number; timer: unknown }
  | { kind: 'locked'; condition: number; timeoutMs: number; timer: unknown; since: number };

export class StationAftLock {
  private state: State = { kind: 'none' };
  /** Locks left to take (`AFT_LOCKS_BURST`, then one per `AFT_LOCKS_EVERY_MS`). */
  private readonly ration: TokenBucket;
  /** The hold the locks make (`AFT_LOCK_LONGEST_MS`): lock time used before the current lock, and when the last lock ended. */
  private hold: { used: number; endedAt: number } | null = null;
  private readonly now: () => number;

  constructor(private readonly d: StationAftLockDeps) {
    this.now = d.now ?? (() => performance.now());
    this.ration = new TokenBucket(AFT_LOCKS_BURST, 1000 / AFT_LOCKS_EVERY_MS, this.now);
  }

  /** 0x74 lock code 00 or 80. A lock asked again while locked takes the new timeout (§8.4); a timeout of 0 asks for nothing: it ends the lock. */
  request(q: AftLockRequest): void {
    if (q.code === 0x80 || q.timeoutHundredths <= 0) return this.release('aftLockCancelled');
    if ((q.condition & CONDITION.unsupported) !== 0) return this.release('aftLockNeverMet');
    const timeoutMs = q.timeoutHundredths * 10;
    if (this.state.kind === 'locked') {
      if (!this.conditionHolds(q.condition)) return this.release('aftLockConditionGone');
      return this.armLocked(q.condition, timeoutMs, this.state.since);
    }
    if (this.d.roundOpen()) {
      if (this.state.kind === 'pending') return;
      return this.arm('pending', q.condition, timeoutMs);
    }
    // Past the bounds, not locked (FF): the system asks again, as after any lock it was not given.
    if (!this.conditionHolds(q.condition) || this.holdLeft() <= 0 || !this.ration.take()) return;
    this.take(q.condition, timeoutMs);
  }

  /** A pending lock takes effect once the station's round is over (called after each journal append). */
  check(): void {
    const s = this.state;
    if (s.kind !== 'pending' || this.d.roundOpen()) return;
    if (!this.conditionHolds(s.condition)) return this.release('aftLockConditionAtRoundEnd');
    if (this.holdLeft() <= 0) return this.release('aftLockLongest');
    this.take(s.condition, s.timeoutMs);
  }

  status(): number {
    return this.state.kind === 'locked' ? LOCK_STATUS.locked : this.state.kind === 'pending' ? LOCK_STATUS.pending : LOCK_STATUS.none;
  }

  locked(): boolean {
    return this.state.kind === 'locked';
  }

  /** The host stops: the timer goes, nothing is journalled (the next start clears a lock the journal still holds). */
  dispose(): void {
    if (this.state.kind !== 'none') this.d.timers.clearTimeout(this.state.timer);
    this.state = { kind: 'none' };
  }

  /** Ends the lock or the pending request (the journal's fault cleared with why, by key). */
  release(why: AftLockEnd): void {
    const s = this.state;
    if (s.kind === 'none') return;
    this.d.timers.clearTimeout(s.timer);
    this.state = { kind: 'none' };
    if (s.kind !== 'locked') return;
    const now = this.now();
    this.hold = { used: (this.hold?.used ?? 0) + Math.max(0, now - s.since), endedAt: now };
    this.d.tilts.conditionGone('sas-aft-locked', this.d.station, tiltDetailSaid(why));
  }

  /** What the hold has left before a lock takes effect: all of it once the station has been free `AFT_LOCK_REST_MS`. */
  private holdLeft(): number {
    if (this.hold && this.now() - this.hold.endedAt >= AFT_LOCK_REST_MS) this.hold = null;
    return AFT_LOCK_LONGEST_MS - (this.hold?.used ?? 0);
  }

  /**
   * The fault is raised first and the lock armed after: armed first with its fault refused, the
   * retry was answered 00 locked with no fault held and nothing refused (a review: F2). A journal
   * that refuses the fault's entry (the disk full) no longer throws: the tilt manager holds it
   * unjournalled, the station stopped, and journals it at the ledger's next commit. Exception 6F
   * comes from this entry (a fake's throw, or a fault of the wrong scope).
   */
  private take(condition: number, timeoutMs: number): void {
    if (this.state.kind !== 'locked')
      this.d.tilts.raise('sas-aft-locked', { station: this.d.station, say: tiltDetailSaid('sasAftLock', { poll: '0x74', ms: timeoutMs }) });
    this.armLocked(condition, timeoutMs, this.now());
  }

  private arm(kind: 'pending', condition: number, timeoutMs: number): void {
    if (this.state.kind !== 'none') this.d.timers.clearTimeout(this.state.timer);
    const timer = this.d.timers.setTimeout(() => this.release('aftLockTimeoutPending'), timeoutMs);
    this.state = { kind, condition, timeoutMs, timer };
  }

  /** Locked since `since`, for the timeout asked but never past what the hold has left (`AFT_LOCK_LONGEST_MS`). */
  private armLocked(condition: number, timeoutMs: number, since: number): void {
    if (this.state.kind !== 'none') this.d.timers.clearTimeout(this.state.timer);
    const left = AFT_LOCK_LONGEST_MS - (this.hold?.used ?? 0) - (this.now() - since);
    const capped = left < timeoutMs;
    const timer = this.d.timers.setTimeout(() => this.release(capped ? 'aftLockLongest' : 'aftLockTimeout'), Math.max(0, capped ? left : timeoutMs));
    this.state = { kind: 'locked', condition, timeoutMs, timer, since };
  }

  private conditionHolds(condition: number): boolean {
    if (this.d.creditMoving?.() != null) return false;
    if ((condition & CONDITION.toMachine) !== 0 && (this.d.refuseIn() !== null || this.d.roomIn?.() === 0)) return false;
    if ((condition & CONDITION.fromMachine) !== 0 && this.d.refuseOut() !== null) return false;
    return true;
  }
}
