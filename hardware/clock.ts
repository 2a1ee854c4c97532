// Time is injected so tests can run the drivers with short or fake timers.

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realClock: Clock = {
  now: () => Date.now(),
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
      } catch {
        // A listener's bug must not stop the device loop; the host logs its own errors.
      }
    }
  }
}
