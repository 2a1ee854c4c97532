// Entries whose own time cannot be right (a review's finding M1). A signed request must be within
// the skew of this clock (server.ts, maxSkewMs), but an entry's `ts` is the table's clock when it
// was journalled, and nothing read it against anything: a table whose clock was behind while it
// was offline, or one that lies, synced entries dated inside a gaming day already reported complete,
// and the day's figures changed with no word. A heartbeat saying nothing was unsent at H means every
// entry the table had journalled by H was already here; an entry that arrives after it dated before
// H by more than the skew is a clock's error or a lie, and exactly the kind that changes a complete
// day. So is one dated ahead of its receipt by more than the skew. Such entries are stored all the
// same (the chain is the table's: refusing one would stop its sync for good), kept apart here and
// alarmed. A table of their own rather than the alarms' detail: an alarm folds repeats and keeps only
// the first few (alarm.ts), a technician may acknowledge it, and its JSON is no contract; the report
// must count every such entry of a day, by its date, for as long as the journal is kept.
import { raiseRepeatableAlarm } from '../alarm.js';
import type { Sql } from '../sql.js';

/**
 * Migration 17: `terminals.caught_up_at`, when the table's last heartbeat saying nothing was unsent
 * came (`last_health_at` moves with every heartbeat, one saying 500 were unsent too), filled from the
 * last heartbeat where it said so; and the misdated entries, each once, with what it was read against.
 * Entries stored before 17 are not assessed: the heartbeats they came after were not kept.
 */
export const MISDATED_ENTRIES_SQL = `
  ALTER TABLE terminals ADD COLUMN caught_up_at timestamptz;
  UPDATE terminals SET caught_up_at = last_health_at WHERE last_health->'sync'->'lagEntries' = '0'::jsonb;
  CREATE TABLE misdated_entries (
    terminal_id text NOT NULL,
    seq bigint NOT NULL,
    kind text NOT NULL CHECK (kind IN ('backdated', 'ahead')),
    ts timestamptz NOT NULL,
    received_at timestamptz NOT NULL,
    caught_up_at timestamptz,
    PRIMARY KEY (terminal_id, seq),
    FOREIGN KEY (terminal_id, seq) REFERENCES journal
  );
  CREATE INDEX misdated_entries_ts ON misdated_entries (ts);
`;

/** The skew a signed request may have (server.ts, maxSkewMs): an honest table's clock is within it of this one. */
export const ENTRY_SKEW_MS = 5 * 60_000;

/** How many of a batch's misdated seqs its alarm names (the table above holds every one). */
const SEQS_NAMED = 20;

/**
 * Keeps the batch's new entries (`from`…`to`, just stored in this transaction) dated before the
 * table's last nothing-unsent heartbeat, or ahead of their receipt, by more than `skewMs`; and raises
 * one alarm for them, which a table sending such batches in a loop folds into (alarm.ts).
 */
export async function noteMisdated(tx: Sql, terminal: string, from: number, to: number, skewMs: number): Promise<void> {
  const r = await tx.query<{ seq: number | string; kind: string; ts: Date; caught_up_at: Date | null }>(
    `INSERT INTO misdated_entries (terminal_id, seq, kind, ts, received_at, caught_up_at)
     SELECT j.terminal_id, j.seq, CASE WHEN j.ts > j.received_at + s.skew THEN 'ahead' ELSE 'backdated' END, j.ts, j.received_at, t.caught_up_at
     FROM journal j JOIN terminals t USING (terminal_id), (SELECT make_interval(secs => $4) AS skew) s
     WHERE j.terminal_id = $1 AND j.seq BETWEEN $2 AND $3
       AND (j.ts < t.caught_up_at - s.skew OR j.ts > j.received_at + s.skew)
     ON CONFLICT (terminal_id, seq) DO NOTHING
     RETURNING seq, kind, ts, caught_up_at`,
    [terminal, from, to, skewMs / 1000],
  );
  if (r.rows.length === 0) return;
  const seqs = r.rows.map((x) => Number(x.seq)).sort((a, b) => a - b);
  const times = r.rows.map((x) => new Date(x.ts).getTime());
  const caughtUp = r.rows[0]?.caught_up_at;
  await raiseRepeatableAlarm(tx, terminal, 'entry-misdated', {
    entries: seqs.length,
    firstSeq: seqs[0],
    lastSeq: seqs.at(-1),
    seqs: seqs.slice(0, SEQS_NAMED),
    backdated: r.rows.filter((x) => x.kind === 'backdated').length,
    ahead: r.rows.filter((x) => x.kind === 'ahead').length,
    earliestTs: new Date(Math.min(...times)).toISOString(),
    latestTs: new Date(Math.max(...times)).toISOString(),
    caughtUpAt: caughtUp ? new Date(caughtUp).toISOString() : null,
    skewSeconds: skewMs / 1000,
  });
}
