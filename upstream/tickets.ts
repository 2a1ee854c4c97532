import { ASSIGNED_MACHINE_ID_MIN, MACHINE_ID_MAX, parseValidationNumber } from '../terms/validation-number.js';
import {
  isSystemNumbered,
  termsConsistent,
  type MachineTicketTerms,
  type RequestId,
  TicketRefusal,
  type TicketEntry,
  type TicketTerms,
} from '../terms/ticket-terms.js';
import { raiseAlarm } from './alarm.js';
import { contestNumber, isContested, NOT_CONTESTED } from './ticket-contests.js';
import type { Db, Sql } from './sql.js';

// The validation authority's register (issue 47 item 4; docs/tito.md): a row per ticket, a row per
// attempt to redeem one. Every decision is one statement the database decides under the ticket's
// row lock — a conditional UPDATE — never a read then a write: the same ticket asked at two tables
// at once is approved for one, and the other's UPDATE, waiting on the row, finds it pending and
// is refused. Nothing here runs on a timer: a redemption the table never confirmed is resolved by
// the table's own journal when it syncs (`applyTicketEntries`, called by ingest in the batch's
// transaction).

/** The alarms this raises. */
export const TICKET_ALARM_KINDS = ['ticket-foreign-issuer', 'ticket-disagreement', 'ticket-refused', 'ticket-refusals'] as const;

/**
 * How many redemptions of one table may be refused as unknown or already paid within a window
 * before all its redemptions are refused (`offline`) for the rest of it. The scheme is public and
 * the numbers are a machine id and a count: a table's credentials are enough to ask for numbers
 * no paper was ever read for, and most such asks are refused. A floor's players rarely present a
 * paid copy or a misread barcode (each already an alarm); a table that keeps doing so is asking
 * for numbers. The upstream's routes apply `DEFAULT_LIMITS.ticketRefusals` per 10 minutes.
 */
export interface RefusalLimit {
  readonly count: number;
  readonly windowMs: number;
}

/**
 * The refusals the floor is told of (`ticket-refused`, issue 49 item 3): a number the register never
 * printed or the scheme cannot make (forged, or another system's), a ticket already paid (a
 * copy presented again), and a contested number (a paper the cage must see: which table and
 * station its player is at). One alarm per attempt (a request asked again is answered, not alarmed).
 */
const ALARMED_REFUSALS: readonly TicketRefusal[] = ['unknown', 'already-paid', 'contested'];

async function alarmRefusal(tx: Sql, terminal: string, ask: RedeemAsk, reason: TicketRefusal): Promise<void> {
  if (!ALARMED_REFUSALS.includes(reason)) return;
  await raiseAlarm(tx, terminal, 'ticket-refused', { validation: ask.validation, station: ask.station, requestId: ask.requestId, reason });
}

export interface TicketAt {
  readonly validation: string;
  readonly station: number;
}

export interface RedeemAsk extends TicketAt {
  readonly requestId: RequestId;
  readonly currency: string;
  readonly limit: number;
}

export type RedeemDecision =
  | { readonly kind: 'approved'; readonly requestId: string; readonly validation: string; readonly amount: number; readonly currency: string }
  | { readonly kind: 'refused'; readonly requestId: string; readonly reason: TicketRefusal };

/** A word the authority did not take: why, for the table's log (nothing changed). */
export type TicketWord = { readonly ok: true } | { readonly ok: false; readonly error: string; readonly message: string };

const OK: TicketWord = { ok: true };
const no = (error: string, message: string): TicketWord => ({ ok: false, error, message });

/** How far ahead of this clock a table's word may date a ticket: the skew a signed request may have (server.ts, maxSkewMs). */
const WORD_SKEW_MS = 5 * 60_000;

/**
 * The table's validation id: assigned on its first ask, the same ever after. The id its
 * configuration names (`proposed`) when no table holds it, else the next free one of the ids the
 * upstream assigns (the upper half, terms/validation-number.ts): a table that was told an id in
 * its configuration keeps its numbers the floor's, and two tables never share one.
 */
