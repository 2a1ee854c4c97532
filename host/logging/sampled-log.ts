/** The two levels a sampled line is said at (pino's signatures, fields first). */
interface LevelLog {
  warn(fields: Record<string, unknown>, msg: string): void;
  error(fields: Record<string, unknown>, msg: string): void;
}

type Level = 'warn' | 'error';

/** Runs `fn` once after `ms`; returns what cancels it. */
export type Schedule = (fn: () => void, ms: number) => () => void;

/** setTimeout, unref()ed: a count still to be said never keeps the process alive. */
const unrefTimer: Schedule = (fn, ms) => {
  const t = setTimeout(fn, ms);
  t.unref();
  return () => clearTimeout(t);
};

interface Kind {
  loggedAt: number;
  /** Lines held back since the last line said. */
  suppressed: number;
  /** The last of them, with when it came: said by the timer if no line of the kind comes. */
  held?: { level: Level; fields: Record<string, unknown>; msg: string; at: number };
}

/**
 * A line that may come many times a second, logged sampled: the first of a kind at once, then at
 * most one line per `intervalMs` for that kind, carrying how many were held back since
 * (`suppressed`). Used where a peer or a failing disk could otherwise write a line per message or
 * per poll and rotate every other line out of the logs (a screen's flood once wrote 85 MB of
 * warnings in a minute). At most `maxKinds` kinds are remembered; past that the oldest is
 * forgotten (its next line is logged at once), so new kinds cannot grow it without end.
 *
 * Lines held back are always said, within about an interval: when no line of the kind comes after
 * the interval to carry their count, a timer (`schedule`, unref()ed by default) says the last one
 * held back, late (`heldMs` after it came), with the count of the others before it; so do a kind
 * forgotten and `close`. Before, the count waited for the kind's next line and was lost when none
 * came or the kind was forgotten: a SAS disk failure of 9 s at 40 polls a second logged one line and
 * never the other 359. Each line said stands for itself and its `suppressed`.
 */
export class SampledLog {
  private readonly kinds = new Map<string, Kind>();
  private cancelTimer: (() => void) | null = null;

  constructor(
    private readonly log: LevelLog,
    private readonly now: () => number = () => performance.now(),
    private readonly intervalMs = 1000,
    private readonly maxKinds = 10_000,
    private readonly schedule: Schedule = unrefTimer,
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

  /** Says every count still held back, and stops the timer. */
  close(): void {
    this.cancelTimer?.();
    this.cancelTimer = null;
    for (const kind of this.kinds.values()) this.sayHeld(kind, this.now());
  }

  private say(level: Level, key: string, fields: Record<string, unknown>, msg: string): void {
    const now = this.now();
    const kind = this.kinds.get(key);
    if (kind && now - kind.loggedAt < this.intervalMs) {
      kind.suppressed++;
      kind.held = { level, fields, msg, at: now };
      this.arm(now);
      return;
    }
    const suppressed = kind?.suppressed ?? 0;
    this.kinds.delete(key);
    this.kinds.set(key, { loggedAt: now, suppressed: 0 });
    for (const [oldestKey, oldest] of this.kinds) {
      if (this.kinds.size <= this.maxKinds) break;
      this.kinds.delete(oldestKey);
      this.sayHeld(oldest, now);
    }
    this.log[level]({ ...fields, ...(suppressed ? { suppressed } : {}) }, msg);
  }

  /** The last line held back of `kind`, with the count of the others; then nothing is held. */
  private sayHeld(kind: Kind, now: number): void {
    const held = kind.held;
    if (!held) return;
    const suppressed = kind.suppressed - 1;
    kind.loggedAt = now;
    kind.suppressed = 0;
    delete kind.held;
    this.log[held.level]({ ...held.fields, ...(suppressed ? { suppressed } : {}), heldMs: now - held.at }, held.msg);
  }

  /** One timer for every kind: due when the first interval with a line held back ends. */
  private arm(now: number): void {
    if (this.cancelTimer) return;
    let due = Infinity;
    for (const kind of this.kinds.values()) if (kind.held) due = Math.min(due, kind.loggedAt + this.intervalMs);
    if (due === Infinity) return;
    this.cancelTimer = this.schedule(() => this.fire(), Math.max(0, due - now));
  }

  private fire(): void {
    this.cancelTimer = null;
    const now = this.now();
    for (const kind of this.kinds.values()) if (kind.held && now - kind.loggedAt >= this.intervalMs) this.sayHeld(kind, now);
    this.arm(now);
  }
}
