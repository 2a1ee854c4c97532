import { boundedFigure, floorOutstanding, TABLE_FIGURE_BOUND } from '../figure-bound.js';
import type { Sql } from '../sql.js';
import { currencyAt, currencyKey, currencyOf, currencyOrder, type TableCurrency } from '../table-currency.js';
import { theoreticalLines, type TheoreticalLine } from './theoretical.js';
import { arrayOf, handpayFits, intOf, meterFits, meterScopeFits, stationOf, tableStationFits } from './journal-figures.js';
import { entryMetersCountSql, ledgerMeterNameSql, noteDenomination } from '../ingest/report-fields.js';
import { correctionsOf, listedCorrections, type Correction, type CorrectionRow, type CorrectionsCut } from './corrections.js';

export type { Correction, CorrectionsCut } from './corrections.js';

/**
 * The gaming day (issue 49 item 4): the 24 hours from the configured hour in Macau time. Macau
 * keeps UTC+8 all year (no summer time since 1979), so a day is a fixed span of instants.
 */
export const MACAU_OFFSET_MS = 8 * 60 * 60_000;

/**
 * Whether `date` is YYYY-MM-DD of a day of the calendar: one `Date.UTC` gives back as it was
 * (it rolls 2026-02-30 over to 2 March, 2026-13-45 into 2027, and years 0–99 into the 1900s).
 */
export function isCalendarDate(date: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  // From 1970 (no table journalled before) to 9998: a day's window ends where the next day begins,
  // and the day after 9999-12-31 has no date of four digits.
  const year = Number(m?.[1]);
  return m !== null && year >= 1970 && year <= 9998 && new Date(Date.UTC(year, Number(m[2]) - 1, Number(m[3]))).toISOString().slice(0, 10) === date;
}

export function gamingDayWindow(date: string, startHour: number): { from: Date; to: Date } {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m || !isCalendarDate(date)) throw new RangeError(`a gaming day is a day of the calendar, YYYY-MM-DD, not ${date}`);
  const from = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), startHour) - MACAU_OFFSET_MS;
  return { from: new Date(from), to: new Date(from + 24 * 60 * 60_000) };
}

/** A gaming day's instants and the hour it began at (day-hours.ts: a day a change took effect after is longer or shorter than 24 hours). */
export interface GamingDayWindow {
  from: Date;
  to: Date;
  startHour: number;
}

/** The gaming day an instant belongs to (its Macau date, less a day before the start hour). */
export function gamingDayOf(at: Date, startHour: number): string {
  return new Date(at.getTime() + MACAU_OFFSET_MS - startHour * 60 * 60_000).toISOString().slice(0, 10);
}

/** One line of the report: a table (`scope: 'table'`) or one of its stations (`station:N`). Money in minor units. */
export interface ReportLine {
  terminalId: string;
  scope: string;
  /**
   * The currency of every amount on the line: the one its table held when it journalled them
   * (null: the table never named one). A table that changed currency within the day has a line
   * per currency; lines of different currencies are never added together.
   */
  currency: TableCurrency | null;
  /** Notes stacked, by denomination (minor units): how many. */
  notes: Record<string, number>;
  /** The drop by notes: their value. */
  drop: number;
  creditsIn: number;
  creditsOut: number;
  handpays: number;
  /** Paid by the attendant, at the confirm: cash-outs by hand (`credit.cancel`) and round payouts paid by hand alike. */
  handpaid: number;
  /**
   * Round payouts paid by hand (a jackpot award or a win above the limit): the `handpay.request`s
   * journalled in the day, by the settlement's time, where the house's loss on them is journalled.
   * The settlement credits none of it, so `won` leaves it out; the win takes it off.
   */
  handpaidWins: number;
  jackpots: number;
  wagered: number;
  won: number;
  /**
   * wagered − won − void refunds − handpaid wins: what the house kept of the play (a voided round's
   * stakes went back; a payout paid by hand was paid all the same, only not to the credit meter).
   */
  win: number;
  rounds: number;
  voids: number;
  voidRefunds: number;
  transfersIn: number;
  /** Credit sent to other tables, less what came back by a reversal (`transfer.out` − `transfer.reverse`). */
  transfersOut: number;
  /** AFT (docs/sas.md): credit from the casino system's cashless account, and back to it. */
  aftInAmount: number;
  aftOutAmount: number;
  /** Tickets taken in (stacked and credited): how many, and the drop by tickets, their value. */
  ticketsIn: number;
  ticketDrop: number;
  /** Tickets printed: how many and their value. */
  ticketsOut: number;
  ticketsOutAmount: number;
  /** Tickets issued and voided before they printed (their credit went back to the station). */
  ticketsVoided: number;
}