export async function machineIdOf(db: Db, terminal: string, proposed?: number): Promise<number> {
  return db.transaction(async (tx) => {
    // Two tables asking at once must not both take MAX + 1, nor both claim one id.
    await tx.query('SELECT pg_advisory_xact_lock(727275)');
    if (proposed !== undefined) await claimFree(tx, terminal, proposed);
    // The lowest free id of the upper half (ASSIGNED_MACHINE_ID_MIN, or the lowest one after an id
    // held there whose next is free): never one a configuration may name, which a table offline
    // may be printing under. A table that claimed the top of the range must not leave the next
    // table without one. Only for a table with none: the id's CHECK is tested before ON CONFLICT,
    // so an insert at the top of the range would fail even for a table that has its id.
    await tx.query(
      `INSERT INTO ticket_machines (machine_id, terminal_id)
       SELECT MIN(c.id), $1 FROM (
         SELECT $2::int AS id
         UNION ALL SELECT m.machine_id + 1 FROM ticket_machines m WHERE m.machine_id >= $2 AND m.machine_id < $3
       ) c
       WHERE NOT EXISTS (SELECT 1 FROM ticket_machines n WHERE n.machine_id = c.id)
         AND NOT EXISTS (SELECT 1 FROM ticket_machines WHERE terminal_id = $1)
       HAVING MIN(c.id) IS NOT NULL
       ON CONFLICT (terminal_id) DO NOTHING`,
      [terminal, ASSIGNED_MACHINE_ID_MIN, MACHINE_ID_MAX],
    );
    const r = await tx.query<{ machine_id: number }>('SELECT machine_id FROM ticket_machines WHERE terminal_id = $1', [terminal]);
    const id = r.rows[0]?.machine_id;
    if (id === undefined) throw new Error(`no machine id for ${terminal}`);
    return id;
  });
}

/** Gives `terminal` the id `machineId` if it has none and no table holds that id (the caller holds the ids' lock). */
async function claimFree(tx: Sql, terminal: string, machineId: number): Promise<void> {
  await tx.query(
    `INSERT INTO ticket_machines (machine_id, terminal_id)
     SELECT $2, $1 WHERE NOT EXISTS (SELECT 1 FROM ticket_machines WHERE machine_id = $2 OR terminal_id = $1)`,
    [terminal, machineId],
  );
}

/**
 * A ticket issued by `terminal` (its word or its journal's `ticket.issue`). Its number must be one
 * this table's validation id makes: a table cannot register a number of another's. A table with no
 * id yet (offline at its first cash-out, numbering under its configuration's) takes the ticket's id
 * when no table holds it.
 */
