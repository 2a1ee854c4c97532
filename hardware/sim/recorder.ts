// Collects a device's events and waits for a condition: for tests and the host's simulated mode.

export class EventRecorder<E extends { type: string }> {
  readonly events: E[] = [];
  private waiters: { pred: () => boolean; resolve: () => void }[] = [];

  readonly listener = (e: E): void => {
    this.events.push(e);
    this.waiters = this.waiters.filter((w) => {
      if (!w.pred()) return true;
      w.resolve();
      return false;
    });
  };

  of<T extends E['type']>(type: T): Extract<E, { type: T }>[] {
    return this.events.filter((e): e is Extract<E, { type: T }> => e.type === type);
  }

  types(): string[] {
    return this.events.map((e) => e.type);
  }

  /**
   * Resolves once pred() holds, checked on every event and every few milliseconds (for
   * conditions on a simulator's state); rejects after timeoutMs.
   */
  until(pred: () => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
    if (pred()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const poll = setInterval(() => {
        if (pred()) done();
      }, 5);
      const t = setTimeout(() => {
        clearInterval(poll);
        this.waiters = this.waiters.filter((w) => w.resolve !== done);
        reject(new Error(`timed out waiting for ${what}; events: ${this.types().join(', ')}`));
      }, timeoutMs);
      const done = (): void => {
        clearTimeout(t);
        clearInterval(poll);
        this.waiters = this.waiters.filter((w) => w.resolve !== done);
        resolve();
      };
      this.waiters.push({ pred, resolve: done });
    });
  }

  /** Waits until `count` events of a type have been seen. */
  untilCount(type: E['type'], count = 1, timeoutMs = 5000): Promise<void> {
    return this.until(() => this.of(type).length >= count, timeoutMs, `${count}× ${type}`);
  }
}
