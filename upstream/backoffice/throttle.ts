/**
 * Wrong passwords, counted per account and client address. The first FREE failures cost nothing;
 * each one after that locks the pair for twice as long as the one before (1 s, 2 s, 4 s, …), never
 * longer than MAX_LOCK_MS. While a pair is locked its attempts are refused before the password is
 * looked at, and are not counted: so a thousand wrong passwords from one address
 * - let nobody in (each is refused, checked or not), and
 * - lock nobody out for ever: the pair opens at most MAX_LOCK_MS after the last checked failure,
 *   and the same account from any other address is not slowed at all.
 * A success forgets the pair. Kept in memory: a restart forgets every count, which only gives a
 * guesser FREE more tries, and several instances behind one balancer each count their own.
 */
export const FREE = 5;
export const MAX_LOCK_MS = 15 * 60_000;
/** A pair whose last failure is older than this starts again from nothing. */
const FORGET_MS = 2 * MAX_LOCK_MS;
/** Pairs remembered at most (a flood of made-up names must not grow memory without bound). */
const MAX_PAIRS = 100_000;

interface Pair {
  failures: number;
  lastFailure: number;
  lockedUntil: number;
}

export class SignInThrottle {
  private readonly pairs = new Map<string, Pair>();
  constructor(private readonly now: () => number = Date.now) {}

  private key(account: string, address: string): string {
    return `${account}\u0000${address}`;
  }

  /** Milliseconds until this pair may try again (0: now). */
  waitMs(account: string, address: string): number {
    const p = this.pairs.get(this.key(account, address));
    if (!p) return 0;
    const now = this.now();
    if (now - p.lastFailure > FORGET_MS) {
      this.pairs.delete(this.key(account, address));
      return 0;
    }
    return Math.max(0, p.lockedUntil - now);
  }

  failed(account: string, address: string): void {
    const key = this.key(account, address);
    const now = this.now();
    const before = this.pairs.get(key);
    const failures = before && now - before.lastFailure <= FORGET_MS ? before.failures + 1 : 1;
    const over = failures - FREE;
    const lockMs = over > 0 ? Math.min(MAX_LOCK_MS, 1000 * 2 ** Math.min(over - 1, 30)) : 0;
    this.pairs.delete(key);
    this.pairs.set(key, { failures, lastFailure: now, lockedUntil: now + lockMs });
    if (this.pairs.size > MAX_PAIRS) {
      const oldest = this.pairs.keys().next();
      if (!oldest.done) this.pairs.delete(oldest.value);
    }
  }

  succeeded(account: string, address: string): void {
    this.pairs.delete(this.key(account, address));
  }
}