export async function registerIssue(sql: Sql, terminal: string, t: TicketTerms, from: 'word' | 'journal' = 'word'): Promise<TicketWord> {
  // Numbered by a casino's system (SAS system validation): that system validates and pays it, never this register.
  if (isSystemNumbered(t)) return no('system-validated', 'the casino system that numbered this ticket is its validation authority');
  // A word dated ahead of this clock by more than a signed request may be (its journal would pass it only then: ticket-word-only.ts).
  if (from === 'word' && Date.parse(t.issuedAt) > Date.now() + WORD_SKEW_MS) {
    await raiseAlarm(sql, terminal, 'ticket-disagreement', { validation: t.validation, issuedAt: t.issuedAt, what: 'issued ahead of the upstream’s clock' });
    return no('issued-ahead', 'the ticket is dated ahead of the upstream’s clock');
  }
  // Said as what it is: a ticket dated wrong is no number of another table's (termsConsistent refuses both).
  if (!(Date.parse(t.expiresAt) > Date.parse(t.issuedAt))) {
    await raiseAlarm(sql, terminal, 'ticket-disagreement', {
      validation: t.validation,
      issuedAt: t.issuedAt,
      expiresAt: t.expiresAt,
      what: 'expires when or before it is issued',
    });
    return no('bad-dates', 'the ticket expires when or before it is issued');
  }
  let mine = await sql.query<{ machine_id: number }>('SELECT machine_id FROM ticket_machines WHERE terminal_id = $1', [terminal]);
  if (mine.rows.length === 0 && termsConsistent(t)) {
    await sql.query('SELECT pg_advisory_xact_lock(727275)');
    await claimFree(sql, terminal, t.machineId);
    mine = await sql.query<{ machine_id: number }>('SELECT machine_id FROM ticket_machines WHERE terminal_id = $1', [terminal]);
  }
  if (!termsConsistent(t) || mine.rows[0]?.machine_id !== t.machineId) {
    // Its paper is out with those digits: the number is contested (refused at every table) until the cage settles it.
    const said = await contestNumber(sql, terminal, t);
    await raiseAlarm(sql, terminal, 'ticket-foreign-issuer', { validation: t.validation, machineId: t.machineId, sequence: t.sequence, ...said });
    return no('foreign-issuer', 'the number is not one this table makes under its validation id');
  }
  const ins = await sql.query(
    `INSERT INTO tickets (validation, terminal_id, station, machine_id, sequence, amount, currency, issued_at, expires_at, state, word_only)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::timestamptz, $9::timestamptz, 'issued', $10)
     ON CONFLICT DO NOTHING`,
    [t.validation, terminal, t.station, t.machineId, t.sequence, t.amount, t.currency, t.issuedAt, t.expiresAt, from === 'word'],
  );
  if (ins.rowCount === 1) return OK;
  // The table's journal has brought it: no longer known by the word alone, whatever its terms.
  if (from === 'journal') await sql.query('UPDATE tickets SET word_only = false WHERE validation = $1 AND terminal_id = $2', [t.validation, terminal]);
  // Told again (its word, then its journal): the same terms are harmless, other terms are not.
  const had = await sql.query<{ terminal_id: string; station: number; amount: number; currency: string; issued_at: Date; expires_at: Date }>(
    'SELECT terminal_id, station, amount, currency, issued_at, expires_at FROM tickets WHERE validation = $1',
    [t.validation],
  );
  const h = had.rows[0];
  const same =
    h &&
    h.terminal_id === terminal &&
    h.station === t.station &&
    Number(h.amount) === t.amount &&
    h.currency === t.currency &&
    new Date(h.issued_at).getTime() === Date.parse(t.issuedAt) &&
    new Date(h.expires_at).getTime() === Date.parse(t.expiresAt);
  if (same) return OK;
  await raiseAlarm(sql, terminal, 'ticket-disagreement', { validation: t.validation, what: 'issued again with other terms' });
  return no('terms-differ', 'this number is registered with other terms');
}

/** The printer printed it: redeemable. */
export async function registerPrinted(sql: Sql, terminal: string, t: TicketAt): Promise<TicketWord> {
  const r = await sql.query<{ state: string }>(
    `UPDATE tickets SET state = 'printed', printed_at = now() WHERE validation = $1 AND terminal_id = $2 AND state = 'issued' RETURNING state`,
    [t.validation, terminal],
  );
  if (r.rowCount === 1) return OK;
  const s = await stateOf(sql, t.validation, terminal);
  if (s === null) return no('unknown-ticket', 'no ticket of this table has this number (its issue not yet registered)');
  if (s === 'voided') {
    await raiseAlarm(sql, terminal, 'ticket-disagreement', { validation: t.validation, what: 'printed after it was voided' });
    return no('voided', 'the ticket was voided');
  }
  return OK; // printed already, or further on
}

