import { z } from 'zod';
import { RequestId, SystemTicketNumber, TICKET_PAYLOADS, TicketStation } from './ticket-terms.js';

// SAS system validation at a station (docs/sas.md, "System validation"; docs/tito.md): the casino's
// system, not the table, numbers a cash-out ticket. The cash-out waits for the number, and the
// wait is journalled so that a kill never loses or doubles the credit it holds:
//
//   ticket.validation.request   ticket:sys:<request>       the station's cash-out waits (no money moves: the credit stays on its meter, locked)
//   ticket.validation.end       ticket:sys:<request>:end   one end per request: the system's number, its denial, no answer in time, or a restart
//   credit.cancel               ticket:sys:<request>:handpay  the handpay a cash-out with no ticket fell back to (a denial, a timeout, a restart, a printer)
//
// A `ticket.issue` numbered by the system names its request and carries the number its end gave
// (the ledger checks both: ledger/ticket-postings.ts); a denial, a timeout or a restart is followed
// by the handpay the cash-out falls back to.

/** How a wait for the system's number ended: `restart`, the host started again and found it open (the cash-out becomes a handpay). */
export const VALIDATION_OUTCOMES = ['number', 'denied', 'timeout', 'restart'] as const;
export type ValidationOutcome = (typeof VALIDATION_OUTCOMES)[number];

const Amount = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const SYSTEM_VALIDATION_PAYLOADS = {
  /** A cash-out of `amount` waits for the casino system's number (exception 57); journalled before the exception is raised. */
  'ticket.validation.request': z.strictObject({ requestId: RequestId, station: TicketStation, amount: Amount }),
  /** The wait's end; with `number`, the validation number the system gave (0x58), journalled before 0x58 is answered. */
  'ticket.validation.end': z
    .strictObject({ requestId: RequestId, station: TicketStation, outcome: z.enum(VALIDATION_OUTCOMES), validation: SystemTicketNumber.optional() })
    .refine((p) => (p.outcome === 'number') === (p.validation !== undefined), 'a validation number with the outcome `number`, and only then'),
} as const;

export type ValidationEntryType = keyof typeof SYSTEM_VALIDATION_PAYLOADS;
export type ValidationEntry = { [T in ValidationEntryType]: { type: T; payload: z.infer<(typeof SYSTEM_VALIDATION_PAYLOADS)[T]> } }[ValidationEntryType];

export function isValidationEntryType(type: string): type is ValidationEntryType {
  return Object.hasOwn(SYSTEM_VALIDATION_PAYLOADS, type);
}

/** A journalled system validation entry read back, checked by its schema; null when it does not fit. */
export function parseValidationEntry(type: ValidationEntryType, payload: unknown): ValidationEntry | null {
  if (type === 'ticket.validation.request') {
    const r = SYSTEM_VALIDATION_PAYLOADS[type].safeParse(payload);
    return r.success ? { type, payload: r.data } : null;
  }
  const r = SYSTEM_VALIDATION_PAYLOADS[type].safeParse(payload);
  return r.success ? { type, payload: r.data } : null;
}

/** `handpay`: the handpay (`credit.cancel`) the request's cash-out fell back to, one per request (docs/sas.md: the restart rule finds it). */
export function validationTxId(requestId: RequestId, step: 'request' | 'end' | 'handpay'): string {
  return step === 'request' ? `ticket:sys:${requestId}` : `ticket:sys:${requestId}:${step}`;
}

/** Every ticket entry the journal takes: a ticket's life (./ticket-terms.ts) and the waits for a system's number. */
export const TICKET_JOURNAL_PAYLOADS = { ...TICKET_PAYLOADS, ...SYSTEM_VALIDATION_PAYLOADS } as const;
