import { iso } from './queries.js';
import { floorOutstanding, type TableOutstanding } from './figure-bound.js';
import type { Sql } from './sql.js';

// The tickets' queries (issue 47 item 5): one ticket by its validation number, with every attempt
// to redeem it; the liability, what the floor owes on tickets out.

/** A ticket's state as the floor reads it: 'expired' is an issued or printed ticket past its expiry (nothing writes it). */
export type TicketState = 'issued' | 'printed' | 'pending' | 'redeemed' | 'voided' | 'expired';

export async function ticketByNumber(sql: Sql, validation: string) {
  const r = await sql.query<{
    validation: string;
    terminal_id: string;
    station: number;
    machine_id: number;
    sequence: number;
    amount: number;
    currency: string;
    issued_at: Date;
    expires_at: Date;
    state: 'issued' | 'printed' | 'pending' | 'redeemed' | 'voided';
    expired: boolean;
    printed_at: Date | null;
    voided_at: Date | null;
    redeem_terminal: string | null;
    redeem_station: number | null;
    redeem_request: string | null;
    pending_at: Date | null;
    redeemed_at: Date | null;
  }>('SELECT *, expires_at <= now() AS expired FROM tickets WHERE validation = $1', [validation]);
  const attempts = await sql.query<{
    terminal_id: string;
    request_id: string;
    station: number;
    outcome: 'approved' | 'refused' | 'stacked' | 'returned';
    reason: string | null;
    amount: number | null;
    asked_at: Date;
    closed_at: Date | null;
  }>('SELECT terminal_id, request_id, station, outcome, reason, amount, asked_at, closed_at FROM ticket_redemptions WHERE validation = $1 ORDER BY asked_at', [
    validation,
  ]);
  const t = r.rows[0];
  const at = (v: Date | null) => (v === null ? null : iso(v));
  const state: TicketState = t && t.expired && (t.state === 'issued' || t.state === 'printed') ? 'expired' : (t?.state ?? 'issued');
  return {
    validation,
    ticket: t
      ? {
          state,
          terminalId: t.terminal_id,
          station: t.station,
          machineId: t.machine_id,
          sequence: t.sequence,
          amount: Number(t.amount),
          currency: t.currency,
          issuedAt: iso(t.issued_at),
          expiresAt: iso(t.expires_at),
          printedAt: at(t.printed_at),
          voidedAt: at(t.voided_at),
          redemption:
            t.redeem_terminal !== null && t.redeem_request !== null && t.redeem_station !== null
              ? {
                  terminalId: t.redeem_terminal,
                  station: t.redeem_station,
                  requestId: t.redeem_request,
                  pendingAt: at(t.pending_at),
                  redeemedAt: at(t.redeemed_at),
                }
              : null,
        }
      : null,
    attempts: attempts.rows.map((a) => ({
      terminalId: a.terminal_id,
      requestId: a.request_id,
      station: a.station,
      outcome: a.outcome,
      reason: a.reason,
      amount: a.amount === null ? null : Number(a.amount),
      askedAt: iso(a.asked_at),
      closedAt: at(a.closed_at),
    })),
    contests: await contestsOf(sql, validation),
  };
}

/** The tables that claimed this number under an id not theirs (a contested number: ticket-contests.ts), each with its paper's terms, for the cage. */
async function contestsOf(sql: Sql, validation: string) {
  const r = await sql.query<{ terminal_id: string; station: number; amount: number; currency: string; issued_at: Date; contested_at: Date }>(
    'SELECT terminal_id, station, amount, currency, issued_at, contested_at FROM ticket_contests WHERE validation = $1 ORDER BY contested_at, terminal_id',
    [validation],
  );
  return r.rows.map((c) => ({
    terminalId: c.terminal_id,
    station: c.station,
    amount: Number(c.amount),
    currency: c.currency,
    issuedAt: iso(c.issued_at),
    contestedAt: iso(c.contested_at),
  }));
}

