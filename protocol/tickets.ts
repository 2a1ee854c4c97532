/**
 * Why a ticket inserted at a station went back, as its screen words it (`desk.ticketReturned.<reason>`):
 * the validation authority's refusals, then the table's own reasons (docs/tito.md). The ledger's
 * list (`TICKET_RETURNS`, terms/ticket-terms.ts) is held to this one by the host's type check.
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

/**
 * What stops a station's ticket printer, as service mode names it (`service.tickets.fault.<fault>`):
 * the TCL status flags (docs/protocols/tcl.md; `platen-up` is the print head lifted, "head open").
 * The hardware's list (`PrinterFault`) is held to this one by the host's type check.
 */
export const PRINTER_FAULTS = [
  'paper-out',
  'platen-up',
  'paper-jam',
  'head-error',
  'voltage-error',
  'temperature-error',
  'cutter-error',
  'system-error',
  'memory-error',
  'supply-index-missing',
  'offline',
  'firmware-error',
  'command-error',
  'data-error',
] as const;
export type PrinterFaultName = (typeof PRINTER_FAULTS)[number];

/** Where a ticket stands at this table (service mode's ticket log): out, then in. */
export const TICKET_LOG_STATES = ['printing', 'printed', 'voided', 'checking', 'approved', 'redeemed', 'returned'] as const;
export type TicketLogStateName = (typeof TICKET_LOG_STATES)[number];
