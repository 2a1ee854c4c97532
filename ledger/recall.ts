import type Database from 'better-sqlite3';
import { parsePayload, type Payload } from './entries.js';

/** A round as game recall shows it: cards in dealing order, decisions, bets, lines, credits. */
export interface RoundRecord {
  roundId: string;
  tableId: string;
  game: string;
  profile: string;
  shoeId?: string;
  startedAt?: string;
  status: 'settled' | 'void';
  /** The sequence and time of the settling (or voiding) entry. */
  seq: number;
  ts: string;
  tzOffsetMin: number;
  cards: { card: string; to: string }[];
  decisions: { seat: number; hand?: number; station?: number; action: string; auto?: boolean; notFollowing?: string[] }[];
  bets: { station: number; seat: number; bet: string; amount: number; seq: number }[];
  lines: {
    station: number;
    seat: number;
    bet: string;
    hand?: number;
    stake: number;
    net: number;
    rule: string;
    /** The non-default choices the line was settled under, and their authorisation reference. */
    choices?: string[];
    authorisation?: string;
    /** A winning-streak stake wagered in an earlier round and held until this one. */
    carried?: true;
  }[];
  /** Stakes of this round held open past it (winning streaks). */
  held?: { station: number; seat: number; bet: string; amount: number }[];
  /** How the round moved each seat's winning-streak marker. */
  streaks?: { station: number; seat: number; before: StreakRecord | null; after: StreakRecord | null }[];
  /** Each station's credit before its first bet of the round and after settlement. */
  credits: { station: number; before: number; after: number }[];
  reason?: string;
  authorisedBy?: string[];
  /** A void: why no correction was possible, and the article that cancels such a round. */
  uncorrectable?: string;
  voidRule?: string;
  /** Dealing errors corrected in the round (a `misread` resolved `corrected`), each with its article and the two people. */
  corrections?: { correction: string; article: string; card?: string; confirmedBy: string[]; seq: number }[];
  /** Every journal entry of this round (bets, misreads, the settlement), in order. */
  entrySeqs: number[];
}

/** A winning-streak marker as recorded: rounds won in a row, and the levels still open. */
export interface StreakRecord {
  wins: number;
  open: { bet: string; amount: number }[];
}

// Statements prepared once per connection: verification replays every round through these.
const statements = new WeakMap<Database.Database, Map<string, Database.Statement>>();
function stmt(db: Database.Database, sql: string): Database.Statement {
  let m = statements.get(db);
  if (!m) statements.set(db, (m = new Map()));
  let s = m.get(sql);
  if (!s) m.set(sql, (s = db.prepare(sql)));
  return s;
}

interface Row {
  seq: number;
  ts: string;
  tz_offset_min: number;
  type: string;
  body: string;
}

interface Body {
  payload: Record<string, unknown>;
  credits?: [number, number, number][];
}

/** An entry of a round as its record needs it: its seq, the bets when it placed some, the correction when it made one. */
export interface RoundEntry {
  seq: number;
  bet?: { station: number; bets: readonly { seat: number; bet: string; amount: number }[] };
  correction?: Omit<NonNullable<RoundRecord['corrections']>[number], 'seq'>;
}

/** The entry that closes a round, its payload read through its schema. */
export type ClosingEntry = { seq: number; ts: string; tzOffsetMin: number; credits: readonly (readonly [number, number, number])[] } & (
  { type: 'round.settle'; payload: Payload<'round.settle'> } | { type: 'round.void'; payload: Payload<'round.void'> }
);

/**
 * A round's record from the entry that closes it and every entry of the round up to it (that
 * one included), in order. The one builder of records: the live append and migration 3 write it
 * (`projectRound`), verification's replay compares it with the stored row.
 */
