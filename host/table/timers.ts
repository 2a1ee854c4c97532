/** Time, injected so tests can run a round without waiting on wall-clock countdowns. */
export interface Timers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

function isNodeTimeout(h: unknown): h is NodeJS.Timeout {
  return typeof h === 'object' && h !== null && 'hasRef' in h;
}

export const realTimers: Timers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => {
    if (isNodeTimeout(h)) clearTimeout(h);
  },
};

/** The host's clock with timers that never keep the process alive (the owner's close cancels them anyway). */
export const unrefTimers: Timers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms).unref(),
  clearTimeout: realTimers.clearTimeout,
};
