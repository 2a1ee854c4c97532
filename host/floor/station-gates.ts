import type { CommandBody, CashoutState, RefusalReason, TiltNotice } from '../../protocol/index.js';
import type { Outcome } from '../../engine/table/game.js';
import type { TiltManager } from '../tilts/tilt-manager.js';
import type { Handpays } from './handpays.js';

/** What the screens need of the floor: refusals by faults and locks, the notices, the cash-out. */
export interface StationGate {
  /** Why a station's command is refused by a fault or a pending handpay, or null. */
  refuse(station: number, command: CommandBody['name']): { reason: string; refusal: RefusalReason } | null;
  notices(station: number | null): TiltNotice[];
  cashout(station: number): CashoutState;
  cashOut(station: number): Outcome;
  onChange(listener: () => void): () => void;
}

/**
 * The faults and the handpays seen from a station. A pending handpay locks the station's bets
 * (it may still decide for a round in play, so the player is never forced onto a default); a
 * disabled station takes no bet and no cash-out; a halted table takes nothing.
 */
export class StationGates implements StationGate {
  constructor(
    private readonly tilts: TiltManager,
    private readonly handpays: Handpays,
    private readonly onHandpayChange: (listener: () => void) => () => void,
  ) {}

  refuse(station: number, command: CommandBody['name']): { reason: string; refusal: RefusalReason } | null {
    if (command === 'set-language' || command === 'clear-bets') return null;
    if (command === 'decide') return this.tilts.refusal(station, 'decision');
    if (command === 'place-bet') {
      const locked = this.handpays.pendingAt(station);
      if (locked) return { reason: `station ${station} is locked until handpay ${locked.requestTxId} is paid`, refusal: 'station-locked' };
      return this.tilts.refusal(station, 'bet');
    }
    return this.tilts.refusal(station, 'cash-out');
  }

  notices(station: number | null): TiltNotice[] {
    return this.tilts.notices(station);
  }

  cashout(station: number): CashoutState {
    return this.handpays.state(station);
  }

  cashOut(station: number): Outcome {
    return this.handpays.cashOut(station);
  }

  onChange(listener: () => void): () => void {
    const offTilts = this.tilts.onChange(listener);
    const offHandpays = this.onHandpayChange(listener);
    return () => {
      offTilts();
      offHandpays();
    };
  }
}
