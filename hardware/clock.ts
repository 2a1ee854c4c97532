// Time is injected so tests can run the drivers with short or fake timers.

export interface Clock {
  /** The wall clock (ms since the epoch): for a time kept past a restart. */
  now(): number;
  /**
   * A clock no one sets (ms from an arbitrary origin), for an interval within the process: the wall
   * clock steps when NTP corrects it at boot or a technician sets the time, and a step back of an
   * hour held a silence of an hour unnoticed. A test's clock without it is read through `now`.
   */
  monotonic?(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** An interval's reading of `clock`: its monotonic time if it has one, else its `now`. */
export function elapsedOf(clock: Clock): number {
  return clock.monotonic ? clock.monotonic() : clock.now();
}

export const realClock: Clock = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const h = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clock.clearTimeout(h);
      resolve();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Who hears of a throw from a device's listener or hook, which the drivers catch so the device's
 * loop goes on (the host: its log, at error level). A listener's throw is a fault the host did not
 * handle (a fault's raise the journal refused, a bug): swallowed silently, it left no trace (a
 * review of 2 December, L3). Until the host says, stderr.
 */
const listenerFaultSinks = new Set<(err: unknown) => void>();

/** Calls `sink` with each throw a driver caught from a listener or hook; returns its removal. */
export function onListenerFault(sink: (err: unknown) => void): () => void {
  listenerFaultSinks.add(sink);
  return () => listenerFaultSinks.delete(sink);
}

/** Tells the sinks of a listener's throw (stderr if none); never throws itself. */
export function listenerFault(err: unknown): void {
  if (listenerFaultSinks.size === 0) {
    console.error('a device listener threw:', err);
    return;
  }
  for (const sink of [...listenerFaultSinks]) {
    try {
      sink(err);
    } catch {
      // The sink is the last resort: nothing further can be told.
    }
  }
}

/** A tiny typed event emitter (no Node EventEmitter so listeners' types are checked). */
export class Emitter<E> {
  private listeners = new Set<(e: E) => void>();

  on(fn: (e: E) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Whether anyone listens (an event costly to build is built only then). */
  get listened(): boolean {
    return this.listeners.size > 0;
  }

  emit(e: E): void {
    for (const fn of [...this.listeners]) {
      try {
        fn(e);
      } catch (err) {
        // A listener's throw must not stop the device's loop; the host hears of it (and logs it).
        listenerFault(err);
      }
    }
  }
}
