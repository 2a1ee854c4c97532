import { Emitter } from '../../../hardware/clock.js';
import type { Ledger } from '../../../ledger/index.js';
import { ticketInEscrow } from '../../../ledger/ticket-queries.js';

// The station credit limit (docs/sas.md, "The station credit limit"): credit in that would take a
// station's meter past the table's `creditLimit` is refused before any money is taken. Wins are
// never held to it: they are the player's.

/**
 * What a station holds or has been promised: its credit, and a ticket the authority approved that
 * its acceptor has not stacked yet (credited at the stacked point whatever the meter says then).
 */
export function creditHeld(ledger: Ledger, station: number): number {
  return ledger.credit(station) + (ticketInEscrow(ledger, station)?.approved?.amount ?? 0);
}

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