/**
 * Not printed, the credit given back: never redeemable. A printed ticket voided is an alarm (its
 * paper may be out). Only the table's journal voids a printed ticket: its host sends one end per
 * ticket, so a void word after a printed one is not its host's (the table's key in other hands),
 * and the paper a player holds stays redeemable; the journal, synced, says which end it was.
 */
export async function registerVoid(sql: Sql, terminal: string, t: TicketAt, said: 'word' | 'journal' = 'word'): Promise<TicketWord> {
  const from = (state: string) =>
    sql.query(`UPDATE tickets SET state = 'voided', voided_at = now() WHERE validation = $1 AND terminal_id = $2 AND state = $3`, [
      t.validation,
      terminal,
      state,
    ]);
  if ((await from('issued')).rowCount === 1) return OK;
  if (said === 'word' && (await stateOf(sql, t.validation, terminal)) === 'printed') {
    await raiseAlarm(sql, terminal, 'ticket-disagreement', { validation: t.validation, what: 'a void word for a ticket printed' });
    return no('not-voidable', 'the ticket is printed: only the table’s journal voids it');
  }
  if ((await from('printed')).rowCount === 1) {
    await raiseAlarm(sql, terminal, 'ticket-disagreement', { validation: t.validation, what: 'voided after it was printed' });
    return OK;
  }
  const s = await stateOf(sql, t.validation, terminal);
  if (s === null) return no('unknown-ticket', 'no ticket of this table has this number');
  if (s === 'voided') return OK;
  await raiseAlarm(sql, terminal, 'ticket-disagreement', { validation: t.validation, what: `voided by its table while ${s}` });
  return no('not-voidable', `the ticket is ${s}`);
}

async function stateOf(sql: Sql, validation: string, terminal: string): Promise<string | null> {
  const r = await sql.query<{ state: string }>('SELECT state FROM tickets WHERE validation = $1 AND terminal_id = $2', [validation, terminal]);
  return r.rows[0]?.state ?? null;
}

/**
 * Asks to redeem: one transaction. The attempt is recorded first (a second ask with the same
 * request id is answered as the first was); then one conditional UPDATE takes the ticket from
 * `printed` to `pending` for this attempt if, and only if, it is printed, in the currency asked,
 * within the limit and not expired. Only when it takes nothing is the row read, to say why.
 */
export async function redeem(db: Db, terminal: string, ask: RedeemAsk, refusals?: RefusalLimit): Promise<RedeemDecision> {
  return db.transaction(async (tx) => {
    const fresh = await tx.query(
      `INSERT INTO ticket_redemptions (terminal_id, request_id, validation, station, outcome, reason)
       VALUES ($1, $2, $3, $4, 'refused', 'unknown') ON CONFLICT (terminal_id, request_id) DO NOTHING`,
      [terminal, ask.requestId, ask.validation, ask.station],
    );
    if (fresh.rowCount === 0) return askedAgain(tx, terminal, ask);
    if (refusals && (await tooManyRefused(tx, terminal, ask, refusals))) return { kind: 'refused', requestId: ask.requestId, reason: 'offline' };
    // A number this scheme could not have made is no ticket: refused without reading the register (the attempt is kept).
    if (!parseValidationNumber(ask.validation).ok) {
      await tx.query('UPDATE ticket_redemptions SET closed_at = now() WHERE terminal_id = $1 AND request_id = $2', [terminal, ask.requestId]);
      await alarmRefusal(tx, terminal, ask, 'unknown');
      return { kind: 'refused', requestId: ask.requestId, reason: 'unknown' };
    }
    const won = await tx.query<{ amount: number; currency: string }>(
      `UPDATE tickets SET state = 'pending', redeem_terminal = $2, redeem_station = $3, redeem_request = $4, pending_at = now()
       WHERE validation = $1 AND state = 'printed' AND currency = $5 AND amount <= $6 AND expires_at > now() AND ${NOT_CONTESTED}
       RETURNING amount, currency`,
      [ask.validation, terminal, ask.station, ask.requestId, ask.currency, ask.limit],
    );
    const row = won.rows[0];
    if (row) {
      const amount = Number(row.amount);
      await tx.query(`UPDATE ticket_redemptions SET outcome = 'approved', reason = NULL, amount = $3 WHERE terminal_id = $1 AND request_id = $2`, [
        terminal,
        ask.requestId,
        amount,
      ]);
      return { kind: 'approved', requestId: ask.requestId, validation: ask.validation, amount, currency: row.currency };
    }
    const { reason, inPrint } = await whyNot(tx, ask);
    await tx.query('UPDATE ticket_redemptions SET reason = $3, closed_at = now() WHERE terminal_id = $1 AND request_id = $2', [
      terminal,
      ask.requestId,
      reason,
    ]);
    // Issued, its print not yet reported (a printer that lost power mid-print, a table behind on its
    // sync): refused as unknown, as no paper is known to exist, but a number this register issued
    // is no forgery; the table's journal settles it (printed or voided).
    if (!inPrint) await alarmRefusal(tx, terminal, ask, reason);
    return { kind: 'refused', requestId: ask.requestId, reason };
  });
}

