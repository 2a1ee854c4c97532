import type Database from 'better-sqlite3';
import { connectionOf, type Ledger } from './ledger.js';
import { ticketInTxId, ticketOutTxId } from './ticket-postings.js';
import { isSystemNumbered, parseTicketEntry, type MachineTicketTerms, type RequestId, type TICKET_RETURNS, type TicketTerms } from '../terms/ticket-terms.js';

type TicketReturn = (typeof TICKET_RETURNS)[number];

// Read-only queries of the journal's tickets (docs/tito.md) that the table host rebuilds its
// ticket state from at start: the last number it made, the tickets in print at a kill. The
// journal is the only record: a restart finds what was in print and asks the printer about it.

/** A journal row `i` that is a ticket issued and not ended (printed or voided): its end goes under the issue's tx id and `:end` (ticket-postings.ts). */
export const IN_PRINT = `i.type = 'ticket.issue' AND NOT EXISTS (SELECT 1 FROM journal AS e WHERE e.tx_id = i.tx_id || ':end')`;

/** A `ticket.issue` as journalled, with its seq. */
export interface IssuedTicket {
  seq: number;
  terms: TicketTerms;
  /** The print attempt journalled with it (the template and the printer's last one before), when the command was sent. */
  print?: { template: string; before: string };
  /** Validated by the casino's system (SAS), as journalled. */
  authority?: 'sas';
}

function issued(row: { seq: number; body: string } | undefined): IssuedTicket | null {
  if (!row) return null;
  const body: unknown = JSON.parse(row.body);
  const e = parseTicketEntry('ticket.issue', body && typeof body === 'object' && 'payload' in body ? body.payload : undefined);
  if (e?.type !== 'ticket.issue') return null;
  const { print, authority, ...terms } = e.payload;
  return { seq: row.seq, terms, ...(print ? { print } : {}), ...(authority ? { authority } : {}) };
}

/** The newest ticket this table issued, whoever numbered it: its sequence is where the next one's starts. */
export function lastTicketIssued(ledger: Ledger): IssuedTicket | null {
  const row = connectionOf(ledger).prepare(`SELECT seq, body FROM journal WHERE type = 'ticket.issue' ORDER BY seq DESC LIMIT 1`).get() as
    { seq: number; body: string } | undefined;
  return issued(row);
}

/**
 * The newest ticket this table numbered itself (not one the casino's system numbered, SAS system
 * validation) while validated by `authority`: its machine id is the one the table's next number of
 * its own is made under. A table back on the upstream after a time on SAS must not number under
 * the id the casino's system set (0x4C): the upstream would refuse every such ticket as another
 * issuer's, and the players' paper would be paid nowhere.
 */
export function lastMachineTicket(ledger: Ledger, authority: 'upstream' | 'sas' = 'upstream'): (IssuedTicket & { terms: MachineTicketTerms }) | null {
  const label = authority === 'sas' ? `= 'sas'` : 'IS NULL';
  const row = connectionOf(ledger)
    .prepare(
      `SELECT seq, body FROM journal WHERE type = 'ticket.issue' AND json_extract(body, '$.payload.machineId') IS NOT NULL
         AND json_extract(body, '$.payload.authority') ${label} ORDER BY seq DESC LIMIT 1`,
    )
    .get() as { seq: number; body: string } | undefined;
  const t = issued(row);
  return t && !isSystemNumbered(t.terms) ? { ...t, terms: t.terms } : null;
}

/**
 * Every validation id the table's tickets were numbered under while the upstream validated them (a
 * table switched from the upstream to the casino system keeps its older tickets' numbers, under
 * the upstream's id: docs/sas.md). Tickets journalled as the casino system's (`authority: sas`)
 * are not counted: their id is the one that system set. A SAS ticket journalled before the label
 * existed is counted, as before.
 */
export function ticketMachineIds(ledger: Ledger): number[] {
  const rows: unknown[] = connectionOf(ledger)
    .prepare(
      `SELECT DISTINCT json_extract(body, '$.payload.machineId') AS id FROM journal
         WHERE type = 'ticket.issue' AND json_extract(body, '$.payload.authority') IS NULL`,
    )
    .all();
  return rows.flatMap((r) => (r && typeof r === 'object' && 'id' in r && typeof r.id === 'number' ? [r.id] : []));
}

/**
 * The tickets in print, read at a start: every issue is journalled under `ticket:out:<number>` and
 * its end under the same and `:end` (ledger/derive.ts refuses any other), side by side in the
 * transaction-id index, so the walk is a range of that index with each end looked up beside it, and
 * a row is read only for a ticket in print. Through the type index instead, every issue's row was
 * read for its id (a review: 187 ms at the first read, 60–70 after, on a 30-day journal of 14,152
 * issues; about 10 now, the same journal and load). `+type`: the type index must not be chosen for the outer rows.
 */
