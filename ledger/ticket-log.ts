import { connectionOf, type Ledger } from './ledger.js';
import { TICKET_STATION_KEY, TICKET_TYPES } from './migrations.js';
import { ticketOutTxId } from './ticket-postings.js';
import { parseTicketEntry, TICKET_ENTRY_TYPES, type RequestId, type TicketEntry } from '../terms/ticket-terms.js';
import type { ValidationNumber } from '../terms/validation-number.js';

// The table's ticket history for service mode (docs/tito.md, docs/service-mode.md): its last
// tickets out and its last tickets in, each with where it stands now, read from the journal
// alone. GLI-11 asks a gaming device to recall its last 35 vouchers out and 35 in.

/** GLI-11's recall depth for vouchers, each way. */
export const TICKET_RECALL = 35;

/** Where a ticket stands at this table: printing/printed/voided (out), checking/approved/redeemed/returned (in). */
export type TicketLogState = 'printing' | 'printed' | 'voided' | 'checking' | 'approved' | 'redeemed' | 'returned';

export interface TicketLogRow {
  direction: 'out' | 'in';
  /** The ticket's (the attempt's) newest entry: its seq and journal time. */
  seq: number;
  ts: string;
  /** When it started here: the issue, or the barcode in escrow. */
  since: string;
  station: number;
  validation: ValidationNumber;
  /** A ticket in: its attempt (whether the host holds it for a person is the host's to say, not the journal's). */
  requestId?: RequestId;
  /** Minor units; null for a ticket in that no authority approved (its amount is not known here). */
  amount: number | null;
  state: TicketLogState;
  /** Why it was voided or went back. */
  reason?: string;
}

interface Row {
  seq: number;
  ts: string;
  type: string;
  body: string;
}

function entryOf(row: Row): TicketEntry | null {
  const type = TICKET_ENTRY_TYPES.find((t) => t === row.type);
  const body: unknown = JSON.parse(row.body);
  return type ? parseTicketEntry(type, body && typeof body === 'object' && 'payload' in body ? body.payload : undefined) : null;
}

/** The row an entry makes of its ticket (or attempt), folded over the row so far. */
function fold(was: TicketLogRow | undefined, e: TicketEntry, at: Row): TicketLogRow {
  const p = e.payload;
  const base = { seq: at.seq, ts: at.ts, since: was?.since ?? at.ts, station: p.station, validation: p.validation };
  switch (e.type) {
    case 'ticket.issue':
      return { ...base, direction: 'out', amount: e.payload.amount, state: 'printing' };
    case 'ticket.printed':
      return { ...base, direction: 'out', amount: was?.amount ?? null, state: 'printed' };
    case 'ticket.void':
      return { ...base, direction: 'out', amount: was?.amount ?? null, state: 'voided', reason: e.payload.reason };
    case 'ticket.redeem.request':
      return { ...base, requestId: e.payload.requestId, direction: 'in', amount: null, state: 'checking' };
    case 'ticket.redeem.approved':
      return { ...base, requestId: e.payload.requestId, direction: 'in', amount: e.payload.amount, state: 'approved' };
    case 'ticket.redeem.stacked':
      return { ...base, requestId: e.payload.requestId, direction: 'in', amount: e.payload.amount, state: 'redeemed' };
    case 'ticket.redeem.returned':
      return { ...base, requestId: e.payload.requestId, direction: 'in', amount: was?.amount ?? null, state: 'returned', reason: e.payload.reason };
  }
}

/** The table's newest ticket entries (`?`: how many). */
export const TICKET_LOG_SQL = `SELECT seq, ts, type, body FROM journal WHERE ${TICKET_TYPES} ORDER BY seq DESC LIMIT ?`;
/**
 * A station's newest ticket entries (`?`: the station, how many): a walk back from the station's
 * last row in migration 12's index, not every ticket entry of the table read and sorted.
 */
export const TICKET_LOG_AT_STATION_SQL = `SELECT seq, ts, type, body FROM journal WHERE ${TICKET_TYPES} AND ${TICKET_STATION_KEY} = ? ORDER BY seq DESC LIMIT ?`;

/**
 * The last `limit` tickets out and the last `limit` tickets in (each attempt at a station is one),
 * newest first, of the table or of one station. An entry the journal holds that does not read as a ticket entry is skipped (the
 * verifier names it). A ticket whose issue is older than the entries read takes its amount from
 * its issue entry, found by its transaction id.
 */
export function ticketLog(ledger: Ledger, limit = TICKET_RECALL, station?: number): { out: TicketLogRow[]; in: TicketLogRow[] } {
  const db = connectionOf(ledger);
  // A ticket out is at most 2 entries, one in at most 4 (request, approved, stacked or returned):
  // 6 × limit of the newest entries hold the newest `limit` of each way. `station`: that
  // station's own only (the player's recall), every entry of a ticket naming the same station.
  const rows = (station === undefined ? db.prepare(TICKET_LOG_SQL).all(6 * limit) : db.prepare(TICKET_LOG_AT_STATION_SQL).all(station, 6 * limit)) as Row[];
  const byKey = new Map<string, TicketLogRow>();
  for (const row of rows.reverse()) {
    const e = entryOf(row);
    if (!e) continue;
    const key = 'requestId' in e.payload ? `in:${e.payload.requestId}` : `out:${e.payload.validation}`;
    byKey.set(key, fold(byKey.get(key), e, row));
  }
  const all = [...byKey.values()].sort((a, b) => b.seq - a.seq);
  const out = all.filter((r) => r.direction === 'out').slice(0, limit);
  for (const r of out) {
    if (r.amount !== null) continue;
    const issue = ledger.byTxId(ticketOutTxId(r.validation, 'issue'));
    const e = issue ? entryOf(issue) : null;
    if (issue && e?.type === 'ticket.issue') Object.assign(r, { amount: e.payload.amount, since: issue.ts });
  }
  return { out, in: all.filter((r) => r.direction === 'in').slice(0, limit) };
}