/**
 * Whether this table is past its refusals in the window: then this attempt is closed as `offline`
 * without reading the register (asked again, it is answered so), and the floor told once a window.
 */
/**
 * A table's redemptions refused as a guess would be, in the window before now ($1 the table, $2 the
 * request being asked, not counted; $3 the window as an interval). By why each was refused, whatever
 * came after: the table's own cancel of each refusal (its host sends one, and its journal's
 * ticket.redeem.returned another) turns the attempt 'returned' and must not clear the count.
 */
export const REFUSALS_SQL = `SELECT count(*)::int AS n FROM ticket_redemptions
  WHERE terminal_id = $1 AND request_id <> $2 AND reason IN ('unknown', 'already-paid') AND asked_at > now() - $3::interval`;

/**
 * Migration 12: REFUSALS_SQL is asked before every redemption. Without it the count read every
 * redemption the table ever asked for (the primary key's first column); with it, the window's
 * refusals alone. Partial, under the query's own condition: a table's paid tickets are not in it.
 */
export const REFUSALS_INDEX_SQL = `
  CREATE INDEX ticket_redemptions_refused ON ticket_redemptions (terminal_id, asked_at) WHERE reason IN ('unknown', 'already-paid');
`;

async function tooManyRefused(tx: Sql, terminal: string, ask: RedeemAsk, limit: RefusalLimit): Promise<boolean> {
  const window = `${Math.max(1, Math.round(limit.windowMs))} milliseconds`;
  const r = await tx.query<{ n: number }>(REFUSALS_SQL, [terminal, ask.requestId, window]);
  if ((r.rows[0]?.n ?? 0) < limit.count) return false;
  await tx.query(`UPDATE ticket_redemptions SET reason = 'offline', closed_at = now() WHERE terminal_id = $1 AND request_id = $2`, [terminal, ask.requestId]);
  const told = await tx.query(`SELECT 1 FROM alarms WHERE terminal_id = $1 AND kind = 'ticket-refusals' AND raised_at > now() - $2::interval`, [
    terminal,
    window,
  ]);
  if (told.rows.length === 0)
    await raiseAlarm(tx, terminal, 'ticket-refusals', {
      refused: r.rows[0]?.n ?? 0,
      windowMs: limit.windowMs,
      station: ask.station,
      validation: ask.validation,
    });
  return true;
}

/** Why the conditional UPDATE took nothing: the row as it stands now (committed), and whether it is issued and not yet printed. */
async function whyNot(tx: Sql, ask: RedeemAsk): Promise<{ reason: TicketRefusal; inPrint: boolean }> {
  const r = await tx.query<{ state: string; currency: string; amount: number; expired: boolean }>(
    'SELECT state, currency, amount, expires_at <= now() AS expired FROM tickets WHERE validation = $1',
    [ask.validation],
  );
  const t = r.rows[0];
  // Claimed by a table whose id does not make it: two papers may carry it, whatever the row says.
  if (await isContested(tx, ask.validation)) return { reason: 'contested', inPrint: false };
  return { reason: refusalOf(t, ask), inPrint: t?.state === 'issued' };
}

