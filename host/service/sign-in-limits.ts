/** A token bucket: `burst` attempts at once, then one more every `everyMs`. */
export interface Bucket {
  burst: number;
  everyMs: number;
}

/**
 * How fast PINs may be tried at this table: per service connection (one screen trying one PIN on
 * each of many staff numbers, which no account's lockout sees) and for the whole table, all
 * connections together (many screens at once). A PIN that turns out right gives its attempt back,
 * so staff signing in and out are never held up by their own successes; wrong ones, and attempts
 * at locked, disabled or unknown accounts, spend it.
 */
export interface SignInLimits {
  connection: Bucket;
  table: Bucket;
}

export const SIGN_IN_LIMITS: SignInLimits = {
  connection: { burst: 5, everyMs: 15_000 },
  table: { burst: 10, everyMs: 10_000 },
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

/** Which limit refused an attempt. */
export type Limited = 'connection' | 'table';

/** The table's bucket and one per connection. */
export class SignInGate {
  private readonly table: TokenBucket;

  constructor(
    private readonly limits: SignInLimits,
    private readonly now: () => number,
  ) {
    this.table = new TokenBucket(limits.table, now);
  }

  /** A connection's own bucket (kept by its service console). */
  connection(): TokenBucket {
    return new TokenBucket(this.limits.connection, this.now);
  }

  /** Lets an attempt through, or says which limit refuses it (then nothing is spent of the other). */
  admit(own: TokenBucket): Admission | Limited {
    if (!own.take()) return 'connection';
    if (!this.table.take()) {
      own.give();
      return 'table';
    }
    let given = false;
    return {
      succeeded: () => {
        if (given) return;
        given = true;
        own.give();
        this.table.give();
      },
    };
  }
}
