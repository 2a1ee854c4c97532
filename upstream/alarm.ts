import type { Sql } from './sql.js';

/** An alarm for a technician (GET /v1/alarms): a divergence, a bad chain, a foreign stream, a transfer or ticket disagreement. */
export async function raiseAlarm(sql: Sql, terminalId: string | null, kind: string, detail: Record<string, unknown>): Promise<void> {
  await sql.query('INSERT INTO alarms (terminal_id, kind, detail) VALUES ($1, $2, $3::jsonb)', [terminalId, kind, JSON.stringify(detail)]);
}
