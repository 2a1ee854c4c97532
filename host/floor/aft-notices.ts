// What each station's screen is told of the transfers in the casino system sent by AFT and the
// station refused (docs/sas.md, "AFT: the cashless wallet"). Not a credit movement: nothing is
// journalled, and a restart forgets it (the system, which got the refusal code, still knows).
import { Emitter } from '../../hardware/clock.js';
import { AFT_AMOUNT_MAX, type AftInRefusal } from '../../protocol/index.js';
import type { AftInNotice } from '../devices/sas-aft.js';

export interface AftRefusalSaid {
  state: 'refused';
  reason: AftInRefusal;
  amount: number;
  at: number;
}

export class AftNotices {
  /** One notice a station, the newest: a system that floods refusals replaces it, never queues. */
  private readonly last = new Map<number, AftRefusalSaid>();
  private readonly changes = new Emitter<number>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The notice of one station's link: a station's line can only speak of that station. */
  at(station: number): AftInNotice {
    return {
      refused: (reason, amount) => {
        // Only what the view's schema carries: an amount it would refuse would cost the station its whole view.
        if (!Number.isSafeInteger(amount) || amount <= 0 || amount > AFT_AMOUNT_MAX) return;
        this.last.set(station, { state: 'refused', reason, amount, at: this.now() });
        this.changes.emit(station);
      },
      moved: () => {
        if (this.last.delete(station)) this.changes.emit(station);
      },
    };
  }

  /** The station's newest refusal, until a transfer in moves. */
  lastAt(station: number): AftRefusalSaid | null {
    return this.last.get(station) ?? null;
  }

  /** How many stations have a notice (one each at most). */
  size(): number {
    return this.last.size;
  }

  onChange(listener: (station: number) => void): () => void {
    return this.changes.on(listener);
  }
}
