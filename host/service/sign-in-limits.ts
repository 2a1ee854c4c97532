/** A token bucket: `burst` attempts at once, then one more every `everyMs`. */
export interface Bucket {
  burst: number;
  everyMs: number;
}

/**
 * How fast PINs may be tried at this table. Per service connection: one screen trying one PIN on
 * each of many staff numbers (which no account's lockout sees) is refused after a few. There is
 * no limit over all connections together that refuses an attempt: any attempt a stranger can make
 * would spend it, and a flood from other connections then refused a supervisor's right PIN for as
 * long as it lasted (issue 50). Guessing at one account stays slow through its lockout
 * (host/service/accounts.ts: 5 wrong PINs, 15 minutes, lifted by another supervisor); each
 * connection has one PIN in its check at a time, so a right PIN waits behind at most one hash per
 * open connection. What the table as a whole limits is what a flood would fill: the refusals
 * journalled (`journal`; past it they are counted on /metrics, and a lock is journalled always).
 * A PIN that turns out right gives its attempt back, so staff signing in and out are never held
 * up by their own successes; wrong ones, and attempts at locked, disabled or unknown accounts,
 * spend it.
 */
export interface SignInLimits {
  connection: Bucket;
  journal: Bucket;
}

export const SIGN_IN_LIMITS: SignInLimits = {
  connection: { burst: 5, everyMs: 15_000 },
  journal: { burst: 10, everyMs: 10_000 },
};

export class TokenBucket {
  private tokens: number;
  private at: number;

  constructor(
    private readonly b: Bucket,
    private readonly now: () => number,
  ) {
    this.tokens = b.burst;
    this.at = now();
  }

  take(): boolean {
    this.refill();
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  give(): void {
    this.refill();
    this.tokens = Math.min(this.b.burst, this.tokens + 1);
  }

  private refill(): void {
    const t = this.now();
    // A clock set back refills nothing (and takes nothing).
    this.tokens = Math.min(this.b.burst, this.tokens + Math.max(0, t - this.at) / this.b.everyMs);
    this.at = t;
  }
}

/** An attempt let through: `succeeded()` gives it back to both buckets. */
export interface Admission {
  succeeded(): void;
}

/** The connection's bucket and the table's budget of journalled refusals. */
export class SignInGate {
  private readonly journal: TokenBucket;

  constructor(
    private readonly limits: SignInLimits,
    private readonly now: () => number,
  ) {
    this.journal = new TokenBucket(limits.journal, now);
  }

  /** A connection's own bucket (kept by its service console). */
  connection(): TokenBucket {
    return new TokenBucket(this.limits.connection, this.now);
  }

  /** Lets an attempt through, or null when the connection's own limit refuses it. */
  admit(own: TokenBucket): Admission | null {
    if (!own.take()) return null;
    let given = false;
    return {
      succeeded: () => {
        if (given) return;
        given = true;
        own.give();
      },
    };
  }

  /** Whether one more refusal may be journalled now (else it is only counted). */
  journalRefusal(): boolean {
    return this.journal.take();
  }
}
