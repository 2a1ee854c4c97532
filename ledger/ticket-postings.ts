import { LedgerRefusal } from './refusal.js';
import {
  isSystemNumbered,
  isTicketEntryType,
  termsConsistent,
  type SystemTicketTerms,
  parseTicketEntry,
  type RequestId,
  type TicketEntry,
  type TicketEntryType,
} from '../terms/ticket-terms.js';
import {
  isValidationEntryType,
  parseValidationEntry,
  validationTxId,
  type ValidationEntry,
  type ValidationEntryType,
} from '../terms/system-validation-terms.js';
import type { ValidationNumber } from '../terms/validation-number.js';

// What a ticket's entries mean for the accounts (issue 47, docs/tito.md). The ledger holds the
// ticket's rules itself, through the transaction ids its steps share, so that no caller's mistake
// (or a lying printer or authority) can journal a ticket both printed and given back, nor credit a
// ticket twice at this table:
//
//   ticket.issue              ticket:out:<number>            once per number
//   ticket.printed | .void    ticket:out:<number>:end        one end: printed or voided, never both
//   ticket.redeem.request     ticket:in:<request>            once per attempt
//   ticket.redeem.approved    ticket:in:<request>:approved   once per attempt
//   ticket.redeem.returned    ticket:in:<request>:end        the attempt's end when it went back
//   ticket.redeem.stacked     ticket:in:<number>:stacked     once per number: this table credits a ticket once
//   ticket.validation.request ticket:sys:<request>           a cash-out waiting for the casino system's number (no money)
//   ticket.validation.end     ticket:sys:<request>:end       its one end; a ticket.issue the system numbered needs the end `number` with that number
//
// Accounts: `tickets:printing` holds the credit of a ticket issued and not yet printed or voided;
// `tickets:out` what this table's printed tickets are worth to whoever holds them (credit-normal:
// the floor owes it); `tickets:in` what this table paid out for tickets (debit: the floor owes it
// to this table). Across the floor `tickets:out` of the issuer and `tickets:in` of the redeemer net
// to zero for every redeemed ticket.

export const TICKET_ACCOUNTS = { printing: 'tickets:printing', out: 'tickets:out', in: 'tickets:in' } as const;

/** Ticket entries that move credit: each needs its transaction id. */
export const TICKET_MONEY_TYPES = ['ticket.issue', 'ticket.printed', 'ticket.void', 'ticket.redeem.stacked'] as const satisfies readonly TicketEntryType[];

export function ticketOutTxId(validation: ValidationNumber, step: 'issue' | 'end'): string {
  return step === 'issue' ? `ticket:out:${validation}` : `ticket:out:${validation}:end`;
}

export function ticketInTxId(requestId: RequestId, step: 'request' | 'approved' | 'end'): string {
  return step === 'request' ? `ticket:in:${requestId}` : `ticket:in:${requestId}:${step}`;
}

export function ticketStackedTxId(validation: ValidationNumber): string {
  return `ticket:in:${validation}:stacked`;
}

/** The transaction id a ticket entry must be journalled under. */
export function txIdOfTicketEntry(e: TicketEntry): string {
  switch (e.type) {
    case 'ticket.issue':
      return ticketOutTxId(e.payload.validation, 'issue');
    case 'ticket.printed':
    case 'ticket.void':
      return ticketOutTxId(e.payload.validation, 'end');
    case 'ticket.redeem.request':
      return ticketInTxId(e.payload.requestId, 'request');
    case 'ticket.redeem.approved':
      return ticketInTxId(e.payload.requestId, 'approved');
    case 'ticket.redeem.returned':
      return ticketInTxId(e.payload.requestId, 'end');
    case 'ticket.redeem.stacked':
      return ticketStackedTxId(e.payload.validation);
  }
}

/** The transaction id a ticket or system validation entry must go under; null when its payload does not read as one; undefined for another type. */
export function txIdOfTicketJournal(type: string, payload: unknown): string | null | undefined {
  if (isTicketEntryType(type)) {
    const e = parseTicketEntry(type, payload);
    return e ? txIdOfTicketEntry(e) : null;
  }
  if (!isValidationEntryType(type)) return undefined;
  const e = parseValidationEntry(type, payload);
  return e ? validationTxId(e.payload.requestId, e.type === 'ticket.validation.request' ? 'request' : 'end') : null;
}