/**
 * The ticket liability: tickets issued and not redeemed, voided or expired — their credit left a
 * station and no one has been paid it — per currency, at the database's clock. A pending ticket
 * counts, even past its expiry (approved in time, not paid until
 * stacked); one issued and not yet confirmed printed counts too (its credit
 * is gone from the meter until its table voids it). A table whose tickets out in a currency are
 * past TABLE_FIGURE_BOUND is left out and named (`outOfRange`): three tickets of 2^53 − 1 made the
 * floor's figure inexact, and the route answered 500 (a review of 4 December).
 */
export async function ticketLiability(sql: Sql) {
  // Per table, summed exactly (text), so that one table's amounts (its word) cannot make the floor's inexact (figure-bound.ts).
  const r = await sql.query<TableOutstanding>(
    `SELECT terminal_id, currency, COUNT(*)::int AS tickets, SUM(amount)::text AS amount FROM tickets
     WHERE state = 'pending' OR (state IN ('issued', 'printed') AND expires_at > now()) GROUP BY terminal_id, currency`,
  );
  const now = await sql.query<{ now: Date }>('SELECT now() AS now');
  return { asOf: iso(now.rows[0]?.now ?? new Date()), ...floorOutstanding(r.rows) };
}

/** A ticket as a table's page lists it: the number's last four digits only (a ticket is paid to whoever holds its number). */
export interface TableTicket {
  last4: string;
  station: number;
  amount: number;
  currency: string;
  state: TicketState;
  issuedAt: string;
  /** The table that issued it (on the list of those redeemed here). */
  issuedBy: string;
  redeemedAt: string | null;
}

/**
 * A table's tickets from the validation authority's register (issue 49 item 2): the newest `limit`
 * it issued and the newest `limit` redeemed at it, and what it issued that is still outstanding
 * (pending, or issued or printed and not expired: the liability's rule), per currency.
 */
export async function tableTickets(sql: Sql, terminal: string, limit = 50) {
  type Row = {
    validation: string;
    terminal_id: string;
    station: number;
    redeem_station: number | null;
    amount: number;
    currency: string;
    state: 'issued' | 'printed' | 'pending' | 'redeemed' | 'voided';
    expired: boolean;
    issued_at: Date;
    redeemed_at: Date | null;
  };
  const cols = 'validation, terminal_id, station, redeem_station, amount, currency, state, expires_at <= now() AS expired, issued_at, redeemed_at';
  const issued = await sql.query<Row>(`SELECT ${cols} FROM tickets WHERE terminal_id = $1 ORDER BY issued_at DESC, sequence DESC LIMIT $2`, [terminal, limit]);
  const redeemed = await sql.query<Row>(`SELECT ${cols} FROM tickets WHERE redeem_terminal = $1 AND state = 'redeemed' ORDER BY redeemed_at DESC LIMIT $2`, [
    terminal,
    limit,
  ]);
  const out = await sql.query<{ currency: string; tickets: number; amount: number }>(
    `SELECT currency, COUNT(*)::int AS tickets, SUM(amount)::bigint AS amount FROM tickets
     WHERE terminal_id = $1 AND (state = 'pending' OR (state IN ('issued', 'printed') AND expires_at > now())) GROUP BY currency ORDER BY currency`,
    [terminal],
  );
  const view = (t: Row, station: number): TableTicket => ({
    last4: t.validation.slice(-4),
    station,
    amount: Number(t.amount),
    currency: t.currency,
    state: t.expired && (t.state === 'issued' || t.state === 'printed') ? 'expired' : t.state,
    issuedAt: iso(t.issued_at),
    issuedBy: t.terminal_id,
    redeemedAt: t.redeemed_at === null ? null : iso(t.redeemed_at),
  });
  return {
    issued: issued.rows.map((t) => view(t, t.station)),
    redeemed: redeemed.rows.map((t) => view(t, t.redeem_station ?? t.station)),
    outstanding: out.rows.map((x) => ({ currency: x.currency, tickets: x.tickets, amount: Number(x.amount) })),
  };
}
