import type { Timers } from '../../host/table/timers.js';

/**
 * The simulation's time. Timers run on a monotonic clock that only the simulation advances; the
 * wall clock (what `now()` and the ledger's timestamps read) is that plus an offset that a fault
 * may step back or forward, as an NTP step would, while the timers already set keep their delay.
 */
export class VirtualClock {
  private mono = 0;
  private wallOffset: number;
  private ids = 0;
  private readonly due: { at: number; fn: () => void; id: number }[] = [];

  constructor(startWall: number) {
    this.wallOffset = startWall;
  }

  readonly timers: Timers = {
    now: () => this.wall(),
    setTimeout: (fn, ms) => {
      const id = ++this.ids;
      this.due.push({ at: this.mono + Math.max(0, ms), fn, id });
      return id;
    },
    clearTimeout: (h) => {
      const i = this.due.findIndex((d) => d.id === h);
      if (i >= 0) this.due.splice(i, 1);
    },
  };

  wall(): number {
    return this.mono + this.wallOffset;
  }

  /** The wall clock jumps by `ms` (negative: back); pending timers keep their monotonic deadline. */
  step(ms: number): void {
    this.wallOffset += ms;
  }

  /** Time passes: every timer due by then fires, in deadline order (ties in the order they were set). */
  advance(ms: number): void {
    const until = this.mono + ms;
    for (;;) {
      let next: (typeof this.due)[number] | undefined;
      for (const d of this.due) if (d.at <= until && (!next || d.at < next.at || (d.at === next.at && d.id < next.id))) next = d;
      if (!next) break;
      this.due.splice(this.due.indexOf(next), 1);
      this.mono = Math.max(this.mono, next.at);
      next.fn();
    }
    this.mono = until;
  }

  /** Forgets every timer (the process they belonged to was killed). */
  dropAll(): void {
    this.due.length = 0;
  }
}
