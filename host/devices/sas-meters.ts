// A station's ledger meters as SAS meters (docs/sas.md, "The meter map of a table game"): what the
// casino's system reads from the station's SAS link is exactly what its journal says. The ledger
// counts money in minor units; SAS counts credits of the accounting denomination, so each amount
// is divided by it (a denomination of one minor unit, the kiosk's, makes them equal).
import type { SasMeters } from '../../hardware/sas/types.js';

export interface StationLedgerMeters {
  /** `ledger.meters('station:N')`: the ledger's GLI-named meters of the station. */
  station: Readonly<Record<string, number>>;
  /** The station's credit meter now, in minor units. */
  credit: number;
  /** The table's power-up count (the ledger keeps it per table: a station's cabinet powers up with its table). */
  powerResets: number;
}

/**
 * The SAS meters of one station. Amounts are floored to whole credits (a denomination that does
 * not divide the table's amounts is a configuration to refuse, not to round: see the caller).
 */
export function sasMetersOf(m: StationLedgerMeters, denominationMinor: number): SasMeters {
  if (!Number.isSafeInteger(denominationMinor) || denominationMinor < 1) throw new RangeError(`accounting denomination ${denominationMinor}`);
  const credits = (minor: number | undefined): number => Math.floor((minor ?? 0) / denominationMinor);
  const count = (n: number | undefined): number => n ?? 0;
  const s = m.station;
  return {
    coinIn: credits(s.creditsWagered),
    // A void's refund (and a held stake returned, `held.return`) comes back to the credit meter as
    // a win does: coin in took the stake when it was wagered and never gives it back, so coin out
    // must, or the system's reconciliation of the credit meter is short by it and coin in − coin
    // out counts the voided stake as the house's win (docs/sas.md, "The meter map").
    coinOut: credits((s.creditsWon ?? 0) + (s.voidRefunds ?? 0)),
    jackpot: credits(s.jackpotHandpays),
    handpaidCancelledCredits: credits(s.handpaidCancelledCredits),
    cancelledCredits: credits(s.cancelledCredits),
    gamesPlayed: count(s.gamesPlayed),
    gamesWon: count(s.gamesWon),
    gamesLost: count(s.gamesLost),
    billsInCredits: credits(s.totalBillsIn),
    ticketInCredits: credits(s.ticketsInAmount),
    ticketOutCredits: credits(s.ticketsOutAmount),
    drop: credits(s.totalIn),
    aftInCredits: credits(s.aftInAmount),
    aftIn: count(s.aftIn),
    aftOutCredits: credits(s.aftOutAmount),
    aftOut: count(s.aftOut),
    currentCredits: credits(m.credit),
    slotDoorOpened: count(s.doorOpens),
    powerResets: count(m.powerResets),
  };
}
