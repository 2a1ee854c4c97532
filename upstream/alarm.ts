import type { Sql } from './sql.js';

/** An alarm for a technician (GET /v1/alarms): a divergence, a bad chain, a foreign stream, a transfer or ticket disagreement. */
export async function raiseAlarm(sql: Sql, terminalId: string | null, kind: string, detail: Record<string, unknown>): Promise<void> {
  await sql.query('INSERT INTO alarms (terminal_id, kind, detail) VALUES ($1, $2, $3::jsonb)', [terminalId, kind, JSON.stringify(detail)]);
}

/** How long a table's repeat of a refused request goes into the alarm it repeats (while nobody has acknowledged that one). */
export const REPEAT_FOLD_SECONDS = 3600;
/** The details of later repeats an alarm keeps (the first ones): past them, repeats are counted only. */
export const REPEAT_DETAILS_KEPT = 10;

/**
 * An alarm for a request a table may repeat as often as it sends (a foreign stream, a refused
 * batch, a ticket request for another table). Each was a new row, never merged nor deleted: a
 * table holding its key and looping on one added ~2.6 M rows a day within the rate limits, an
 * honest one stuck on a refused batch ~2,900 (a review of what grows over weeks). A repeat by the
 * same table of the same kind, within REPEAT_FOLD_SECONDS of its alarm and before anybody has
 * acknowledged that alarm, is counted in it (`detail.repeated`: how many, the last one's time, the
 * first REPEAT_DETAILS_KEPT repeats' details); otherwise it is an alarm of its own, which a person
 * sees again. At most one row an hour per table and kind, whatever the table sends.
 */
export async function raiseRepeatableAlarm(sql: Sql, terminalId: string, kind: string, detail: Record<string, unknown>): Promise<void> {
  const folded = await sql.query(
    `UPDATE alarms SET detail = detail || jsonb_build_object('repeated', jsonb_build_object(
        'count', COALESCE((detail->'repeated'->>'count')::int, 0) + 1,
        'lastAt', to_jsonb(now()),
        'later', CASE WHEN jsonb_array_length(COALESCE(detail->'repeated'->'later', '[]'::jsonb)) < $4
                      THEN COALESCE(detail->'repeated'->'later', '[]'::jsonb) || jsonb_build_array($3::jsonb)
                      ELSE detail->'repeated'->'later' END))
     WHERE id = (SELECT a.id FROM alarms a
                 WHERE a.terminal_id = $1 AND a.kind = $2 AND a.cleared_at IS NULL
                   AND a.raised_at > now() - make_interval(secs => $5)
                   AND NOT EXISTS (SELECT 1 FROM alarm_acks k WHERE k.alarm_id = a.id)
                 ORDER BY a.id DESC LIMIT 1)`,
    [terminalId, kind, JSON.stringify(detail), REPEAT_DETAILS_KEPT, REPEAT_FOLD_SECONDS],
  );
  if (folded.rowCount === 0) await raiseAlarm(sql, terminalId, kind, detail);
}
