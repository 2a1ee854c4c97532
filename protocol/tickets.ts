/**
 * Why a ticket inserted at a station went back, as its screen words it (`desk.ticketReturned.<reason>`):
 * the validation authority's refusals, then the table's own reasons (docs/tito.md). The ledger's
 * list (`TICKET_RETURNS`, ledger/ticket-terms.ts) is held to this one by the host's type check.
 */
export const TICKET_RETURN_REASONS = [
  'unknown',
  'already-paid',
  'pending-elsewhere',
  'expired',
  'voided',
  'other-currency',
  'over-limit',
  'offline',
  'acceptor-returned',
  'acceptor-fault',
  'player-cancelled',
  'table-stopped',
] as const;
export type TicketReturnReason = (typeof TICKET_RETURN_REASONS)[number];
