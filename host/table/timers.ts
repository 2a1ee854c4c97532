/** Time, injected so tests can run a round without waiting on wall-clock countdowns. */
export interface Timers {
  /** The wall clock (ms since the epoch): what is journalled and shown. */
  now(): number;
  /**
   * Milliseconds on a clock that only moves forward, for how long something lasted, read through
   * `elapsedOf` (hardware/clock.ts: a Timers is a Clock); a test's manual clock without it is read
   * through `now`. The wall clock steps when NTP or a technician sets the time.
   */
  monotonic?(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

function isNodeTimeout(h: unknown): h is NodeJS.Timeout {
  return typeof h === 'object' && h !== null && 'hasRef' in h;
}

export const realTimers: Timers = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => {
    if (isNodeTimeout(h)) clearTimeout(h);
  },
};

/** The host's clock with timers that never keep the process alive (the owner's close cancels them anyway). */
export const unrefTimers: Timers = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms).unref(),
  clearTimeout: realTimers.clearTimeout,
};

/**
 * `look` once at `start`, then every `everyMs` on `timers`, each wait from the end of the last
 * look, until `stop`: the shape of the host's watches (the table clock, the disk space). A look
 * that stops it is the last; a second `start` while it runs starts nothing more (a second chain
 * of timers was one its stop no longer held).
 */
export class Repeating {
  private timer: unknown = null;
  private running = false;

  constructor(
    private readonly timers: Pick<Timers, 'setTimeout' | 'clearTimeout'>,
    private readonly everyMs: number,
    private readonly look: () => void,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.look();
    this.arm();
  }

  stop(): void {
    this.running = false;
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
  }

  private arm(): void {
    if (!this.running) return;
    this.timer = this.timers.setTimeout(() => {
      this.timer = null;
      this.look();
      this.arm();
    }, this.everyMs);
  }
}
