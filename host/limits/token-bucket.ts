/**
 * A token bucket: `burst` messages at once, then `perSecond` sustained. The clock is passed in,
 * so a test drives time and the host uses `performance.now`.
 */
export class TokenBucket {
  private tokens: number;
  private at: number;

  constructor(
    private readonly burst: number,
    private readonly perSecond: number,
    private readonly now: () => number,
  ) {
    this.tokens = burst;
    this.at = now();
  }

  /** Gives one token back (up to the burst): what was taken was made good. */
  give(): void {
    this.tokens = Math.min(this.burst, this.tokens + 1);
  }

  /** Takes `n` tokens (one by default); false, taking none, when fewer are left (over the limit). */
  take(n = 1): boolean {
    const now = this.now();
    // A clock that steps back refills nothing (monotonic sources never do; a test's might).
    this.tokens = Math.min(this.burst, this.tokens + (Math.max(0, now - this.at) * this.perSecond) / 1000);
    this.at = now;
    if (this.tokens < n) return false;
    this.tokens -= n;
    return true;
  }
}