/**
 * The floor's outstanding ticket liability at the day's end (or now, for a day not yet over): tickets
 * issued before it and neither redeemed nor voided by then, and not expired unless a redemption
 * was already pending — what the floor owes on paper, per currency.
 */
export interface TicketLiability {
  asOf: string;
  currencies: { currency: string; tickets: number; amount: number }[];
}

/**
 * The most any figure of a table's report line may hold for one gaming day (upstream/figure-bound.ts):
 * a table whose deltas were each safe and their sum past 2^53 made a line the page's schema
 * refuses, so no one could open that day's report, for any table (a review of 4 December). Such a
 * table's lines are left out, and the report names it; so is a table whose tickets out at the
 * day's end are past it (its liability left out).
 */
export const DAY_FIGURE_BOUND = TABLE_FIGURE_BOUND;

/**
 * The most note denominations one line of the day may hold (`notes`, a column each on the page and in
 * the CSV's notes cell). An acceptor takes a currency's few notes; the ingest takes any `billsIn.N` a
 * ledger could write, and one entry of 20,000 made the table's line 190 kB of the report (a review of
 * 7 December). A table past it is left out and named, as one past DAY_FIGURE_BOUND is.
 */
export const MAX_NOTE_DENOMINATIONS = 64;

const fits = (n: number | null): boolean => n === null || (Number.isSafeInteger(n) && Math.abs(n) <= DAY_FIGURE_BOUND);

/** The tables with a figure past DAY_FIGURE_BOUND in any of their lines, the theoretical ones too, or a line of more than MAX_NOTE_DENOMINATIONS notes. */
function pastBound(lines: readonly ReportLine[], theoretical: readonly TheoreticalLine[]): Set<string> {
  const out = new Set<string>();
  for (const l of lines) {
    const figures = Object.values(l).filter((v): v is number => typeof v === 'number');
    const notes = Object.values(l.notes);
    if (!figures.every(fits) || notes.length > MAX_NOTE_DENOMINATIONS || !notes.every(fits)) out.add(l.terminalId);
  }
  for (const l of theoretical) if (![l.rounds, l.wagered, l.theoretical, l.actual, l.difference].every(fits)) out.add(l.terminalId);
  return out;
}

export interface GamingDayReport {
  date: string;
  from: string;
  to: string;
  startHour: number;
  lines: ReportLine[];
  /** Hold against theoretical, per table, game, profile and bet (theoretical.ts). */
  theoretical: TheoreticalLine[];
  /** The day's voids and corrections, at most MAX_TABLE_CORRECTIONS a table (corrections.ts). */
  corrections: Correction[];
  /** The tables with more voids and corrections than are listed: how many are listed, of how many. */
  correctionsCut: CorrectionsCut[];
  liability: TicketLiability;
  /**
   * The tables whose figures of the day (or tickets out at its end) are past DAY_FIGURE_BOUND: none
   * of their lines nor of their hold against theoretical is above. The liability leaves out only the
   * tables whose own tickets out are past it (liabilityAt): a table named for its day's figures has
   * its tickets in it still; the corrections list every table's.
   */
  outOfRange: string[];
}

const empty = (terminalId: string, scope: string): ReportLine => ({
  terminalId,
  scope,
  currency: null,
  notes: {},
  drop: 0,
  creditsIn: 0,
  creditsOut: 0,
  handpays: 0,
  handpaid: 0,
  handpaidWins: 0,
  jackpots: 0,
  wagered: 0,
  won: 0,
  win: 0,
  rounds: 0,
  voids: 0,
  voidRefunds: 0,
  transfersIn: 0,
  transfersOut: 0,
  aftInAmount: 0,
  aftOutAmount: 0,
  ticketsIn: 0,
  ticketDrop: 0,
  ticketsOut: 0,
  ticketsOutAmount: 0,
  ticketsVoided: 0,
});

