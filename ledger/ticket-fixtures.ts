// Builders of ticket entries for tests (not used by the kiosk itself): one place for the payloads'
// shape, so a change to an entry's schema is made once rather than in every test that journals a
// ticket.
import type { NewEntry } from './entries.js';
import { ticketInTxId, ticketOutTxId, ticketStackedTxId } from './ticket-postings.js';
import { validationTxId, type ValidationOutcome } from '../terms/system-validation-terms.js';
import type { TICKET_RETURNS } from '../terms/ticket-terms.js';
import type { ValidationNumber } from '../terms/validation-number.js';

const DAY_MS = 86_400_000;

/** The label of a ticket or an attempt the casino's system validates (`tickets.authority: sas`). */
const by = (authority: 'sas' | undefined): { authority?: 'sas' } => (authority ? { authority } : {});

/** A cash-out ticket issued at `station` of machine `machineId`, expiring 90 days after `issuedAt`. */
export function ticketIssue(
  validation: ValidationNumber,
  sequence: number,
  amount: number,
  station = 1,
  machineId = 7,
  issuedAt = '2026-11-26T10:00:00.000Z',
  authority?: 'sas',
): NewEntry {
  const expiresAt = new Date(Date.parse(issuedAt) + 90 * DAY_MS).toISOString();
  return {
    type: 'ticket.issue',
    payload: { validation, machineId, sequence, station, amount, currency: 'MOP', issuedAt, expiresAt, ...by(authority) },
    txId: ticketOutTxId(validation, 'issue'),
  };
}

export function ticketPrinted(validation: ValidationNumber, station = 1): NewEntry {
  return { type: 'ticket.printed', payload: { validation, station }, txId: ticketOutTxId(validation, 'end') };
}

export function ticketVoided(validation: ValidationNumber, station = 1, reason = 'not printed: paper-jam'): NewEntry {
  return { type: 'ticket.void', payload: { validation, station, reason }, txId: ticketOutTxId(validation, 'end') };
}

export function redeemRequest(requestId: string, validation: ValidationNumber, station: number, authority?: 'sas'): NewEntry {
  return { type: 'ticket.redeem.request', payload: { requestId, validation, station, ...by(authority) }, txId: ticketInTxId(requestId, 'request') };
}

export function redeemApproved(requestId: string, validation: ValidationNumber, station: number, amount: number, authority?: 'sas'): NewEntry {
  return {
    type: 'ticket.redeem.approved',
    payload: { requestId, validation, station, amount, currency: 'MOP', ...by(authority) },
    txId: ticketInTxId(requestId, 'approved'),
  };
}

export function redeemStacked(requestId: string, validation: ValidationNumber, station: number, amount: number, authority?: 'sas'): NewEntry {
  return {
    type: 'ticket.redeem.stacked',
    payload: { requestId, validation, station, amount, currency: 'MOP', ...by(authority) },
    txId: ticketStackedTxId(validation),
  };
}

export function redeemReturned(
  requestId: string,
  validation: ValidationNumber,
  station: number,
  reason: (typeof TICKET_RETURNS)[number] = 'already-paid',
  authority?: 'sas',
): NewEntry {
  return { type: 'ticket.redeem.returned', payload: { requestId, validation, station, reason, ...by(authority) }, txId: ticketInTxId(requestId, 'end') };
}

/** A ticket taken in whole: asked, approved and stacked. */
export function redeemed(requestId: string, validation: ValidationNumber, station: number, amount: number): NewEntry[] {
  return [
    redeemRequest(requestId, validation, station),
    redeemApproved(requestId, validation, station, amount),
    redeemStacked(requestId, validation, station, amount),
  ];
}

/** SAS system validation: a cash-out of `amount` at `station` waiting for the casino system's number. */
export function systemRequest(requestId: string, station = 1, amount = 10_000): NewEntry {
  return { type: 'ticket.validation.request', payload: { requestId, station, amount }, txId: validationTxId(requestId, 'request') };
}

/** Its end: `number` with the number the system gave, or `denied`, `timeout`, `restart`. */
export function systemEnd(requestId: string, outcome: ValidationOutcome, validation?: ValidationNumber, station = 1): NewEntry {
  return {
    type: 'ticket.validation.end',
    payload: { requestId, station, outcome, ...(validation ? { validation } : {}) },
    txId: validationTxId(requestId, 'end'),
  };
}

/** A ticket issued under the number the system gave for `requestId` (system id: its first two digits unless told). */
export function systemIssue(
  requestId: string,
  validation: ValidationNumber,
  amount = 10_000,
  station = 1,
  systemId = Number(validation.slice(0, 2)),
): NewEntry {
  const issuedAt = '2026-11-27T10:00:00.000Z';
  const expiresAt = new Date(Date.parse(issuedAt) + 90 * DAY_MS).toISOString();
  return {
    type: 'ticket.issue',
    payload: { validation, systemId, requestId, sequence: 1, station, amount, currency: 'HKD', issuedAt, expiresAt },
    txId: ticketOutTxId(validation, 'issue'),
  };
}
