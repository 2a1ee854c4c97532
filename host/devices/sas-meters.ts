// A station's ledger meters as SAS meters (docs/sas.md, "The meter map of a table game"): what the
// casino's system reads from the station's SAS link is exactly what its journal says. The ledger
// counts money in minor units; SAS counts most meters in credits of the accounting denomination,
// so each such amount is divided by it (a denomination of one minor unit, the kiosk's, makes them
// equal), but Table C-7 counts the in-house cashable transfers (A0, B8) in cents: the minor units as they are.
import type { SasHandpay, SasMeters } from '../../hardware/sas/types.js';

export interface StationLedgerMeters {
  /** `ledger.meters('station:N')`: the ledger's GLI-named meters of the station. */
  station: Readonly<Record<string, number>>;
  /** The station's credit meter now, in minor units. */
  credit: number;
  /** The table's power-up count (the ledger keeps it per table: a station's cabinet powers up with its table). */
  powerResets: number;
}

/**
 * The SAS meters of one station. A credits meter the denomination does not divide is refused (a
 * RangeError: the poll fails, logged, and goes unanswered), never floored: a floor read a player's
 * credit of 0.07 at a denomination of 0.05 as one credit, the rest gone from the system's view
 * unsaid. The kiosk's denomination is one minor unit (host/start/sas-links.ts), which divides all.
 */
export function sasMetersOf(m: StationLedgerMeters, denominationMinor: number): SasMeters {
  const credits = (minor: number | undefined, meter: string): number => wholeCredits(minor ?? 0, denominationMinor, `meter ${meter}`);
  const count = (n: number | undefined): number => n ?? 0;
  const s = m.station;
  return {
    coinIn: credits(s.creditsWagered, 'coinIn'),
    // A void's refund (and a held stake returned, `held.return`) comes back to the credit meter as
    // a win does: coin in took the stake when it was wagered and never gives it back, so coin out
    // must, or the system's reconciliation of the credit meter is short by it and coin in − coin
    // out counts the voided stake as the house's win (docs/sas.md, "The meter map").
    coinOut: credits((s.creditsWon ?? 0) + (s.voidRefunds ?? 0), 'coinOut'),
    jackpot: credits(s.jackpotHandpays, 'jackpot'),
    handpaidCancelledCredits: credits(s.handpaidCancelledCredits, 'handpaidCancelledCredits'),
    cancelledCredits: credits(s.cancelledCredits, 'cancelledCredits'),
    gamesPlayed: count(s.gamesPlayed),
    gamesWon: count(s.gamesWon),
    gamesLost: count(s.gamesLost),
    billsInCredits: credits(s.totalBillsIn, 'billsInCredits'),
    ticketInCredits: credits(s.ticketsInAmount, 'ticketInCredits'),
    ticketOutCredits: credits(s.ticketsOutAmount, 'ticketOutCredits'),
    drop: credits(s.totalIn, 'drop'),
    // Table C-7: "In-house cashable transfers to gaming machine (cents)"; B8 the same to the host.
    aftInCents: s.aftInAmount ?? 0,
    aftIn: count(s.aftIn),
    aftOutCents: s.aftOutAmount ?? 0,
    aftOut: count(s.aftOut),
    currentCredits: credits(m.credit, 'currentCredits'),
    slotDoorOpened: count(s.doorOpens),
    powerResets: count(m.powerResets),
  };
}

/** An amount in credits of the denomination: refused (a RangeError naming `what`) where it does not divide it, never floored. */
function wholeCredits(amount: number, denominationMinor: number, what: string): number {
  if (!Number.isSafeInteger(denominationMinor) || denominationMinor < 1) throw new RangeError(`accounting denomination ${denominationMinor}`);
  if (amount % denominationMinor !== 0) throw new RangeError(`SAS ${what}: ${amount} minor units is no whole number of credits of ${denominationMinor}`);
  return amount / denominationMinor;
}

/**
 * Long poll 0x1B's handpay: level 80 (cancelled credits, Table 7.8.2c: the kiosk's handpays are
 * cash-outs paid by an attendant), its amount in credits of the denomination (a non-progressive
 * handpay's unit), refused like a meter where the denomination does not divide it.
 */
export function sasHandpayOf(p: { amount: number } | null, denominationMinor: number): SasHandpay | null {
  return p ? { progressiveGroup: 0, level: 0x80, amount: wholeCredits(p.amount, denominationMinor, 'handpay'), partialPay: 0, resetId: 0 } : null;
}
