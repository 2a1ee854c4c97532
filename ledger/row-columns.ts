import type Database from 'better-sqlite3';
import { ROUND_TYPES } from './derive.js';

/**
 * The journal's columns that no hash covers (seq, type, tx_id, ts, tz_offset_min, round_id) against
 * the body they are derived from, for the entries up to `upTo`: one scan in SQLite, no replay. The
 * replay checks the same for the entries after a checkpoint; this covers those before it, so that a
 * `round_id` moved (recall and evidence read it) is refused by `ledger verify` from the checkpoint as
 * by `--full` (issue 29: the two differ only in how far back they replay, never in what they refuse).
 */
export function rowColumnProblems(db: Database.Database, upTo: number): string[] {
  const rows = db
    .prepare(
      `SELECT seq FROM journal WHERE seq <= @upTo AND (
        json_extract(body, '$.seq') IS NOT seq
        OR json_extract(body, '$.type') IS NOT type
        OR json_extract(body, '$.txId') IS NOT tx_id
        OR json_extract(body, '$.ts') IS NOT ts
        OR json_extract(body, '$.tzOffsetMin') IS NOT tz_offset_min
        OR (CASE WHEN type IN (SELECT value FROM json_each(@roundTypes)) AND json_type(body, '$.payload.roundId') = 'text'
            THEN json_extract(body, '$.payload.roundId') END) IS NOT round_id
      ) ORDER BY seq LIMIT 100`,
    )
    .pluck();
  try {
    const bad = rows.all({ upTo, roundTypes: JSON.stringify([...ROUND_TYPES]) }) as number[];
    return bad.map((seq) => `seq ${seq}: a column (type, tx_id, ts, tz_offset_min or round_id) disagrees with its body`);
  } catch (err) {
    return [`journal up to ${upTo}: a body is not JSON (${err instanceof Error ? err.message : String(err)})`];
  }
}
