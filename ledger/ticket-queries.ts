import { connectionOf, type Ledger } from './ledger.js';
import { ticketOutTxId } from './ticket-postings.js';
import { parseTicketEntry, type TicketTerms } from './ticket-terms.js';

// Read-only queries of the journal's tickets (docs/tito.md) that the table host rebuilds its
// ticket state from at start: the last number it made, the tickets in print at a kill. The
// journal is the only record: a restart finds what was in print and asks the printer about it.

/** A `ticket.issue` as journalled, with its seq. */
export interface IssuedTicket {
  seq: number;
  terms: TicketTerms;
  /** The print attempt journalled with it (the template and the printer's last one before), when the command was sent. */
  print?: { template: string; before: string };
}

function issued(row: { seq: number; body: string } | undefined): IssuedTicket | null {
  if (!row) return null;
  const body: unknown = JSON.parse(row.body);
  const e = parseTicketEntry('ticket.issue', body && typeof body === 'object' && 'payload' in body ? body.payload : undefined);
  if (e?.type !== 'ticket.issue') return null;
  const { print, ...terms } = e.payload;
  return { seq: row.seq, terms, ...(print ? { print } : {}) };
}

/** The newest ticket this table issued: its machine id and sequence are where the next number starts. */
export function lastTicketIssued(ledger: Ledger): IssuedTicket | null {
  const row = connectionOf(ledger).prepare(`SELECT seq, body FROM journal WHERE type = 'ticket.issue' ORDER BY seq DESC LIMIT 1`).get() as
    { seq: number; body: string } | undefined;
  return issued(row);
}

/** Tickets issued and neither printed nor voided (a print in progress, or cut short by a kill), oldest first. */
export function ticketsInPrint(ledger: Ledger): IssuedTicket[] {
  const rows = connectionOf(ledger)
    .prepare(
      `SELECT seq, body FROM journal AS i WHERE type = 'ticket.issue'
         AND NOT EXISTS (SELECT 1 FROM journal AS e WHERE e.tx_id = i.tx_id || ':end') ORDER BY seq`,
    )
    .all() as { seq: number; body: string }[];
  return rows.map(issued).filter((t): t is IssuedTicket => t !== null);
}

/** Whether a ticket's end (printed or voided) is journalled. */
export function ticketEnded(ledger: Ledger, validation: TicketTerms['validation']): boolean {
  return ledger.byTxId(ticketOutTxId(validation, 'end')) !== undefined;
}