export const TICKETS_IN_PRINT_SQL = `SELECT seq, body FROM journal WHERE seq IN (
    SELECT i.seq FROM journal AS i WHERE i.tx_id > 'ticket:out:' AND i.tx_id < 'ticket:out;' AND i.tx_id NOT LIKE '%:end'
      AND NOT EXISTS (SELECT 1 FROM journal AS e WHERE e.tx_id = i.tx_id || ':end')) AND +type = 'ticket.issue' ORDER BY seq`;

/** Tickets issued and neither printed nor voided (a print in progress, or cut short by a kill), oldest first. */
export function ticketsInPrint(ledger: Ledger): IssuedTicket[] {
  const rows = connectionOf(ledger).prepare(TICKETS_IN_PRINT_SQL).all() as { seq: number; body: string }[];
  return rows.map(issued).filter((t): t is IssuedTicket => t !== null);
}

/** Whether a ticket's end (printed or voided) is journalled. */
export function ticketEnded(ledger: Ledger, validation: TicketTerms['validation']): boolean {
  return ledger.byTxId(ticketOutTxId(validation, 'end')) !== undefined;
}

/**
 * A ticket this table issued, as its journal says it: its amount and how it ended (`printed`,
 * `void`: the credit given back to its station, or `null`: still in print); null when this table
 * did not issue that number.
 */
export function ownTicket(ledger: Ledger, validation: string): { amount: number; end: 'printed' | 'void' | null } | null {
  const issue = ledger.byTxId(ticketOutTxId(validation as TicketTerms['validation'], 'issue'));
  const t = issue?.type === 'ticket.issue' ? issued(issue) : null;
  if (!t) return null;
  const end = ledger.byTxId(ticketOutTxId(t.terms.validation, 'end'))?.type;
  return { amount: t.terms.amount, end: end === 'ticket.printed' ? 'printed' : end === 'ticket.void' ? 'void' : null };
}

/** A ticket asked about at a station and not yet stacked or returned (in the acceptor's escrow at a kill). */
export interface TicketInEscrow {
  requestId: string;
  validation: TicketTerms['validation'];
  station: number;
  /** The authority's approval journalled for it (the host told the acceptor to stack), if any. */
  approved: { amount: number; currency: string } | null;
  /** Asked of the casino's system (SAS), as its request says. */
  authority?: 'sas';
}

/**
 * A journal row `r` that is a ticket-in attempt's request with no end: not returned (its `:end`),
 * not stacked (its number's `:stacked` entry naming this request). Both are looked up by
 * transaction id, so reading every open attempt is a walk of the requests, not of their ends.
 */
const OPEN_IN = `r.type = 'ticket.redeem.request'
  AND NOT EXISTS (SELECT 1 FROM journal AS e WHERE e.tx_id = r.tx_id || ':end')
  AND NOT EXISTS (SELECT 1 FROM journal AS s WHERE s.tx_id = 'ticket:in:' || json_extract(r.body, '$.payload.validation') || ':stacked'
                    AND json_extract(s.body, '$.payload.requestId') = json_extract(r.body, '$.payload.requestId'))`;

/** An attempt with no end, as journalled: its request's seq, and when it was approved. */
export interface OpenTicketIn extends TicketInEscrow {
  seq: number;
  approved: { amount: number; currency: string; at: string } | null;
}

/**
 * Where the last read of the open attempts left the journal, per ledger: every request up to `upTo`
 * was walked, and of those only `open` had no end. An end is never taken back (the journal is
 * append-only), so the next read walks those and the requests since, not every request a table
 * ever journalled (a busy table journals thousands a week, and its host reads them at each ticket
 * inserted and each service page built).
 */
interface Walked {
  upTo: number;
  open: readonly number[];
}
const walkedOf = new WeakMap<Ledger, Walked>();

// Prepared once per connection: the walk is read at every question about a station's credit limit
// room (every note, ticket, AFT and move in), and preparing its two statements was most of its time
// (about 0.25 ms a read of 0.7, measured at 20,000 notes with two attempts open).
const openWalks = new WeakMap<Database.Database, { since: Database.Statement; open: Database.Statement }>();
function openWalkOf(db: Database.Database): { since: Database.Statement; open: Database.Statement } {
  let q = openWalks.get(db);
  if (!q) {
    q = {
      since: db.prepare(`SELECT seq FROM journal WHERE type = 'ticket.redeem.request' AND seq > ? ORDER BY seq`).pluck(),
      open: db.prepare(`SELECT r.seq AS seq, r.body AS body FROM journal AS r WHERE r.seq IN (SELECT value FROM json_each(?)) AND ${OPEN_IN} ORDER BY r.seq`),
    };
    openWalks.set(db, q);
  }
  return q;
}

