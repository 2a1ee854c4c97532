import { Emitter } from '../../../hardware/clock.js';
import { creditHeld, type Ledger } from '../../../ledger/index.js';

// The station credit limit (docs/sas.md, "The station credit limit"): credit in that would take a
// station's meter past the table's `creditLimit` is refused before any money is taken. Wins are
// never held to it: they are the player's. What counts against it is the ledger's `creditHeld`:
// the credit, the notes told to stack and not yet credited, a ticket approved and not yet stacked.

/** How much more credit in the station may take before it passes `limit` (0 at or above it). */
export function creditRoom(ledger: Ledger, station: number, limit: number): number {
  return Math.max(0, limit - creditHeld(ledger, station));
}

/**
 * Whether `amount` in would pass the limit. An amount that is not a positive safe integer (a
 * peer's lie) passes it: nothing that cannot be counted exactly goes on a meter.
 */
export function passesCreditLimit(ledger: Ledger, station: number, amount: number, limit: number): boolean {
  if (!Number.isSafeInteger(amount) || amount <= 0) return true;
  return amount > creditRoom(ledger, station, limit);
}

/** The last note each station's acceptor returned at the limit: what its screen tells the player, for a few seconds. */
export class CreditLimitNotes {
  private readonly last = new Map<number, number>();
  private readonly changes = new Emitter<number>();

  constructor(private readonly now: () => number = Date.now) {}

  returned(station: number): void {
    this.last.set(station, this.now());
    this.changes.emit(station);
  }

  /** When the station's last note went back at the limit (ms since the epoch), or null. */
  lastAt(station: number): number | null {
    return this.last.get(station) ?? null;
  }

  onChange(listener: (station: number) => void): () => void {
    return this.changes.on(listener);
  }
}