export function roundRecord(closing: ClosingEntry, entries: readonly RoundEntry[]): RoundRecord {
  const p =
    closing.type === 'round.settle'
      ? { ...closing.payload, reason: undefined, authorisedBy: undefined, uncorrectable: undefined, rule: undefined }
      : { ...closing.payload, lines: undefined, held: undefined, streaks: undefined };
  const bets: RoundRecord['bets'] = [];
  const corrections: NonNullable<RoundRecord['corrections']> = [];
  for (const e of entries) {
    if (e.correction) corrections.push({ ...e.correction, seq: e.seq });
    if (!e.bet) continue;
    for (const l of e.bet.bets) bets.push({ station: e.bet.station, seat: l.seat, bet: l.bet, amount: l.amount, seq: e.seq });
  }
  return {
    roundId: p.roundId,
    tableId: p.tableId,
    game: p.game,
    profile: p.profile,
    ...(p.shoeId !== undefined ? { shoeId: p.shoeId } : {}),
    ...(p.startedAt !== undefined ? { startedAt: p.startedAt } : {}),
    status: closing.type === 'round.settle' ? 'settled' : 'void',
    seq: closing.seq,
    ts: closing.ts,
    tzOffsetMin: closing.tzOffsetMin,
    cards: [...p.cards],
    decisions: p.decisions.map(({ notFollowing, ...d }) => (notFollowing ? { ...d, notFollowing: [...notFollowing] } : d)),
    bets,
    lines: (p.lines ?? []).map(({ choices, ...l }) => (choices ? { ...l, choices: [...choices] } : l)),
    credits: closing.credits.map(([station, before, after]) => ({ station, before, after })),
    ...(p.held !== undefined ? { held: p.held.map((h) => ({ ...h })) } : {}),
    ...(p.streaks !== undefined
      ? {
          streaks: p.streaks.map((m) => ({
            station: m.station,
            seat: m.seat,
            before: m.before && { wins: m.before.wins, open: m.before.open.map((o) => ({ ...o })) },
            after: m.after && { wins: m.after.wins, open: m.after.open.map((o) => ({ ...o })) },
          })),
        }
      : {}),
    ...(p.reason !== undefined ? { reason: p.reason } : {}),
    ...(p.authorisedBy !== undefined ? { authorisedBy: [...p.authorisedBy] } : {}),
    ...(p.uncorrectable !== undefined ? { uncorrectable: p.uncorrectable } : {}),
    ...(p.rule !== undefined ? { voidRule: p.rule } : {}),
    ...(corrections.length > 0 ? { corrections } : {}),
    entrySeqs: entries.map((e) => e.seq),
  };
}

/** A dealing error corrected at a hold (a `misread` resolved `corrected`), for its round's record. */
export function correctionOfMisread(payload: unknown): RoundEntry['correction'] {
  const m = parsePayload('misread', payload);
  if (m.resolution !== 'corrected' || !m.correction || !m.article) return undefined;
  return { correction: m.correction, article: m.article, ...(m.card ? { card: m.card } : {}), confirmedBy: [...(m.confirmedBy ?? [])] };
}

/** A journal row of a round as its record needs it. */
export function roundEntryOfRow(r: { seq: number; type: string; body: string }): RoundEntry {
  if (r.type === 'bet.place') return { seq: r.seq, bet: betOfBody(r.body) };
  if (r.type === 'misread') {
    const correction = correctionOfMisread((JSON.parse(r.body) as Body).payload);
    if (correction) return { seq: r.seq, correction };
  }
  return { seq: r.seq };
}

/** The bets of a `bet.place` body, for its round's record. */
export function betOfBody(body: string): RoundEntry['bet'] {
  const b = (JSON.parse(body) as Body).payload as { station: number; bets: { seat: number; bet: string; amount: number }[] };
  return { station: b.station, bets: b.bets };
}

/**
 * Writes the recall rows of the settling/voiding entry `seq` from the journal alone, so the
 * same code serves live appends and migration 3.
 */
