import type Database from 'better-sqlite3';
import { parsePayload } from './entries.js';
import { roundEntryOfRow, roundRecord, stationsOfRecord, type ClosingEntry, type RoundRecord } from '../terms/round-record.js';

// The kiosk's recall projection (the `rounds`, `round_stations` and `round_bets` tables), written
// from the journal by the one builder of a round's record (terms/round-record.ts).

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