function refusalOf(t: { state: string; currency: string; amount: number; expired: boolean } | undefined, ask: RedeemAsk): TicketRefusal {
  if (!t || t.state === 'issued') return 'unknown';
  if (t.state === 'voided') return 'voided';
  if (t.state === 'redeemed') return 'already-paid';
  if (t.state === 'pending') return 'pending-elsewhere';
  if (t.currency !== ask.currency) return 'other-currency';
  if (t.expired) return 'expired';
  if (Number(t.amount) > ask.limit) return 'over-limit';
  // Printed, same currency, within the limit, not expired, yet not taken: cannot be, since the
  // UPDATE and this read see the same committed row. Refuse rather than guess.
  return 'unknown';
}

interface Attempt {
  validation: string;
  outcome: 'approved' | 'refused' | 'stacked' | 'returned';
  reason: string | null;
  amount: number | null;
}

async function attemptOf(tx: Sql, terminal: string, requestId: string): Promise<Attempt | null> {
  const r = await tx.query<Attempt>(
    'SELECT validation, outcome, reason, amount FROM ticket_redemptions WHERE terminal_id = $1 AND request_id = $2 FOR UPDATE',
    [terminal, requestId],
  );
  return r.rows[0] ?? null;
}

/** The same request id again: the first answer, never a second approval of another attempt. */
async function askedAgain(tx: Sql, terminal: string, ask: RedeemAsk): Promise<RedeemDecision> {
  const a = await attemptOf(tx, terminal, ask.requestId);
  const refused = (reason: TicketRefusal): RedeemDecision => ({ kind: 'refused', requestId: ask.requestId, reason });
  if (!a || a.validation !== ask.validation) {
    await raiseAlarm(tx, terminal, 'ticket-disagreement', { requestId: ask.requestId, what: 'a request id used again for another ticket' });
    return refused('unknown');
  }
  if (a.outcome === 'approved') {
    const t = await tx.query<{ currency: string }>('SELECT currency FROM tickets WHERE validation = $1', [a.validation]);
    return { kind: 'approved', requestId: ask.requestId, validation: ask.validation, amount: Number(a.amount), currency: t.rows[0]?.currency ?? ask.currency };
  }
  if (a.outcome === 'stacked') return refused('already-paid');
  // Returned by the table before this ask arrived (a cancel, its journal): this attempt is over.
  if (a.outcome === 'returned') return refused('offline');
  return refused(isRefusal(a.reason) ? a.reason : 'unknown');
}

function isRefusal(r: string | null): r is TicketRefusal {
  return r !== null && TicketRefusal.safeParse(r).success;
}

/**
 * The acceptor stacked the ticket and the station was credited: paid. Only an approved attempt of
 * this table can be confirmed; anything else is an alarm (the table credited a ticket the
 * authority did not hold for it).
 */