/** Which line field a ledger meter adds to (docs/ledger.md, "Meters"). */
function add(line: ReportLine, name: string, value: number): void {
  const note = noteDenomination(name);
  if (note !== null) line.notes[note] = (line.notes[note] ?? 0) + value;
  // Rows an earlier upstream stored: a note meter no ledger writes counts for nothing.
  else if (name.startsWith('billsIn.')) return;
  else if (name === 'totalBillsIn') line.drop += value;
  else if (name === 'totalIn') line.creditsIn += value;
  else if (name === 'totalOut') line.creditsOut += value;
  else if (name === 'handpays') line.handpays += value;
  else if (name === 'handpaidCancelledCredits' || name === 'jackpotHandpays') line.handpaid += value;
  else if (name.startsWith('progressiveWins.')) line.jackpots += value;
  else if (name === 'creditsWagered') line.wagered += value;
  else if (name === 'creditsWon') line.won += value;
  else if (name === 'gamesPlayed') line.rounds += value;
  else if (name === 'voidedRounds') line.voids += value;
  else if (name === 'voidRefunds') line.voidRefunds += value;
  else if (name === 'aftInAmount') line.aftInAmount += value;
  else if (name === 'aftOutAmount') line.aftOutAmount += value;
  else if (name === 'ticketsIn') line.ticketsIn += value;
  else if (name === 'ticketsInAmount') line.ticketDrop += value;
  else if (name === 'ticketsOut') line.ticketsOut += value;
  else if (name === 'ticketsOutAmount') line.ticketsOutAmount += value;
  else if (name === 'ticketsVoided') line.ticketsVoided += value;
}

/**
 * A ticket `k` ended before `t.at` by the journal that ends it, at the entry's own time: the issuing
 * table's `ticket.void` of a ticket the register holds voided, the redeeming table's
 * `ticket.redeem.stacked` of the attempt the register approved and holds redeemed. The register's
 * `voided_at` and `redeemed_at` are when the upstream heard, which for an end its journal brought
 * (the table's word not taken, a confirm lost) is the sync, after the day: such a ticket was owed at
 * the day's end while the day's meters, by each entry's time, had it voided or taken in (a review of
 * 7 December). Another table's journal ends nothing (the register never approved its stack). One
 * row looked up by the journal's (terminal, transaction id) index.
 */
const ENDED_IN_JOURNAL_SQL = `SELECT 1 FROM journal j WHERE k.state IN ('voided', 'redeemed')
         AND j.terminal_id = CASE k.state WHEN 'voided' THEN k.terminal_id ELSE k.redeem_terminal END
         AND j.tx_id = CASE k.state WHEN 'voided' THEN 'ticket:out:' || k.validation || ':end' ELSE 'ticket:in:' || k.validation || ':stacked' END
         AND j.type = CASE k.state WHEN 'voided' THEN 'ticket.void' ELSE 'ticket.redeem.stacked' END
         AND (k.state = 'voided' OR j.doc->'payload'->>'requestId' = k.redeem_request)
         AND j.ts < t.at`;

/**
 * The ticket liability at the end of the window (or now, if sooner), from the authority's register.
 * An expired ticket counts while a redemption of it was pending at that instant: read from the
 * attempts' own times, never from the register's `pending_at`, which a return clears (a past day's
 * figure then changed with the reading's time: a review of 4 December).
 */
async function liabilityAt(sql: Sql, to: Date): Promise<TicketLiability & { outOfRange: string[] }> {
  const r = await sql.query<{ at: Date; terminal_id: string | null; currency: string | null; tickets: number; amount: string | null }>(
    `WITH t AS (SELECT LEAST($1::timestamptz, now()) AS at)
     SELECT t.at, k.terminal_id, k.currency, COUNT(k.validation)::int AS tickets, SUM(k.amount)::text AS amount
     FROM t LEFT JOIN tickets k ON k.issued_at < t.at
       AND (k.redeemed_at IS NULL OR k.redeemed_at >= t.at)
       AND (k.voided_at IS NULL OR k.voided_at >= t.at)
       AND NOT EXISTS (${ENDED_IN_JOURNAL_SQL})
       AND (k.expires_at > t.at OR EXISTS (SELECT 1 FROM ticket_redemptions r WHERE r.validation = k.validation
         AND r.outcome <> 'refused' AND r.asked_at < t.at AND (r.closed_at IS NULL OR r.closed_at >= t.at)))
     GROUP BY t.at, k.terminal_id, k.currency`,
    [to],
  );
  const at = r.rows[0]?.at ?? to;
  // Per table, summed exactly: one table's tickets past the bound are left out and named (upstream/figure-bound.ts).
  const rows = r.rows.flatMap((x) =>
    x.terminal_id !== null && x.currency !== null ? [{ ...x, terminal_id: x.terminal_id, currency: x.currency, amount: x.amount ?? '0' }] : [],
  );
  return { asOf: new Date(at).toISOString(), ...floorOutstanding(rows) };
}

