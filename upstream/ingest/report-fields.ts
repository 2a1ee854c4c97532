// The fields of an entry that the upstream reads back as numbers (its reports, plots and
// projections cast them in SQL: upstream/backoffice/gaming-day.ts, theoretical.ts, plots.ts; the
// floor keeps each station's credit: upstream/backoffice/floor.ts), each
// checked at ingest to be what an honest table's ledger writes. Nothing else of the body is held to
// a schema here: a newer table's new fields and entry types are stored as they come. One body that
// does not fit used to be stored, and its cast then failed every report of its gaming day, for
// every table, for good (the journal is append-only).
import { z } from 'zod';
import { ROUND_GAMES } from '../../terms/round-terms.js';
import { isTableStation, MAX_REMOTE_STATIONS, MAX_TABLE_STATIONS, MeterScope, REMOTE_STATION_BASE } from '../../terms/stations.js';

/**
 * The bets a journal's bet lines and settlement lines name: the engine's LINE_BETS
 * (engine/table/vocabulary.ts; the upstream imports none of the engine, and
 * tests/security/backoffice-report-cost.test.ts holds the two lists equal).
 */
export const LINE_BET_NAMES = [
  ...['main', 'anyPair', 'perfectPairs', 'sevens', 'over13', 'under13', 'jackpot', 'streak2', 'streak3', 'streak4', 'streak5'],
  ...['banker', 'player', 'tie', 'playerPair', 'bankerPair', 'lucky6', 'behind', 'insurance', 'double', 'split', 'bonus678'],
] as const;

const safe = z.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);
const name = z.string().min(1).max(128);

/**
 * The scopes a ledger writes its meters on (ledger/derive.ts): the table's and a station's a table
 * may have (`MeterScope`, terms/stations.ts, the ledger's own check). The report has a line per
 * table, scope and currency: any scope name, any number of them, made 7 entries of 25,000 scopes a
 * report of 175,001 lines, 62 MB (a review's F4).
 */
export const isMeterScope = (scope: string): boolean => MeterScope.safeParse(scope).success;

/** The highest station a table has, as terms/stations.ts holds it. */
export const MAX_METER_STATION = REMOTE_STATION_BASE + MAX_REMOTE_STATIONS;

/**
 * Of a meter's name: whether it is not a note's (`billsIn.N`), or N is a denomination as a ledger
 * writes it (a positive safe integer, no leading zero: ledger/derive.ts). The report reads N as the
 * note's value and the CSV writes it as money: `billsIn.99999999999999999999` stored made every
 * table's CSV of the day throw, and `billsIn.007` a column of its own (a review of 4 December).
 */
const isNoteDenominationOrOther = (meter: string): boolean => !meter.startsWith('billsIn.') || noteDenomination(meter) !== null;

/** The denomination a `billsIn.N` meter counts (null: not such a meter, or N no ledger's denomination). */
export function noteDenomination(meter: string): string | null {
  const n = /^billsIn\.([1-9][0-9]{0,15})$/.exec(meter)?.[1];
  return n !== undefined && Number.isSafeInteger(Number(n)) ? n : null;
}

/**
 * The most meter deltas one entry may carry for any of them to count. The most a ledger writes in
 * one entry is a settlement of every station a table may have (ledger/derive.ts: each station's
 * creditsWon, with the table's, its gamesPlayed and one of gamesWon, gamesLost, gamesTied, and the
 * table's gamesPlayed: 4 × 2,007 + 1 = 8,029), or a `meter.clear` of a scope's meters (fewer).
 * The ingest took any count: an entry of 60,000 deltas was 60,000 rows every report of its day grouped.
 */
export const MAX_ENTRY_METERS = 8_192;

/** The meters a ledger writes (ledger/derive.ts, ledger/ticket-postings.ts), besides `billsIn.N` and the per-level ones. */
export const LEDGER_METER_NAMES = [
  ...['totalBillsIn', 'totalIn', 'totalOut', 'creditsWagered', 'creditsWon', 'gamesPlayed', 'gamesWon', 'gamesLost', 'gamesTied'],
  ...['voidedRounds', 'voidRefunds', 'misreads', 'doorOpens', 'powerResets', 'configChanges', 'cancelledCredits'],
  ...['handpays', 'handpaidCancelledCredits', 'jackpotHandpays', 'aftIn', 'aftOut', 'aftInAmount', 'aftOutAmount'],
  ...['ticketsIn', 'ticketsInAmount', 'ticketsOut', 'ticketsOutAmount', 'ticketsVoided'],
] as const;

/** The most note denominations a table's meters projection holds (upstream/ingest/meter-kinds.ts); the gaming day's line holds as many (MAX_NOTE_DENOMINATIONS). */
export const MAX_METER_NOTES = 64;
/** The most progressive levels a table's meters projection holds (meter-kinds.ts): a round's jackpot has at most 4. */
export const MAX_METER_LEVELS = 16;

/** The meters a ledger keeps per progressive level, `<name>.<level>` (the level as ledger/entries.ts takes it). */
export const LEVEL_METER_NAMES = [
  ...['progressiveContributions', 'progressiveHits', 'progressiveWins', 'progressiveSeeds', 'progressiveRounding', 'progressiveResets'],
] as const;
const LEVEL_ID = '[a-z][a-z0-9-]{0,23}';
const KNOWN = new Set<string>(LEDGER_METER_NAMES);
const PER_LEVEL = new RegExp(`^(${LEVEL_METER_NAMES.join('|')})\\.${LEVEL_ID}$`);

/**
 * Whether a ledger writes a meter of this name: the ingest stores an entry whatever meter names it
 * carries (a newer table's are stored as they come), but projects and reports only these: each
 * unknown name was a row of the meters projection for good, answered whole by
 * GET /v1/terminals/:id/meters (an 8 MB batch carries some 300,000 names).
 */
