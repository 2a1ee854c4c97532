import type { Sql } from '../sql.js';

/**
 * The back office's own audit log (migration 5): one row per sign-in, refusal and action. The
 * table is append-only in the database itself (a trigger refuses UPDATE, DELETE and TRUNCATE), so
 * no route, and no bug in one, can rewrite what was done.
 */
export interface AuditRecord {
  actor: string | null;
  address: string | null;
  action: string;
  detail?: Record<string, unknown>;
}

export async function audit(sql: Sql, r: AuditRecord): Promise<void> {
  await sql.query('INSERT INTO audit_log (actor, address, action, detail) VALUES ($1, $2, $3, $4::jsonb)', [
    r.actor,
    r.address,
    r.action,
    JSON.stringify(r.detail ?? {}),
  ]);
}

export async function auditTrail(sql: Sql, limit = 200) {
  const r = await sql.query<{ id: number; at: Date; actor: string | null; address: string | null; action: string; detail: unknown }>(
    'SELECT id, at, actor, address, action, detail FROM audit_log ORDER BY id DESC LIMIT $1',
    [limit],
  );
  return r.rows.map((x) => ({ id: Number(x.id), at: new Date(x.at).toISOString(), actor: x.actor, address: x.address, action: x.action, detail: x.detail }));
}
