/**
 * Remembers the signatures of accepted ingest requests until their timestamp leaves the skew
 * window, so a captured request sent again is refused (the timestamp check refuses it after
 * that). The kiosk signs every attempt afresh (a new timestamp), so it never trips this itself.
 * Held in memory: a restarted service forgets, which leaves a replay window of at most
 * `maxSkewMs` after a restart — harmless, since ingest is idempotent, but noted in docs/security.md.
 */
export class ReplayGuard {
  private seen = new Map<string, number>();
  constructor(
    private readonly maxSkewMs: number,
    /** Bound on remembered signatures; past it the oldest are dropped (the rate limit keeps it far off). */
    private readonly capacity = 200_000,
  ) {}

  /** True the first time a signature is seen inside its window; false for a replay. */
  firstUse(signature: string, timestampMs: number, now = Date.now()): boolean {
    this.expire(now);
    if (this.seen.has(signature)) return false;
    this.seen.set(signature, timestampMs + this.maxSkewMs);
    if (this.seen.size > this.capacity) {
      const oldest = this.seen.keys().next().value;
      if (oldest !== undefined) this.seen.delete(oldest);
    }
    return true;
  }

  get size(): number {
    return this.seen.size;
  }

  private expire(now: number): void {
    // Insertion order is nearly timestamp order; stop at the first live one.
    for (const [sig, until] of this.seen) {
      if (until >= now) break;
      this.seen.delete(sig);
    }
  }
}