export async function confirmIn(tx: Sql, terminal: string, requestId: string, t: TicketAt, amount?: number): Promise<TicketWord> {
  const a = await attemptOf(tx, terminal, requestId);
  if (a?.outcome === 'stacked' && a.validation === t.validation) return OK;
  if (a?.outcome === 'approved' && a.validation === t.validation) {
    if (amount !== undefined && amount !== Number(a.amount)) {
      await raiseAlarm(tx, terminal, 'ticket-disagreement', {
        validation: t.validation,
        requestId,
        approved: Number(a.amount),
        credited: amount,
        what: 'credited another amount',
      });
    }
    const r = await tx.query(
      `UPDATE tickets SET state = 'redeemed', redeemed_at = now()
       WHERE validation = $1 AND state = 'pending' AND redeem_terminal = $2 AND redeem_request = $3`,
      [t.validation, terminal, requestId],
    );
    if (r.rowCount !== 1) throw new Error(`attempt ${requestId} approved but ticket ${t.validation} is not pending for it`);
    await tx.query(`UPDATE ticket_redemptions SET outcome = 'stacked', closed_at = now() WHERE terminal_id = $1 AND request_id = $2`, [terminal, requestId]);
    return OK;
  }
  await raiseAlarm(tx, terminal, 'ticket-disagreement', {
    validation: t.validation,
    requestId,
    station: t.station,
    ...(amount === undefined ? {} : { amount }),
    what: a ? `stacked an attempt that was ${a.outcome}` : 'stacked a ticket never approved for it',
  });
  return no('not-approved', a ? `this attempt was ${a.outcome}` : 'no such attempt of this table');
}

/**
 * The ticket went back to the player: a pending ticket is redeemable again. An attempt the
 * authority never saw is recorded as returned, so its approval, arriving late, is refused.
 */
export async function cancelIn(tx: Sql, terminal: string, requestId: string, t: TicketAt): Promise<TicketWord> {
  const tomb = await tx.query(
    `INSERT INTO ticket_redemptions (terminal_id, request_id, validation, station, outcome, reason, closed_at)
     VALUES ($1, $2, $3, $4, 'returned', 'returned', now()) ON CONFLICT (terminal_id, request_id) DO NOTHING`,
    [terminal, requestId, t.validation, t.station],
  );
  if (tomb.rowCount === 1) return OK;
  const a = await attemptOf(tx, terminal, requestId);
  if (!a || a.validation !== t.validation) {
    await raiseAlarm(tx, terminal, 'ticket-disagreement', { requestId, validation: t.validation, what: 'returned an attempt of another ticket' });
    return no('not-this-ticket', 'this attempt was for another ticket');
  }
  if (a.outcome === 'stacked') {
    await raiseAlarm(tx, terminal, 'ticket-disagreement', { requestId, validation: t.validation, what: 'returned a ticket it had stacked' });
    return no('stacked', 'this attempt was stacked');
  }
  if (a.outcome === 'approved') {
    await tx.query(
      `UPDATE tickets SET state = 'printed', redeem_terminal = NULL, redeem_station = NULL, redeem_request = NULL, pending_at = NULL
       WHERE validation = $1 AND state = 'pending' AND redeem_terminal = $2 AND redeem_request = $3`,
      [t.validation, terminal, requestId],
    );
  }
  await tx.query(`UPDATE ticket_redemptions SET outcome = 'returned', closed_at = COALESCE(closed_at, now()) WHERE terminal_id = $1 AND request_id = $2`, [
    terminal,
    requestId,
  ]);
  return OK;
}

export const confirm = (db: Db, terminal: string, requestId: string, t: TicketAt) => db.transaction((tx) => confirmIn(tx, terminal, requestId, t));
export const cancel = (db: Db, terminal: string, requestId: string, t: TicketAt) => db.transaction((tx) => cancelIn(tx, terminal, requestId, t));

/**
 * A table's ticket entries, as its journal synced them (in the batch's transaction, each entry
 * once): the table's journal is the truth of what it printed, credited and gave back, so it
 * resolves what the table's direct words left open — a redemption approved and never confirmed
 * is closed by `ticket.redeem.stacked` or `ticket.redeem.returned`, whatever time it arrives.
 */
