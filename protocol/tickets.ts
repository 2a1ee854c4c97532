import { z } from 'zod';
import { lazily } from './lazy.js';
import { MinorUnits } from './units.js';

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
  'contested',
  'acceptor-returned',
  'acceptor-fault',
  'player-cancelled',
  'table-stopped',
  'credit-limit',
] as const;
export type TicketReturnReason = (typeof TICKET_RETURN_REASONS)[number];

/**
 * Why a cash-out became a handpay instead of a ticket (docs/tito.md, "Ticket out at the station"),
 * as the player's screen words it (`desk.handpayWhy.<why>`): the printer's paper is out, it is otherwise not ready (a fault, busy, a ticket in the chute), the credit is above the
 * table's ticket limit, the table has no validation id or no numbers left, the print failed
 * before its command went, or the casino system gave no number (SAS system validation: a denial,
 * no answer in time, no link; docs/sas.md), or the table's clock was found to disagree with the upstream's
 * while the cash-out waited for its number (docs/tito.md, "The table's clock"). The host's `NoTicket` is this list and `no-printer` (at a station without
 * a printer a handpay is simply how it cashes out: nothing to explain).
 */
export const HANDPAY_WHY = [
  'paper-out',
  'printer-not-ready',
  'over-ticket-limit',
  'no-machine-id',
  'numbers-used-up',
  'not-printed',
  'no-system-number',
  'table-clock',
] as const;
export type HandpayWhy = (typeof HANDPAY_WHY)[number];

/**
 * Why the printer's own status said a ticket was not printed (hardware/printer/judge.ts
 * `NotPrintedReason`, held to this list by the host's type check), as service mode words it
 * (`service.tickets.voidReason.<reason>`).
 */
export const TICKET_NOT_PRINTED_REASONS = ['not-sent', 'not-ready', 'not-journalled', 'driver-busy', 'invalid-ticket', 'printer-fault', 'ignored'] as const;
export type TicketNotPrintedReason = (typeof TICKET_NOT_PRINTED_REASONS)[number];

/** Why a ticket out was voided, as service mode words it: the printer's reason, a person's settlement (`by-hand`), or one the host no longer names (`other`). */
export const TICKET_VOID_REASONS = [...TICKET_NOT_PRINTED_REASONS, 'by-hand', 'other'] as const;
export type TicketVoidReason = (typeof TICKET_VOID_REASONS)[number];

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

/**
 * Where a ticket stands at this table (service mode's ticket log): out, then in. `held`: an
 * approved ticket in the acceptor left without an end, waiting for a person (docs/tito.md).
 */
export const TICKET_LOG_STATES = ['printing', 'printed', 'voided', 'checking', 'approved', 'held', 'redeemed', 'returned'] as const;
export type TicketLogStateName = (typeof TICKET_LOG_STATES)[number];

/** How many of its own tickets a station's recall shows (the table's GLI-11 voucher recall is service mode's). */
export const MAX_STATION_TICKETS = 5;

/**
 * One of the station's own tickets in the player's recall, newest first (docs/tito.md): a ticket
 * printed here (out) or one inserted here (in), by its number's last four digits only (the whole
 * number is the bearer's), with its amount once known and where it stands.
 */
export const StationTicket = lazily('StationTicket', () =>
  z.strictObject({
    direction: z.enum(['out', 'in']),
    ts: z.string().max(40),
    last4: z.string().regex(/^\d{4}$/),
    amount: MinorUnits.nullable(),
    state: z.enum(TICKET_LOG_STATES),
    /** A ticket in that went back: why, in the player's words. */
    returned: z.enum(TICKET_RETURN_REASONS).optional(),
  }),
);
export type StationTicket = z.infer<typeof StationTicket>;