export const isLedgerMeterName = (meter: string): boolean => KNOWN.has(meter) || noteDenomination(meter) !== null || PER_LEVEL.test(meter);

/** The same in SQL, of a meter triple `m` (held equal to isLedgerMeterName by tests/security/upstream-meter-names.test.ts). */
export const ledgerMeterNameSql = (m: string): string =>
  `(${m}->>1 IN (${LEDGER_METER_NAMES.map((n) => `'${n}'`).join(', ')}) OR ${m}->>1 ~ '^billsIn[.][1-9][0-9]{0,15}$' OR ${m}->>1 ~ '^(${LEVEL_METER_NAMES.join('|')})[.]${LEVEL_ID}$')`;

/** Of an entry's jsonb document: whether its meters are few enough to count (MAX_ENTRY_METERS). */
export const entryMetersCountSql = (doc: string): string =>
  `(jsonb_typeof(${doc}->'meters') <> 'array' OR jsonb_array_length(${doc}->'meters') <= ${MAX_ENTRY_METERS})`;

/** Each meter delta as the ledger derives it (ledger/entries.ts, MeterDelta): scope, name, a safe integer. */
const Meters = z.array(z.tuple([name.refine(isMeterScope), name.refine(isNoteDenominationOrOther), safe]));

/**
 * An entry's credits as the ledger derives them (ledger/derive.ts): [station, credit before, credit
 * after] for each station the entry moves, so never more triples than a table has stations; a
 * station one a table may have, a credit whole minor units never below zero. The floor keeps each
 * station's last credit (upstream/backoffice/floor.ts): unchecked, 60,000 fractional "stations" an
 * entry grew its memory without end. Counted before each triple is read.
 */
function creditsFit(credits: unknown): boolean {
  if (!Array.isArray(credits) || credits.length > MAX_TABLE_STATIONS) return false;
  return credits.every((c) => isCreditTriple(c));
}

/** One [station, before, after] a ledger writes (the floor reads only these of rows stored before this check). */
export function isCreditTriple(c: unknown): c is [number, number, number] {
  return Array.isArray(c) && c.length === 3 && isTableStation(c[0]) && isCredit(c[1]) && isCredit(c[2]);
}

const isCredit = (n: unknown): boolean => Number.isSafeInteger(n) && (n as number) >= 0;

/**
 * A transfer's station and amount (terms/transfer-terms.ts): the gaming day's transfers in and out.
 * The station one a table may have, as its credits' (a ledger's transfer moves that station's
 * credit): the report has a line per station, and 1–9999 let one table add ~8,000 (a review of 6 December).
 */
const TransferFigures = z.object({ transfer: z.object({ station: z.number().int().refine(isTableStation), amount: safe.min(0) }) });

const bet = z.enum(LINE_BET_NAMES);

/**
 * A bet's name and amount (bet.place): the theoretical win's wagers. At most 32 bets, as the
 * ledger journals them (terms/round-terms.ts), each on a bet the games have: any number of any
 * names made a report line per name and a plot's work per bet (two bet.place of 25,000 names froze
 * the upstream for 23 s on one day's plots, a review's F1).
 */
const BetFigures = z.object({ bets: z.array(z.object({ bet, amount: safe.min(0) })).max(32) });

/**
 * A settlement's game, profile and each line's bet and net (round.settle): the actual win beside the
 * theoretical, by the game and profile's edges. At most 8,192 lines, as the ledger journals them (a
 * stadium's round: terms/round-terms.ts).
 */
const SettleFigures = z.object({ game: z.enum(ROUND_GAMES), profile: name, lines: z.array(z.object({ bet, net: safe })).max(8192) });

/**
 * A hand pay's station and amount (handpay.request, ledger/entries.ts): the report subtracts the
 * amount from the win, and has a line for the station (a review of 4 December: unchecked, a
 * negative amount raised the win, station 7777 had a line, and one past 2^53 failed the page). Its
 * station one a table may have, as a transfer's: 8–100 are no table's (a second review of 6 December).
 */
const HandpayFigures = z.object({ station: z.number().int().refine(isTableStation), amount: safe.min(1) });

// A Map, not an object: a type is the table's word, and `toString` is no entry type (found by the ingest fuzz).
const PAYLOAD_FIGURES = new Map<string, z.ZodType>([
  ['transfer.in', TransferFigures],
  ['transfer.out', TransferFigures],
  ['transfer.reverse', TransferFigures],
  ['bet.place', BetFigures],
  ['round.settle', SettleFigures],
  ['handpay.request', HandpayFigures],
]);

/** Why the body's figures cannot be read back, in words; null when they can. */
export function reportFieldsProblem(body: { type: string; payload?: unknown; meters?: unknown; credits?: unknown }): string | null {
  // Every ledger's payload is an object; the reports read its fields (a void's round, a misread's resolution).
  if (body.payload !== undefined && (body.payload === null || typeof body.payload !== 'object' || Array.isArray(body.payload)))
    return 'its payload is not an object';
  if (body.meters !== undefined && !Meters.safeParse(body.meters).success) return 'its meters are not [scope, name, integer] triples';
  if (body.credits !== undefined && !creditsFit(body.credits))
    return `its credits are not [station, before, after] triples of a table's stations (at most ${MAX_TABLE_STATIONS}, credits whole and never below zero)`;
  const figures = PAYLOAD_FIGURES.get(body.type);
  const r = figures?.safeParse(body.payload);
  if (r && !r.success) return `its ${body.type} figures are not what a ledger writes (${r.error.issues[0]?.path.join('.') || 'payload'})`;
  return null;
}