export async function applyTicketEntries(tx: Sql, terminal: string, entries: readonly TicketEntry[]): Promise<void> {
  for (const e of entries) {
    if ('authority' in e.payload && e.payload.authority === 'sas' && (await theSystemsAlone(tx, terminal, e))) continue;
    switch (e.type) {
      case 'ticket.issue': {
        const told = await registerIssue(tx, terminal, e.payload, 'journal');
        if (!told.ok && told.error === 'terms-differ' && !isSystemNumbered(e.payload)) await journalTermsStand(tx, terminal, e.payload);
        break;
      }
      case 'ticket.printed':
        await registerPrinted(tx, terminal, e.payload);
        break;
      case 'ticket.void':
        await registerVoid(tx, terminal, e.payload, 'journal');
        break;
      case 'ticket.redeem.stacked':
        await confirmIn(tx, terminal, e.payload.requestId, e.payload, e.payload.amount);
        break;
      case 'ticket.redeem.returned':
        await cancelIn(tx, terminal, e.payload.requestId, e.payload);
        break;
      case 'ticket.redeem.request':
      case 'ticket.redeem.approved':
        break; // the authority's own answer decided these; nothing to resolve
    }
  }
}

/**
 * The table's journal says other terms than its word did for the same number (registerIssue has
 * raised the alarm). The journal is what the table printed from and what its witness holds, the
 * word only a message: until an approval is out, the register takes the journal's terms, so a
 * word that said more is never paid. Once one is out (pending or redeemed) the register is left
 * as it stands and the alarm is the record.
 */
async function journalTermsStand(tx: Sql, terminal: string, t: MachineTicketTerms): Promise<void> {
  const r = await tx.query(
    `UPDATE tickets SET station = $3, amount = $4, currency = $5, issued_at = $6::timestamptz, expires_at = $7::timestamptz
     WHERE validation = $1 AND terminal_id = $2 AND state IN ('issued', 'printed')`,
    [t.validation, terminal, t.station, t.amount, t.currency, t.issuedAt, t.expiresAt],
  );
  await raiseAlarm(tx, terminal, 'ticket-disagreement', {
    validation: t.validation,
    what:
      r.rowCount === 1 ? "the journal's terms replace those first told" : "the journal's terms differ from a ticket already in redemption: left as it stands",
  });
}

/**
 * An entry the table journalled as the casino system's (SAS, `authority: sas`): whether it is that
 * system's alone, so that this register leaves it (false: settle it as any other). The issue of a
 * ticket under another id is never registered here (the system pays it); under the very id this
 * register assigned the table it is an alarm, for one number would then be known to both. An
 * attempt is the system's unless this register approved or recorded it (a table that labels an
 * attempt of ours is settled all the same); a credit through the system of a number this register
 * holds is an alarm, for both could pay it.
 */
async function theSystemsAlone(tx: Sql, terminal: string, e: TicketEntry): Promise<boolean> {
  switch (e.type) {
    case 'ticket.issue': {
      const t = e.payload;
      if (isSystemNumbered(t)) return true;
      const mine = await tx.query<{ machine_id: number }>('SELECT machine_id FROM ticket_machines WHERE terminal_id = $1', [terminal]);
      if (mine.rows[0]?.machine_id === t.machineId)
        await raiseAlarm(tx, terminal, 'ticket-disagreement', {
          validation: t.validation,
          machineId: t.machineId,
          what: "a casino system's ticket under the validation id this register assigned the table",
        });
      return true;
    }
    case 'ticket.redeem.stacked':
    case 'ticket.redeem.returned': {
      const p = e.payload;
      if ((await attemptOf(tx, terminal, p.requestId)) !== null) return false;
      if (e.type === 'ticket.redeem.stacked' && (await registered(tx, p.validation)))
        await raiseAlarm(tx, terminal, 'ticket-disagreement', {
          validation: p.validation,
          requestId: p.requestId,
          what: 'credited through the casino system a ticket this register holds',
        });
      return true;
    }
    default:
      return false; // a print or a void of a number not registered here changes nothing; of one that is, it settles as ever
  }
}

async function registered(tx: Sql, validation: string): Promise<boolean> {
  const r = await tx.query('SELECT 1 FROM tickets WHERE validation = $1', [validation]);
  return r.rows.length > 0;
}