/** What deriving a ticket entry reads of the ledger before it: the entry under a transaction id. */
export interface TicketView {
  entryByTx(txId: string): { type: string; body: string } | undefined;
  credit(station: number): number;
}

/** How a derivation records what an entry does (derive.ts's own helpers). */
export interface TicketSink {
  post(account: string, amount: number): void;
  /** The station's credit moves by `change` (refused below zero). */
  creditChange(station: number, change: number): void;
  /** A meter of the station and of the table. */
  both(station: number, name: string, delta: number): void;
  stationCredit(station: number): string;
}

/** The ticket entry journalled under `txId`, read back with its type's schema; null when there is none. */
function earlier(view: TicketView, txId: string): TicketEntry | null {
  const row = view.entryByTx(txId);
  if (!row || !isTicketEntryType(row.type)) return null;
  const body: unknown = JSON.parse(row.body);
  return parseTicketEntry(row.type, body && typeof body === 'object' && 'payload' in body ? body.payload : undefined);
}

/** The postings and meters of a ticket or system validation entry (derive.ts); a payload that does not read as one is refused. */
export function deriveTicketJournal(view: TicketView, type: TicketEntryType | ValidationEntryType, payload: unknown, out: TicketSink): void {
  if (isValidationEntryType(type)) {
    const e = parseValidationEntry(type, payload);
    if (!e) throw new LedgerRefusal('invalid-payload', `${type}: not a system validation entry`);
    if (e.type === 'ticket.validation.end') requestOf(view, e.payload);
    return;
  }
  const e = parseTicketEntry(type, payload);
  if (!e) throw new LedgerRefusal('invalid-payload', `${type}: not a ticket entry`);
  deriveTicket(view, e, out);
}

/** The request a system validation end or a system-numbered ticket names, at the same station; else a refusal. */
function requestOf(view: TicketView, p: { requestId: RequestId; station: number }): Extract<ValidationEntry, { type: 'ticket.validation.request' }>['payload'] {
  const row = view.entryByTx(validationTxId(p.requestId, 'request'));
  const body: unknown = row ? JSON.parse(row.body) : null;
  const e =
    row?.type === 'ticket.validation.request'
      ? parseValidationEntry(row.type, body && typeof body === 'object' && 'payload' in body ? body.payload : undefined)
      : null;
  if (e?.type !== 'ticket.validation.request') throw new LedgerRefusal('ticket-mismatch', `no ticket.validation.request ${p.requestId}`);
  if (e.payload.station !== p.station) throw new LedgerRefusal('ticket-mismatch', `validation request ${p.requestId} was station ${e.payload.station}'s`);
  return e.payload;
}

/**
 * A ticket the casino's system numbered is issued only under the number that system gave for
 * that request, for the amount the request held, once (its end `number`, ./system-validation-terms).
 */
function checkSystemIssue(view: TicketView, t: SystemTicketTerms): void {
  const asked = requestOf(view, t);
  const row = view.entryByTx(validationTxId(t.requestId, 'end'));
  const body: unknown = row ? JSON.parse(row.body) : null;
  const end =
    row?.type === 'ticket.validation.end'
      ? parseValidationEntry(row.type, body && typeof body === 'object' && 'payload' in body ? body.payload : undefined)
      : null;
  if (end?.type !== 'ticket.validation.end' || end.payload.outcome !== 'number' || end.payload.validation !== t.validation)
    throw new LedgerRefusal('ticket-mismatch', `the system gave request ${t.requestId} no number ${t.validation}`);
  if (asked.amount !== t.amount) throw new LedgerRefusal('ticket-mismatch', `request ${t.requestId} held ${asked.amount}, not ${t.amount}`);
  if (!termsConsistent(t)) throw new LedgerRefusal('ticket-mismatch', `ticket ${t.validation}: its system id is not the number's first two digits`);
}

/** An attempt is validated by one system from its request to its end: a later entry cannot move it to the other (the upstream reads the label). */
function sameAuthority(p: { requestId: RequestId; authority?: 'sas' | undefined }, before: { authority?: 'sas' | undefined }): void {
  if (p.authority !== before.authority)
    throw new LedgerRefusal(
      'ticket-mismatch',
      `attempt ${p.requestId} was asked of ${before.authority ?? 'the upstream'}, not ${p.authority ?? 'the upstream'}`,
    );
}

