/** The two levels a sampled line is said at (pino's signatures, fields first). */
interface LevelLog {
  warn(fields: Record<string, unknown>, msg: string): void;
  error(fields: Record<string, unknown>, msg: string): void;
}

/**
 * A line that may come many times a second, logged sampled: the first of a kind at once, then at
 * most one line per `intervalMs` for that kind, carrying how many were held back since
 * (`suppressed`). Used where a peer or a failing disk could otherwise write a line per message or
 * per poll and rotate every other line out of the logs (a screen's flood once wrote 85 MB of
 * warnings in a minute). At most `maxKinds` kinds are remembered; past that the oldest is
 * forgotten (its next line is logged at once), so new kinds cannot grow it without end.
 */
export class SampledLog {
  private readonly kinds = new Map<string, { loggedAt: number; suppressed: number }>();

  constructor(
    private readonly log: LevelLog,
    private readonly now: () => number = () => performance.now(),
    private readonly intervalMs = 1000,
    private readonly maxKinds = 10_000,
  ) {}

  /** How many kinds it remembers. */
  get size(): number {
    return this.kinds.size;
  }

  warn(kind: string, fields: Record<string, unknown>, msg: string): void {
    this.say('warn', kind, fields, msg);
  }

  error(kind: string, fields: Record<string, unknown>, msg: string): void {
    this.say('error', kind, fields, msg);
  }

  private say(level: 'warn' | 'error', key: string, fields: Record<string, unknown>, msg: string): void {
    const now = this.now();
    const kind = this.kinds.get(key);
    if (kind && now - kind.loggedAt < this.intervalMs) {
      kind.suppressed++;
      return;
    }
    const suppressed = kind?.suppressed ?? 0;
    this.kinds.delete(key);
    this.kinds.set(key, { loggedAt: now, suppressed: 0 });
    for (const oldest of this.kinds.keys()) {
      if (this.kinds.size <= this.maxKinds) break;
      this.kinds.delete(oldest);
    }
    this.log[level]({ ...fields, ...(suppressed ? { suppressed } : {}) }, msg);
  }
}
