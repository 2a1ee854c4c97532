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
