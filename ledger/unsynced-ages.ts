import type { Ledger } from './ledger.js';
import { newestQueuedAt, outboxStats, syncAnchor } from './outbox.js';
import { UnwitnessedAges } from './unwitnessed-ages.js';

/**
 * When the entries the upstream has not acknowledged were journalled, on the monotonic clock, for
 * the sync's age limit (`maxUnsyncedSeconds`, sync-client.ts). The limit read the wall clock
 * against the entries' journalled times: set back (NTP at boot, a technician), it made every
 * waiting entry young again, and new bets went on with the upstream gone for as long as the step.
 * The entries journalled while the client runs are timed here as they come; those waiting at its
 * start (or queued again by an acknowledgement that went back) at their journalled age then, never
 * younger than the span between the oldest and the newest of them (a clock set back while the
 * host was stopped: `seed`).
 * The limit takes the older of this and the wall clock's reading.
 */
export class UnsyncedAges {
  private ages = new UnwitnessedAges();
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly ledger: Ledger,
    private readonly now: () => Date,
    private readonly monotonic: () => number,
  ) {}

  start(): void {
    this.seed();
    this.unsubscribe ??= this.ledger.onAppended((entries) => {
      const first = entries[0];
      if (first) this.ages.appended(first.seq, this.monotonic());
    });
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  /** The upstream acknowledged through `acked` (having acknowledged `before`): those up to it leave; below `before`, the entries queued again are timed afresh. */
  acknowledged(before: number, acked: number): void {
    if (acked < before) this.seed();
    else this.ages.witnessedThrough(acked, this.ledger.headOf().seq);
  }

  /** The age limit's reading: the older of the wall clock's (`wallLag`, seconds) and the monotonic clock's. */
  lagSeconds(wallLag: number, pending: number): number {
    const since = pending > 0 ? this.ages.oldest() : null;
    return Math.max(wallLag, since === null ? 0 : Math.floor((this.monotonic() - since) / 1000));
  }

  /**
   * The entries waiting now, from the oldest, at their journalled age: the wall clock's, read once,
   * but never less than the newest of them was journalled after the oldest. A clock set back while
   * the host was stopped read the entries that waited across the stop young again (this run's
   * monotonic clock saw none of their wait); the span between the two was measured on the clock
   * that journalled them, so it holds whatever the clock says now (a clock set forward meanwhile
   * reads them older: the limit errs toward stopping, as the wall clock's own reading does).
   */
  private seed(): void {
    this.ages = new UnwitnessedAges();
    const { oldestQueuedAt } = outboxStats(this.ledger);
    if (oldestQueuedAt === null) return;
    const oldest = Date.parse(oldestQueuedAt);
    const newest = Date.parse(newestQueuedAt(this.ledger) ?? oldestQueuedAt);
    const now = Math.max(this.now().getTime(), Number.isFinite(newest) ? newest : -Infinity);
    const age = Math.max(0, now - oldest);
    this.ages.appended(syncAnchor(this.ledger).ackedSeq + 1, this.monotonic() - (Number.isFinite(age) ? age : 0));
  }
}
