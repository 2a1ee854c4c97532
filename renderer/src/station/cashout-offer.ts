import type { CommandBody, StationState } from '../../../protocol/index.js';

/** How a player cashes out: a ticket (the default where the station prints them) or a handpay by an attendant. */
export type CashoutVia = 'ticket' | 'handpay';

/**
 * Whether the station's screen offers the player the choice (docs/tito.md, "The player's choice"):
 * only where the station has a ticket printer. Without one every cash-out is a handpay anyway, and
 * the one Cash-out button says so by what follows.
 */
export function offersHandpay(state: Pick<StationState, 'cashout'>): boolean {
  return state.cashout?.printsTickets === true;
}

/**
 * The command a cash-out button sends. The ticket is the plain cash-out: the host prints a ticket
 * where it can and falls back to a handpay, saying why, where it cannot. A handpay is asked for by name.
 */
export function cashoutCommand(via: CashoutVia): CommandBody {
  return via === 'handpay' ? { name: 'cash-out', via: 'handpay' } : { name: 'cash-out' };
}