/** The journal's rows as the report's queries read them: the currency in force at each entry's seq (c.code, c.exponent). */
type CurrencyRow = { terminal_id: string; code: string | null; exponent: number | null };

/**
 * The day's lines: every meter delta of every entry journalled in the day (by the entry's own
 * time), summed per table and station and the currency in force at the entry's seq (a table that
 * changed currency within the day has a line per currency), and the transfers of credit. A
 * `meter.clear` is not play and is left out; so are the meters the projection does not count (a
 * name no ledger writes, an entry of more than MAX_ENTRY_METERS: upstream/ingest/report-fields.ts).
 */
async function dayLines(sql: Sql, from: Date, to: Date): Promise<ReportLine[]> {
  const m = await sql.query<CurrencyRow & { scope: string; name: string; value: string }>(
    `SELECT j.terminal_id, c.code, c.exponent, m->>0 AS scope, m->>1 AS name, SUM(${intOf('m->2')})::text AS value
     FROM journal j ${currencyAt('j')}, jsonb_array_elements(${arrayOf("j.doc->'meters'")}) m
     WHERE j.ts >= $1 AND j.ts < $2 AND j.type <> 'meter.clear' AND ${meterFits('m')} AND ${meterScopeFits('m')}
       AND ${ledgerMeterNameSql('m')} AND ${entryMetersCountSql('j.doc')}
     GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`,
    [from, to],
  );
  const lines = new Map<string, ReportLine>();
  const line = (r: CurrencyRow, scope: string) => {
    const currency = currencyOf(r);
    const key = `${currencyKey(r.terminal_id, currency)}\u0000${scope}`;
    let l = lines.get(key);
    if (!l) lines.set(key, (l = { ...empty(r.terminal_id, scope), currency }));
    return l;
  };
  for (const r of m.rows) add(line(r, r.scope), r.name, boundedFigure(r.value));
  // Summed in SQL, exactly, per table and per station (a table's line is its own sum, not its
  // stations' added here): added entry by entry in JavaScript, out 2^53 − 1 twice and 1, both
  // reversed, made 2 where the journal says 1 (tests/security/upstream-report-sums.test.ts).
  const t = await sql.query<CurrencyRow & { station: number | null; whole: number; sent: string; came: string; reversed: string }>(
    `SELECT terminal_id, code, exponent, station, GROUPING(station)::int AS whole, SUM(amount) FILTER (WHERE type = 'transfer.in')::text AS came,
       SUM(amount) FILTER (WHERE type = 'transfer.out')::text AS sent, SUM(amount) FILTER (WHERE type = 'transfer.reverse')::text AS reversed
     FROM (SELECT j.terminal_id, c.code, c.exponent, j.type, ${stationOf("j.doc->'payload'->'transfer'->'station'")} AS station, ${intOf("j.doc->'payload'->'transfer'->'amount'")} AS amount
       FROM journal j ${currencyAt('j')} WHERE j.ts >= $1 AND j.ts < $2 AND j.type IN ('transfer.in', 'transfer.out', 'transfer.reverse')
         AND ${tableStationFits("j.doc->'payload'->'transfer'->'station'")} AND ${intOf("j.doc->'payload'->'transfer'->'amount'")} IS NOT NULL) x
     GROUP BY GROUPING SETS ((terminal_id, code, exponent), (terminal_id, code, exponent, station))`,
    [from, to],
  );
  for (const r of t.rows) {
    const l = line(r, r.whole === 1 ? 'table' : `station:${r.station}`);
    l.transfersIn = boundedFigure(r.came);
    // A reversal gives the sender's station its credit back: it never left (docs/transfers.md).
    l.transfersOut = boundedFigure(r.sent) - boundedFigure(r.reversed);
  }
  const h = await sql.query<CurrencyRow & { station: number | null; amount: number | null }>(
    `SELECT j.terminal_id, c.code, c.exponent, ${stationOf("j.doc->'payload'->'station'")} AS station, ${intOf("j.doc->'payload'->'amount'")} AS amount
     FROM journal j ${currencyAt('j')} WHERE j.ts >= $1 AND j.ts < $2 AND j.type = 'handpay.request' AND ${handpayFits("j.doc->'payload'")}`,
    [from, to],
  );
  for (const r of h.rows) for (const l of [line(r, 'table'), line(r, `station:${r.station}`)]) l.handpaidWins += Number(r.amount ?? 0);
  // The round payouts paid by hand are the house's loss as much as the credit won (the reviewer's finding of 1 December).
  for (const l of lines.values()) l.win = l.wagered - l.won - l.voidRefunds - l.handpaidWins;
  const order = (s: string) => (s === 'table' ? -1 : Number(/^station:(\d+)$/.exec(s)?.[1] ?? Number.MAX_SAFE_INTEGER));
  return [...lines.values()].sort(
    (a, b) => a.terminalId.localeCompare(b.terminalId) || order(a.scope) - order(b.scope) || currencyOrder(a.currency, b.currency),
  );
}

