import type { Clock } from '../../hardware/clock.js';

/** Immediates queued in this process besides the one running (Node lists each as an active resource). */
function immediatesQueued(): boolean {
  return process.getActiveResourcesInfo().includes('Immediate');
}

/**
 * Time for a driver under fuzz: its timers (polls, reply timeouts, reconnect backoff, escrow
 * timeouts) run on a clock that only `runFor` advances, so a run of many virtual seconds costs
 * only the bytes it moves. Between two timers the event loop is let turn a few times, which is
 * when the simulator's bytes (sent on `setImmediate`, as a UART would) reach the driver.
 */
export class VirtualTime {
  private at = 0;
  private ids = 0;
  private readonly due = new Map<number, { at: number; fn: () => void }>();

  readonly clock: Clock = {
    now: () => this.at,
    setTimeout: (fn, ms) => {
      const id = ++this.ids;
      this.due.set(id, { at: this.at + Math.max(0, ms), fn });
      return id;
    },
    clearTimeout: (h) => {
      if (typeof h === 'number') this.due.delete(h);
    },
  };

  now(): number {
    return this.at;
  }

  /**
   * Lets the simulator's deliveries and the driver's promise chains run (no timer fires): up to
   * `turns` turns of the event loop, fewer when a turn finds nothing left to run. A turn's own
   * immediate runs after every promise chain of the turn before (Node drains the microtasks after
   * each immediate), so if no other immediate is queued when it runs, the turns after it would run
   * nothing: stopping there schedules exactly what the full count would, without their cost (an
   * empty turn of the loop costs microseconds, and most were empty: the profile in docs/security.md).
   */
  async settle(turns = 4): Promise<void> {
    for (let i = 0; i < turns; i++) {
      const othersQueued = await new Promise<boolean>((resolve) => setImmediate(() => resolve(immediatesQueued())));
      if (!othersQueued) return;
    }
  }

  /** Runs every timer due in the next `ms`, in deadline order, settling after each. */
  async runFor(ms: number): Promise<void> {
    const until = this.at + ms;
    await this.settle();
    for (;;) {
      let next: [number, { at: number; fn: () => void }] | undefined;
      for (const d of this.due) if (d[1].at <= until && (!next || d[1].at < next[1].at || (d[1].at === next[1].at && d[0] < next[0]))) next = d;
      if (!next) break;
      this.due.delete(next[0]);
      this.at = Math.max(this.at, next[1].at);
      next[1].fn();
      await this.settle();
    }
    this.at = until;
  }

  /** Runs until `done` holds or `budgetMs` of virtual time have passed; whether it held. */
  async runUntil(done: () => boolean, budgetMs: number, stepMs = 50): Promise<boolean> {
    const end = this.at + budgetMs;
    while (!done()) {
      if (this.at >= end) return false;
      await this.runFor(stepMs);
    }
    return true;
  }
}
