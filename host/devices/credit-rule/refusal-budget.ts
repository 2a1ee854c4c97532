/**
 * How many refusals each acceptor may have journalled one by one: a lying station machine or a
 * hostile device can repeat a refused claim as fast as its link carries it, and each would be a
 * journal entry. A bucket per acceptor (`burst` at once, refilled at `perMinute`): beyond it a
 * refusal is counted, not journalled, and the next one journalled says how many it stood for.
 * The fault is raised either way; nothing is ever credited.
 */
export class RefusalBudget {
  private readonly buckets = new Map<string, { tokens: number; at: number; suppressed: number }>();

  constructor(private readonly o: { burst: number; perMinute: number; now: () => number }) {}

  /** Journal this refusal (`suppressed`: how many before it were not), or only count it. */
  take(key: string): { journal: true; suppressed: number } | { journal: false } {
    const now = this.o.now();
    const b = this.buckets.get(key) ?? { tokens: this.o.burst, at: now, suppressed: 0 };
    b.tokens = Math.min(this.o.burst, b.tokens + ((now - b.at) * this.o.perMinute) / 60_000);
    b.at = now;
    this.buckets.set(key, b);
    if (b.tokens < 1) {
      b.suppressed++;
      return { journal: false };
    }
    b.tokens -= 1;
    const suppressed = b.suppressed;
    b.suppressed = 0;
    return { journal: true, suppressed };
  }
}
