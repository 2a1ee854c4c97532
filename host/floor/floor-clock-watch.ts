import { tiltDetailSaid } from '../../locales/said.js';
import { Repeating, type Timers } from '../table/timers.js';
import type { FloorClock } from '../tickets/floor-clock.js';
import type { TiltManager } from '../tilts/tilt-manager.js';

export interface FloorClockWatchOptions {
  clock: Pick<FloorClock, 'verdict'>;
  tilts: Pick<TiltManager, 'raise' | 'conditionGone' | 'list'>;
  timers: Timers;
  /** How often to look (default every 10 s): the verdict moves with the wall clock, heard or not. */
  everyMs?: number;
}

/**
 * The table's clock against the upstream's (host/tickets/floor-clock.ts) as a fault a technician
 * sees: `table-clock` (staff only, stopping nothing: ticket-out refuses by itself) while the clock
 * is past the bound or outside any date a ticket may carry, cleared once it agrees again
 * (docs/tito.md, "The table's clock"). Before, only a player's refused cash-out said so.
 */
export class FloorClockWatch {
  private readonly looks: Repeating;

  constructor(private readonly o: FloorClockWatchOptions) {
    this.looks = new Repeating(o.timers, o.everyMs ?? 10_000, () => this.check());
  }

  /** Looks once now, then every `everyMs`. A fault restored from the journal is cleared by the first look that finds the clock right. */
  start(): void {
    this.looks.start();
  }

  stop(): void {
    this.looks.stop();
  }

  /** One look: raised while the clock is wrong (once: a repeat only marks it present), cleared when it is right and the fault held. */
  check(): void {
    const v = this.o.clock.verdict();
    if (!v.ok) {
      const minutes = v.why === 'skewed' ? Math.round(Math.abs(v.skewMs) / 60_000) : 0;
      const say =
        v.why === 'out-of-range' ? tiltDetailSaid('tableClockOutOfRange') : tiltDetailSaid(v.skewMs < 0 ? 'tableClockBehind' : 'tableClockAhead', { minutes });
      this.o.tilts.raise('table-clock', { say });
    } else if (this.o.tilts.list().some((f) => f.kind === 'table-clock')) {
      this.o.tilts.conditionGone('table-clock', undefined, tiltDetailSaid('tableClockAgrees'));
    }
  }
}
