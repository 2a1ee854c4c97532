import type Database from 'better-sqlite3';

// The AFT transfers' index (migration 10, the `aft_transfers` table): per `aft.in`/`aft.out`
// entry, its station, its place among the station's transfers (1 for the first) and the
// cumulative amount of its direction after it, written in the entry's own transaction. The casino
// system's interrogation (0x72 FE/FF, ledger/aft-queries.ts) reads a transfer's position and
// cumulative from its row: a lookup by (station, seq) or (station, ordinal), never a count or a
// sum over the journal, which made each interrogation cost the whole journal (a review: 127 rows ×
// every AFT entry, ~2 s at 10,000 entries, in the port's data handler).

/** Migration 10's table, as it made it. */
export const CREATE_AFT_TRANSFERS = `
  CREATE TABLE aft_transfers (
    seq INTEGER PRIMARY KEY REFERENCES journal(seq),
    station INTEGER NOT NULL,
    direction TEXT NOT NULL CHECK (direction IN ('aft.in', 'aft.out')),
    ordinal INTEGER NOT NULL CHECK (ordinal >= 1),
    cumulative INTEGER NOT NULL,
    UNIQUE (station, ordinal)
  ) STRICT;
  CREATE INDEX aft_transfers_station ON aft_transfers(station, seq);
`;

/** The rows as the journal alone gives them, in one pass (migration 10's backfill, verification's check). */
const RECOMPUTED = `
  SELECT seq, station, direction,
         ROW_NUMBER() OVER (PARTITION BY station ORDER BY seq) AS ordinal,
         SUM(amount) OVER (PARTITION BY station, direction ORDER BY seq) AS cumulative
    FROM (SELECT seq, type AS direction, json_extract(body, '$.payload.station') AS station,
                 json_extract(body, '$.payload.amount') AS amount
            FROM journal WHERE type IN ('aft.in', 'aft.out'))`;

const statements = new WeakMap<Database.Database, { last: Database.Statement; insert: Database.Statement }>();
function stmts(db: Database.Database): { last: Database.Statement; insert: Database.Statement } {
  let s = statements.get(db);
  if (!s) {
    s = {
      last: db.prepare(
        `SELECT (SELECT ordinal FROM aft_transfers WHERE station = @station ORDER BY seq DESC LIMIT 1) AS ordinal,
                (SELECT cumulative FROM aft_transfers WHERE station = @station AND direction = @direction ORDER BY seq DESC LIMIT 1) AS cumulative`,
      ),
      insert: db.prepare('INSERT INTO aft_transfers (seq, station, direction, ordinal, cumulative) VALUES (?, ?, ?, ?, ?)'),
    };
    statements.set(db, s);
  }
  return s;
}

/** The row of a transfer just journalled at `seq` (inside its append's transaction). */
export function projectAftTransfer(db: Database.Database, seq: number, direction: 'aft.in' | 'aft.out', station: number, amount: number): void {
  const s = stmts(db);
  // The newest row of the station (and of its direction): the index on (station, seq) walked from its end.
  const last = s.last.get({ station, direction }) as { ordinal: number | null; cumulative: number | null };
  s.insert.run(seq, station, direction, (last.ordinal ?? 0) + 1, (last.cumulative ?? 0) + amount);
}

/** Migration 10: the rows of a journal written before it. */
export function rebuildAftTransfers(db: Database.Database): void {
  db.exec(`INSERT INTO aft_transfers (seq, station, direction, ordinal, cumulative) ${RECOMPUTED}`);
}

/**
 * Rows that differ from what the journal gives (stored and not given, or given and not stored), at
 * most a few named. `after`: from a checkpoint, the rows of the entries after it only, each against
 * the stored row before it (its station's previous place, its direction's previous cumulative: two
 * lookups in the index), so a start's verification costs the entries since the checkpoint, not
 * every AFT entry; null: every row recomputed from the journal in one pass.
 */
export function aftTransfersProblems(db: Database.Database, after: number | null): string[] {
  const cols = 'seq, station, direction, ordinal, cumulative';
  const given = after === null ? RECOMPUTED : STEPPED;
  const stored = `SELECT ${cols} FROM aft_transfers WHERE seq > @after`;
  const extra = db
    .prepare(`SELECT seq FROM (${stored} EXCEPT ${given}) LIMIT 3`)
    .pluck()
    .all({ after: after ?? 0 }) as number[];
  const missing = db
    .prepare(`SELECT seq FROM (${given} EXCEPT ${stored}) LIMIT 3`)
    .pluck()
    .all({ after: after ?? 0 }) as number[];
  const problems: string[] = [];
  if (extra.length) problems.push(`aft transfers: stored rows the journal does not give (entries ${extra.join(', ')})`);
  if (missing.length) problems.push(`aft transfers: rows the journal gives are not stored (entries ${missing.join(', ')})`);
  return problems;
}

/** The rows of the AFT entries after `@after`, each from the stored row before it. */
const STEPPED = `
  SELECT seq, station, direction,
         1 + COALESCE((SELECT p.ordinal FROM aft_transfers AS p WHERE p.station = e.station AND p.seq < e.seq ORDER BY p.seq DESC LIMIT 1), 0) AS ordinal,
         amount + COALESCE((SELECT p.cumulative FROM aft_transfers AS p WHERE p.station = e.station AND p.direction = e.direction AND p.seq < e.seq
                            ORDER BY p.seq DESC LIMIT 1), 0) AS cumulative
    FROM (SELECT seq, type AS direction, json_extract(body, '$.payload.station') AS station,
                 json_extract(body, '$.payload.amount') AS amount
            FROM journal WHERE type IN ('aft.in', 'aft.out') AND seq > @after) AS e`;
