import { TWO_PERSON_ACTIONS, type ServiceAction } from '../../protocol/index.js';
import type { ServiceBackend } from './service-backend.js';

/**
 * Whether an action waits for a second person. A handpay, and a ticket held after a jam, a ticket
 * in held after an acceptor's dispute or a note held for a person settled by hand (money an attendant moves, as a handpay),
 * only above the two-person amount; an
 * unknown request goes to the backend alone, which refuses it with its reason.
 */
export function needsTwoPeople(action: ServiceAction, b: Pick<ServiceBackend, 'tickets' | 'cashout' | 'cabinet' | 'devices'>): boolean {
  if (!TWO_PERSON_ACTIONS.has(action.kind)) return false;
  const pending = moneyMoved(action, b);
  if (pending === null) return true;
  return pending !== undefined && pending.amount > b.cabinet.twoPersonHandpayAbove;
}

/** The money an action moves that needs two people only above the two-person amount; null: any other two-person action. */
function moneyMoved(action: ServiceAction, b: Pick<ServiceBackend, 'tickets' | 'cashout' | 'devices'>): { amount: number } | undefined | null {
  switch (action.kind) {
    case 'ticket-settle':
      return b.tickets.held().find((t) => t.station === action.station);
    case 'ticket-in-settle':
      return b.tickets.heldIn().find((t) => t.seq === action.seq);
    case 'note-settle':
      return b.devices.heldNotes().find((n) => n.seq === action.seq);
    case 'handpay-confirm':
      return b.cashout.pending()?.find((p) => p.requestTxId === action.requestTxId);
    default:
      return null;
  }
}
