import type { MachineTicketTerms } from '../terms/ticket-terms.js';
import { parseValidationNumber } from '../terms/validation-number.js';
import type { Sql } from './sql.js';

// A validation number two tables printed (docs/tito.md, "A contested number"). A table that
// registers a number its validation id does not make is refused `foreign-issuer`; but its paper is
// out, with the same 18 digits as the ticket the id's own table printed (or will print) for that
// sequence: two tables configured with one id, a swapped floor-validation.json. Until the number
// was contested, the register paid it as the id's table's ticket to whichever paper came first,
// and refused the other player as paid. A number a claim names is now refused `contested` at every
// table: the cage settles it from the two papers. Nothing here clears a contest (no route voids
// or settles a ticket by hand: docs/tito.md says so).

/**
 * Migration 23: each table's claim of a number not its own, with the terms its paper says (what
 * the cage compares). One row per number and claimant: the same claim again (its word, then its
 * journal) changes nothing; another table's claim of the same number is kept beside it.
 */
export const TICKET_CONTESTS_SQL = `
  CREATE TABLE ticket_contests (
    validation text NOT NULL CHECK (validation ~ '^[0-9]{18}$'),
    terminal_id text NOT NULL REFERENCES terminals,
    station int NOT NULL,
    amount bigint NOT NULL,
    currency text NOT NULL,
    issued_at timestamptz NOT NULL,
    contested_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (validation, terminal_id)
  );
`;

/** What the alarm of a claim says of the number: whether it is now contested, and what it was when the claim came. */
export type ContestSaid =
  | { readonly contested: false }
  | { readonly contested: true; readonly state: string; readonly paidBy?: string; readonly paidAmount?: number; readonly paidAt?: string };

/**
 * Records `terminal`'s claim of the number of `t`, which its id does not make. A number the scheme
 * cannot make is no other table's ticket (refused `unknown` wherever it is asked): nothing to
 * contest. The ticket's row, if any, is locked first, so a redemption under way is said as it
 * stands: a number already paid stays paid (the cage learns where and how much from the alarm).
 */
export async function contestNumber(sql: Sql, terminal: string, t: MachineTicketTerms): Promise<ContestSaid> {
  if (!parseValidationNumber(t.validation).ok) return { contested: false };
  const held = await sql.query<{ state: string; redeem_terminal: string | null; amount: number; redeemed_at: Date | null }>(
    'SELECT state, redeem_terminal, amount, redeemed_at FROM tickets WHERE validation = $1 FOR UPDATE',
    [t.validation],
  );
  await sql.query(
    `INSERT INTO ticket_contests (validation, terminal_id, station, amount, currency, issued_at)
     VALUES ($1, $2, $3, $4, $5, $6::timestamptz) ON CONFLICT DO NOTHING`,
    [t.validation, terminal, t.station, t.amount, t.currency, t.issuedAt],
  );
  const h = held.rows[0];
  if (!h) return { contested: true, state: 'none' };
  if (h.state !== 'redeemed') return { contested: true, state: h.state };
  return {
    contested: true,
    state: h.state,
    paidBy: h.redeem_terminal ?? undefined,
    paidAmount: Number(h.amount),
    paidAt: h.redeemed_at ? new Date(h.redeemed_at).toISOString() : undefined,
  };
}

/** The condition a redemption's UPDATE of `tickets` (its number `$1`) adds: no table has claimed the number. */
export const NOT_CONTESTED = 'NOT EXISTS (SELECT 1 FROM ticket_contests c WHERE c.validation = $1)';

export async function isContested(sql: Sql, validation: string): Promise<boolean> {
  const r = await sql.query('SELECT 1 FROM ticket_contests WHERE validation = $1 LIMIT 1', [validation]);
  return r.rows.length > 0;
}
