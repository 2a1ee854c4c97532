import { TWO_PERSON_ACTIONS, type ServiceAction } from '../../protocol/index.js';
import type { ServiceBackend } from './service-backend.js';

/**
 * Whether an action waits for a second person. A handpay, and a ticket held after a jam or a ticket
 * in held after an acceptor's dispute settled by hand (money an attendant moves, as a handpay),
 * only above the two-person amount; an
 * unknown request goes to the backend alone, which refuses it with its reason.
 */
export function needsTwoPeople(action: ServiceAction, b: Pick<ServiceBackend, 'tickets' | 'cashout' | 'cabinet'>): boolean {
  if (!TWO_PERSON_ACTIONS.has(action.kind)) return false;
  if (action.kind !== 'handpay-confirm' && action.kind !== 'ticket-settle' && action.kind !== 'ticket-in-settle') return true;
  const pending =
    action.kind === 'ticket-settle'
      ? b.tickets.held().find((t) => t.station === action.station)
      : action.kind === 'ticket-in-settle'
        ? b.tickets.heldIn().find((t) => t.seq === action.seq)
        : b.cashout.pending()?.find((p) => p.requestTxId === action.requestTxId);
  return pending !== undefined && pending.amount > b.cabinet.twoPersonHandpayAbove;
}