/** The open attempts of the whole table, and how many requests this read walked. */
export function ticketsInOpenWalked(ledger: Ledger): { open: OpenTicketIn[]; walked: number } {
  const db = connectionOf(ledger);
  const from = walkedOf.get(ledger) ?? { upTo: 0, open: [] };
  const q = openWalkOf(db);
  const since = q.since.all(from.upTo) as number[];
  const candidates = [...from.open, ...since];
  const rows = q.open.all(JSON.stringify(candidates)) as { seq: number; body: string }[];
  // Inside a transaction the rows read may yet be rolled back, and their seqs journalled again as
  // other entries: what it read is used, never kept.
  if (!db.inTransaction) walkedOf.set(ledger, { upTo: since.at(-1) ?? from.upTo, open: rows.map((r) => r.seq) });
  const open = rows.flatMap((row) => {
    const o = openOf(ledger, row);
    return o ? [o] : [];
  });
  return { open, walked: candidates.length };
}

/** Every ticket-in attempt with no end (of one station, or of the table), oldest first. */
export function ticketsInOpen(ledger: Ledger, station?: number): OpenTicketIn[] {
  const { open } = ticketsInOpenWalked(ledger);
  return station === undefined ? open : open.filter((p) => p.station === station);
}

/** The station's newest redemption attempt with no end, if any: what a restart resolves from the acceptor. */
export function ticketInEscrow(ledger: Ledger, station: number): TicketInEscrow | null {
  const open = ticketsInOpen(ledger, station).at(-1);
  if (!open) return null;
  const { seq: _seq, approved, ...attempt } = open;
  return { ...attempt, approved: approved ? { amount: approved.amount, currency: approved.currency } : null };
}

/**
 * What the authority approved at the station and no end settles yet: every open attempt's, not only
 * the newest (one approved and held for a person when the acceptor jammed stays open while the
 * player inserts another, and is credited when a person settles it stacked).
 */
export function ticketsApprovedOpen(ledger: Ledger, station: number): number {
  return ticketsInOpen(ledger, station).reduce((sum, t) => sum + (t.approved?.amount ?? 0), 0);
}

/** The attempt asked by `requestId`, if it has no end. */
export function ticketInOpen(ledger: Ledger, requestId: RequestId): OpenTicketIn | null {
  const row = connectionOf(ledger)
    .prepare(`SELECT r.seq AS seq, r.body AS body FROM journal AS r WHERE r.tx_id = ? AND ${OPEN_IN}`)
    .get(ticketInTxId(requestId, 'request')) as { seq: number; body: string } | undefined;
  return row ? openOf(ledger, row) : null;
}

function openOf(ledger: Ledger, row: { seq: number; body: string }): OpenTicketIn | null {
  const asked = entryOf(row.body, 'ticket.redeem.request');
  if (asked?.type !== 'ticket.redeem.request') return null;
  const ok = ledger.byTxId(ticketInTxId(asked.payload.requestId, 'approved'));
  const approved = ok ? entryOf(ok.body, 'ticket.redeem.approved') : null;
  const p = asked.payload;
  return {
    seq: row.seq,
    requestId: p.requestId,
    validation: p.validation,
    station: p.station,
    approved: ok && approved?.type === 'ticket.redeem.approved' ? { amount: approved.payload.amount, currency: approved.payload.currency, at: ok.ts } : null,
    ...(p.authority ? { authority: p.authority } : {}),
  };
}

/**
 * Whether the station's acceptor has left whatever it held at the entry `seq`, as the journal
 * shows: it took a note in escrow since (it journals each before STACK, and offers none while a
 * ticket's cycle lasts), or it broke its protocol or jammed since (`bill-cheat`, `bill-jam`: its
 * word about what it held is no longer taken).
 */
export function acceptorMovedOnSince(ledger: Ledger, station: number, seq: number): boolean {
  const row = connectionOf(ledger)
    .prepare(
      `SELECT 1 FROM journal WHERE seq > ? AND json_extract(body, '$.payload.station') = ?
         AND (type = 'bill.escrow' OR (type = 'tilt.raise' AND json_extract(body, '$.payload.kind') IN ('bill-cheat', 'bill-jam'))) LIMIT 1`,
    )
    .get(seq, station);
  return row !== undefined;
}