/** The postings and meters of a ticket entry (its payload already admitted by its schema). */
export function deriveTicket(view: TicketView, e: TicketEntry, out: TicketSink): void {
  switch (e.type) {
    case 'ticket.issue': {
      const p = e.payload;
      if (isSystemNumbered(p)) checkSystemIssue(view, p);
      out.creditChange(p.station, -p.amount);
      out.post(out.stationCredit(p.station), p.amount);
      out.post(TICKET_ACCOUNTS.printing, -p.amount);
      return;
    }
    case 'ticket.printed':
    case 'ticket.void': {
      const p = e.payload;
      const found = earlier(view, ticketOutTxId(p.validation, 'issue'));
      if (found?.type !== 'ticket.issue') throw new LedgerRefusal('ticket-mismatch', `ticket ${p.validation} was not issued here`);
      const issued = found.payload;
      if (issued.station !== p.station) throw new LedgerRefusal('ticket-mismatch', `ticket ${p.validation} was issued at station ${issued.station}`);
      out.post(TICKET_ACCOUNTS.printing, issued.amount);
      if (e.type === 'ticket.printed') {
        out.post(TICKET_ACCOUNTS.out, -issued.amount);
        // GLI-11's ticket-out meters count a ticket once it exists on paper.
        out.both(p.station, 'ticketsOut', 1);
        out.both(p.station, 'ticketsOutAmount', issued.amount);
        out.both(p.station, 'totalOut', issued.amount);
      } else {
        out.creditChange(p.station, issued.amount);
        out.post(out.stationCredit(p.station), -issued.amount);
        out.both(p.station, 'ticketsVoided', 1);
      }
      return;
    }
    case 'ticket.redeem.request':
      return;
    case 'ticket.redeem.approved':
    case 'ticket.redeem.returned': {
      const p = e.payload;
      const found = earlier(view, ticketInTxId(p.requestId, 'request'));
      if (found?.type !== 'ticket.redeem.request') throw new LedgerRefusal('ticket-mismatch', `no ticket.redeem.request ${p.requestId}`);
      const asked = found.payload;
      if (asked.validation !== p.validation || asked.station !== p.station)
        throw new LedgerRefusal('ticket-mismatch', `attempt ${p.requestId} was for ticket ${asked.validation} at station ${asked.station}`);
      sameAuthority(p, asked);
      if (e.type === 'ticket.redeem.returned') {
        const stacked = earlier(view, ticketStackedTxId(p.validation));
        if (stacked?.type === 'ticket.redeem.stacked' && stacked.payload.requestId === p.requestId)
          throw new LedgerRefusal('ticket-mismatch', `attempt ${p.requestId} was stacked: it cannot have gone back`);
      }
      return;
    }
    case 'ticket.redeem.stacked': {
      const p = e.payload;
      const found = earlier(view, ticketInTxId(p.requestId, 'approved'));
      if (found?.type !== 'ticket.redeem.approved') throw new LedgerRefusal('ticket-mismatch', `attempt ${p.requestId} was not approved`);
      const ok = found.payload;
      if (ok.validation !== p.validation || ok.station !== p.station || ok.amount !== p.amount || ok.currency !== p.currency)
        throw new LedgerRefusal(
          'ticket-mismatch',
          `attempt ${p.requestId} was approved for ${ok.amount} ${ok.currency} of ticket ${ok.validation} at station ${ok.station}`,
        );
      sameAuthority(p, ok);
      if (view.entryByTx(ticketInTxId(p.requestId, 'end')))
        throw new LedgerRefusal('ticket-mismatch', `attempt ${p.requestId} went back: it cannot be stacked`);
      out.creditChange(p.station, p.amount);
      out.post(TICKET_ACCOUNTS.in, p.amount);
      out.post(out.stationCredit(p.station), -p.amount);
      out.both(p.station, 'ticketsIn', 1);
      out.both(p.station, 'ticketsInAmount', p.amount);
      out.both(p.station, 'totalIn', p.amount);
      return;
    }
  }
}
