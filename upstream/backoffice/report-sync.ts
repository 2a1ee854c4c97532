import type { Sql } from '../sql.js';

// How far each table's journal had come when a gaming day's report was read. A table syncs when it
// can: one offline for hours sends yesterday's rounds after midnight, and the figures of a day
// already read change. The report says so rather than let a reading stand as final: each table's
// seq held here, when it was last heard (any signed request), the entries its last heartbeat said it
// had yet to send; complete only when the day is over and every table sent a heartbeat after its end
// that said nothing was unsent (any request is not enough: see LAST_HEALTH_AT_SQL). Its *last*
// heartbeat is not the one to read: a busy table's says some of today's entries are unsent every
// minute, and a day complete at one reading read provisional again at the next (a review of 4
// December); `caught_up_at` (migration 17) is when it last said nothing was unsent.

/**
 * Migration 14: when the table's last heartbeat came (`last_health` is what it said). `last_seen_at`
 * moves with any signed request, a refused batch included; only a heartbeat says what the table had
 * yet to send, so only one after a day's end can say that nothing of the day is still to come.
 */
export const LAST_HEALTH_AT_SQL = `ALTER TABLE terminals ADD COLUMN last_health_at timestamptz;`;

export interface TableSync {
  terminalId: string;
  /** The seq of the last entry of the table's journal held here (0: none). */
  syncedSeq: number;
  /** When the table was last heard from (a heartbeat or a batch); null: never. */
  lastSeen: string | null;
  /** The entries its last heartbeat said it had yet to send; null: it never said (no heartbeat, or sync off). */
  unsent: number | null;
  /** A heartbeat after the day's end said nothing was unsent (whatever later ones said of later entries): nothing of the day is still to come from it. */
  complete: boolean;
  /** Entries dated in the day that came after such a heartbeat (ingest/misdated.ts): the day changed after it was complete. */
  changed: ChangedAfterComplete | null;
  /** Entries received in the day dated after its end (ingest/misdated.ts, 'ahead'): a clock fast; in no figure of the day. */
  datedAfter: DatedAfter | null;
}

export interface DatedAfter {
  entries: number;
  /** The earliest and latest of their own times. */
  earliest: string;
  latest: string;
}

export interface ChangedAfterComplete {
  entries: number;
  firstReceivedAt: string;
  lastReceivedAt: string;
}

export interface ReportSync {
  /** When the report was read (the back office's clock). */
  readAt: string;
  /** Whether the day had ended when it was read. */
  dayOver: boolean;
  /** The day is over and every table is complete: nothing of the day is still to come. */
  complete: boolean;
  /** A table sent entries dated in the day after it had said, past the day's end, that nothing was unsent. */
  changedAfterComplete: boolean;
  tables: TableSync[];
}

/** Every table enrolled before the day ended and not revoked before it began (a revoked one sends nothing more). */
export async function reportSync(sql: Sql, window: { from: Date; to: Date }, now: Date): Promise<ReportSync> {
  const r = await sql.query<{ terminal_id: string; seq: number; last_seen_at: Date | null; caught_up_at: Date | null; unsent: unknown }>(
    `SELECT t.terminal_id, h.seq, t.last_seen_at, t.caught_up_at, t.last_health->'sync'->'lagEntries' AS unsent
     FROM terminals t JOIN heads h USING (terminal_id)
     WHERE t.enrolled_at < $2 AND (t.revoked_at IS NULL OR t.revoked_at >= $1) ORDER BY t.terminal_id`,
    [window.from, window.to],
  );
  const dayOver = now >= window.to;
  const changed = await changedAfterComplete(sql, window);
  const after = await datedAfter(sql, window);
  const tables = r.rows.map((x) => {
    const unsent = typeof x.unsent === 'number' && Number.isSafeInteger(x.unsent) && x.unsent >= 0 ? x.unsent : null;
    const lastSeen = x.last_seen_at === null ? null : new Date(x.last_seen_at);
    // When it last said nothing was unsent: every entry it had journalled by then was here.
    const caughtUp = x.caught_up_at === null ? null : new Date(x.caught_up_at);
    return {
      terminalId: x.terminal_id,
      syncedSeq: Number(x.seq),
      lastSeen: lastSeen?.toISOString() ?? null,
      unsent,
      complete: dayOver && caughtUp !== null && caughtUp >= window.to,
      changed: changed.get(x.terminal_id) ?? null,
      datedAfter: after.get(x.terminal_id) ?? null,
    };
  });
  const complete = dayOver && tables.every((t) => t.complete);
  return { readAt: now.toISOString(), dayOver, complete, changedAfterComplete: tables.some((t) => t.changed !== null), tables };
}

/**
 * Each table's entries dated in the day that were misdated back (ingest/misdated.ts) past a
 * heartbeat after the day's end that said nothing was unsent: the table had said the day was
 * complete, and then it changed. One dated within the skew before that heartbeat is not among them
 * (an honest clock may be that far off): a day completed by a heartbeat within minutes of its end
 * may still take entries of its last minutes without a word.
 */
async function changedAfterComplete(sql: Sql, window: { from: Date; to: Date }): Promise<Map<string, ChangedAfterComplete>> {
  const r = await misdatedByTable(sql, window, 'received_at', "kind = 'backdated' AND ts >= $1 AND ts < $2 AND caught_up_at >= $2");
  return new Map([...r].map(([t, x]) => [t, { entries: x.entries, firstReceivedAt: x.first, lastReceivedAt: x.last }]));
}

/**
 * Each table's entries received in the day dated after its end by more than the skew (ingest/misdated.ts,
 * 'ahead'): a clock fast, or a lie. The day's figures are read by each entry's own time, so these
 * are in none of its figures, and the day read complete with no word of them (a review of 4
 * December): the report of the day they came in says so.
 */
async function datedAfter(sql: Sql, window: { from: Date; to: Date }): Promise<Map<string, DatedAfter>> {
  const r = await misdatedByTable(sql, window, 'ts', "kind = 'ahead' AND received_at >= $1 AND received_at < $2 AND ts >= $2");
  return new Map([...r].map(([t, x]) => [t, { entries: x.entries, earliest: x.first, latest: x.last }]));
}

/** Each table's misdated entries that `where` picks ($1, $2: the day's window): how many, and the first and last of `time`. */
async function misdatedByTable(
  sql: Sql,
  window: { from: Date; to: Date },
  time: 'received_at' | 'ts',
  where: string,
): Promise<Map<string, { entries: number; first: string; last: string }>> {
  const r = await sql.query<{ terminal_id: string; entries: number; first: Date; last: Date }>(
    `SELECT terminal_id, count(*)::int AS entries, min(${time}) AS first, max(${time}) AS last FROM misdated_entries WHERE ${where} GROUP BY terminal_id`,
    [window.from, window.to],
  );
  return new Map(
    r.rows.map((x) => [x.terminal_id, { entries: Number(x.entries), first: new Date(x.first).toISOString(), last: new Date(x.last).toISOString() }]),
  );
}