/** The day's voids and dealing errors, in the table's order. */
const CORRECTIONS_SQL = `SELECT j.terminal_id, j.seq, j.ts, j.type, j.doc->'payload' AS payload, j.doc->'payload'->>'roundId' AS round_id FROM journal j
   WHERE j.ts >= $1 AND j.ts < $2 AND (j.type = 'round.void' OR (j.type = 'misread' AND j.doc->'payload'->>'resolution' IN ('corrected', 'round-void')))
   ORDER BY j.terminal_id, j.seq`;

/**
 * The rounds of the day's holds lifted by a "void" (misreads resolved `round-void`) that a
 * `round.void` of the same table ended, any day. Each distinct round is looked up once, and the
 * rows matched in the report's code, not joined here: looked up per misread, one round id on N
 * entries (a table restarted, one whose key leaked) had every misread walk the round index's N
 * entries, N² (6,000 took the report 20 s: tests/security/upstream-report-round-reuse.test.ts),
 * and a join the planner reads without statistics is a nested loop all the same.
 */
const VOIDED_ROUNDS_SQL = `WITH r AS MATERIALIZED (SELECT DISTINCT j.terminal_id, j.doc->'payload'->>'roundId' AS round_id FROM journal j
       WHERE j.ts >= $1 AND j.ts < $2 AND j.type = 'misread' AND j.doc->'payload'->>'resolution' = 'round-void'
         AND j.doc->'payload'->>'roundId' IS NOT NULL)
   SELECT r.terminal_id, r.round_id FROM r WHERE EXISTS (SELECT 1 FROM journal v WHERE v.doc->'payload'->>'roundId' = r.round_id
     AND v.terminal_id = r.terminal_id AND v.type = 'round.void')`;

/** The day's voids and corrections (corrections.ts), each misread with whether its round was voided. */
async function dayCorrections(sql: Sql, from: Date, to: Date): Promise<Correction[]> {
  const c = await sql.query<Omit<CorrectionRow, 'voided'> & { round_id: string | null }>(CORRECTIONS_SQL, [from, to]);
  const v = await sql.query<{ terminal_id: string; round_id: string }>(VOIDED_ROUNDS_SQL, [from, to]);
  const key = (terminal: string, round: string) => `${terminal}\u0000${round}`;
  const voided = new Set(v.rows.map((r) => key(r.terminal_id, r.round_id)));
  return correctionsOf(
    c.rows.map(({ round_id, ...r }) => ({ ...r, voided: r.type === 'misread' && round_id !== null && voided.has(key(r.terminal_id, round_id)) })),
  );
}

/**
 * The gaming day's report from the journal: its lines (dayLines), so a day's figures are the
 * ledgers' meters moved in that day, to the avo, each in the currency it was journalled in; hold
 * against theoretical, the corrections and the ticket liability.
 */
export async function gamingDayReport(sql: Sql, date: string, window: GamingDayWindow): Promise<GamingDayReport> {
  const { from, to, startHour } = window;
  const { corrections, cut: correctionsCut } = listedCorrections(await dayCorrections(sql, from, to));
  const lines = await dayLines(sql, from, to);
  const theoretical = await theoreticalLines(sql, from, to);
  const { outOfRange: ticketsOutOfRange, ...liability } = await liabilityAt(sql, to);
  const outOfRange = new Set([...pastBound(lines, theoretical), ...ticketsOutOfRange]);
  return {
    date,
    from: from.toISOString(),
    to: to.toISOString(),
    startHour,
    lines: lines.filter((l) => !outOfRange.has(l.terminalId)),
    theoretical: theoretical.filter((l) => !outOfRange.has(l.terminalId)),
    outOfRange: [...outOfRange].sort(),
    corrections,
    correctionsCut,
    liability,
  };
}