/**
 * How a ticket-in attempt ended, when it has (`ticket.redeem.returned` under its `end` id): the
 * reason the player was given. `undefined`: not ended; `null`: ended by an entry that names no
 * reason the player was told.
 */
export function ticketInEnded(ledger: Ledger, requestId: RequestId): { reason: TicketReturn } | null | undefined {
  const end = ledger.byTxId(ticketInTxId(requestId, 'end'));
  if (!end) return undefined;
  const e = entryOf(end.body, 'ticket.redeem.returned');
  return e?.type === 'ticket.redeem.returned' ? { reason: e.payload.reason } : null;
}

/** A ticket-in attempt's end as journalled: stacked (the station credited `amount`), or returned (why, and whether it had been approved first). */
export type TicketInEnd = { requestId: RequestId; validation: TicketTerms['validation']; station: number } & (
  { kind: 'stacked'; amount: number } | { kind: 'returned'; reason: TicketReturn; approved: boolean }
);

const IN_END_TYPES = `type IN ('ticket.redeem.stacked', 'ticket.redeem.returned')`;
type InEndRow = { type: 'ticket.redeem.stacked' | 'ticket.redeem.returned'; body: string };

/** The entry at `seq` as a ticket-in end; null when it is none. */
export function ticketInEndAt(ledger: Ledger, seq: number): TicketInEnd | null {
  const row = connectionOf(ledger).prepare(`SELECT type, body FROM journal WHERE seq = ? AND ${IN_END_TYPES}`).get(seq) as InEndRow | undefined;
  return row ? inEnd(ledger, row) : null;
}

/** The station's newest ticket-in end, if any. */
export function lastTicketInEnd(ledger: Ledger, station: number): TicketInEnd | null {
  const row = connectionOf(ledger)
    .prepare(`SELECT type, body FROM journal WHERE ${IN_END_TYPES} AND json_extract(body, '$.payload.station') = ? ORDER BY seq DESC LIMIT 1`)
    .get(station) as InEndRow | undefined;
  return row ? inEnd(ledger, row) : null;
}

function inEnd(ledger: Ledger, row: InEndRow): TicketInEnd | null {
  const e = entryOf(row.body, row.type);
  if (e?.type === 'ticket.redeem.stacked') return { ...attemptOf(e.payload), kind: 'stacked', amount: e.payload.amount };
  if (e?.type !== 'ticket.redeem.returned') return null;
  const approved = ledger.byTxId(ticketInTxId(e.payload.requestId, 'approved')) !== undefined;
  return { ...attemptOf(e.payload), kind: 'returned', reason: e.payload.reason, approved };
}

const attemptOf = (p: { requestId: RequestId; validation: TicketTerms['validation']; station: number }) => ({
  requestId: p.requestId,
  validation: p.validation,
  station: p.station,
});

function entryOf(text: string, type: 'ticket.redeem.request' | 'ticket.redeem.approved' | 'ticket.redeem.stacked' | 'ticket.redeem.returned') {
  const body: unknown = JSON.parse(text);
  return parseTicketEntry(type, body && typeof body === 'object' && 'payload' in body ? body.payload : undefined);
}

/** A ticket the printer printed, with the terms it was issued under; `seq` is its `ticket.printed` entry's. */
export interface PrintedTicket {
  seq: number;
  terms: TicketTerms;
}

/**
 * The station's printed tickets whose `ticket.printed` comes after `afterSeq`, oldest (or newest)
 * first, at most `limit` (the casino system reads them by SAS long poll 0x4D: docs/sas.md).
 */
export function ticketsPrintedAt(ledger: Ledger, station: number, afterSeq: number, limit: number, order: 'oldest' | 'newest' = 'oldest'): PrintedTicket[] {
  const rows = connectionOf(ledger)
    .prepare(
      `SELECT p.seq AS seq, i.seq AS issueSeq, i.body AS body FROM journal AS p JOIN journal AS i ON i.tx_id = substr(p.tx_id, 1, length(p.tx_id) - 4)
         WHERE p.type = 'ticket.printed' AND p.seq > ? AND json_extract(p.body, '$.payload.station') = ? AND i.type = 'ticket.issue'
         ORDER BY p.seq ${order === 'oldest' ? 'ASC' : 'DESC'} LIMIT ?`,
    )
    .all(afterSeq, station, limit) as { seq: number; issueSeq: number; body: string }[];
  return rows.flatMap((r) => {
    const t = issued({ seq: r.issueSeq, body: r.body });
    return t ? [{ seq: r.seq, terms: t.terms }] : [];
  });
}