export function projectRound(db: Database.Database, seq: number): RoundRecord {
  const closing = stmt(db, 'SELECT seq, ts, tz_offset_min, type, body FROM journal WHERE seq = ?').get(seq) as Row | undefined;
  if (!closing || (closing.type !== 'round.settle' && closing.type !== 'round.void')) {
    throw new Error(`entry ${seq} does not close a round`);
  }
  const body = JSON.parse(closing.body) as Body;
  const head = { seq, ts: closing.ts, tzOffsetMin: closing.tz_offset_min, credits: body.credits ?? [] };
  // Read through the entry's own schema (it was validated so when appended), never cast.
  const close: ClosingEntry =
    closing.type === 'round.settle'
      ? { ...head, type: 'round.settle', payload: parsePayload('round.settle', body.payload) }
      : { ...head, type: 'round.void', payload: parsePayload('round.void', body.payload) };
  const rows = stmt(db, 'SELECT seq, ts, tz_offset_min, type, body FROM journal WHERE round_id = ? AND seq <= ? ORDER BY seq').all(
    close.payload.roundId,
    seq,
  ) as Row[];
  const record = roundRecord(
    close,
    rows.map((r) => roundEntryOfRow(r)),
  );
  stmt(db, 'INSERT INTO rounds (round_id, table_id, status, seq, ts, record) VALUES (?, ?, ?, ?, ?, ?)').run(
    record.roundId,
    record.tableId,
    record.status,
    seq,
    record.ts,
    JSON.stringify(record),
  );
  const ins = stmt(db, 'INSERT INTO round_stations (round_id, station, seq) VALUES (?, ?, ?)');
  for (const s of stationsOfRecord(record)) ins.run(record.roundId, s, seq);
  stmt(db, 'DELETE FROM round_bets WHERE round_id = ?').run(record.roundId);
  return record;
}

/** The stations a recorded round shows in recall: those that bet or were paid in it. */
export function stationsOfRecord(record: Pick<RoundRecord, 'bets' | 'lines'>): Set<number> {
  return new Set<number>([...record.bets.map((b) => b.station), ...record.lines.map((l) => l.station)]);
}

/** Records an open round's bet (the bets not yet settled) with the station's credit before it. */
export function projectBet(db: Database.Database, seq: number, roundId: string, station: number, amount: number, creditBefore: number): void {
  stmt(db, 'INSERT INTO round_bets (round_id, station, seq, amount, credit_before) VALUES (?, ?, ?, ?, ?)').run(roundId, station, seq, amount, creditBefore);
}

/** Rebuilds every recall row from the journal (migration 3; verification on a scratch copy). */
export function rebuildRecall(db: Database.Database): void {
  const rows = db
    .prepare(
      `SELECT seq, type, round_id, body FROM journal
    WHERE type IN ('bet.place', 'round.settle', 'round.void') ORDER BY seq`,
    )
    .all() as { seq: number; type: string; round_id: string; body: string }[];
  for (const r of rows) {
    if (r.type === 'bet.place') {
      const b = JSON.parse(r.body) as Body & { payload: { station: number; bets: { amount: number }[] } };
      const before = b.credits?.[0]?.[1] ?? 0;
      projectBet(
        db,
        r.seq,
        r.round_id,
        b.payload.station,
        b.payload.bets.reduce((a, x) => a + x.amount, 0),
        before,
      );
    } else {
      projectRound(db, r.seq);
    }
  }
}

/**
 * A round's record with the entries journalled under its id after the entry that closed it: a
 * hold in its results and its correction (a card the dealer drew after standing: Macau 2009 Art. 6
 * 1), Portugal rule 19). The stored row is the record at its close (verification recomputes it so);
 * recall and the evidence bundle read it with these added, so the late correction shows in both.
 */
export function withLateEntries(record: RoundRecord, late: readonly RoundEntry[]): RoundRecord {
  if (late.length === 0) return record;
  const corrections = [...(record.corrections ?? []), ...late.flatMap((e) => (e.correction ? [{ ...e.correction, seq: e.seq }] : []))];
  return { ...record, ...(corrections.length > 0 ? { corrections } : {}), entrySeqs: [...record.entrySeqs, ...late.map((e) => e.seq)] };
}

export function parseRecord(text: string): RoundRecord {
  return JSON.parse(text) as RoundRecord;
}
