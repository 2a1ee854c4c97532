/** What a simulated player puts in at a betting window: a ticket, a note, or nothing. */
export type WindowMove = 'ticket' | 'note' | null;

export interface WindowPurse {
  credit: number;
  /** The table's minimum bet. */
  min: number;
  /** Kept beside a main bet (a Portugal jackpot chip): a player with the minimum but not this is short. */
  reserve: number;
  /** The players hold a ticket printed at another station that no acceptor has seen yet. */
  holdsFresh: boolean;
  /** The players hold any ticket printed at another station (fresh, sent back, or one already paid). */
  holdsTickets: boolean;
}

/** How often a ticket tried before is tried again: a ticket sent back offline is paid later, one paid is a replay the floor refuses. */
const REPLAY = 0.2;
/** How often a player with credit feeds a note anyway. */
const NOTE = 0.03;

/**
 * Decided once a window. A fresh ticket always goes in (every soak with a cash-out redeems one). A
 * ticket tried before goes in now and then, short of credit or not: a player who fed only those
 * when short would never feed a note again once every ticket left was already paid, and a table
 * whose players were all short stopped (a CI run, 29 November: no round closed for 60 s).
 */
export function windowMoney(p: WindowPurse, chance: (probability: number) => boolean): WindowMove {
  if (p.holdsFresh) return 'ticket';
  if (p.holdsTickets && chance(REPLAY)) return 'ticket';
  if (p.credit < p.min + p.reserve || chance(NOTE)) return 'note';
  return null;
}
