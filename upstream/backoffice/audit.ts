import { z } from 'zod';
import type { Sql } from '../sql.js';

/**
 * The back office's own audit log (migration 5): one row per sign-in, refusal and action. The
 * table is append-only in the database itself (a trigger refuses UPDATE, DELETE and TRUNCATE), so
 * no route, and no bug in one, can rewrite what was done.
 */
export interface AuditRecord {
  actor: string | null;
  address: string | null;
  action: AuditAction;
  detail?: Record<string, unknown>;
}

/** Every action the upstream writes to the log: the filter takes these and no other. */
export const AUDIT_ACTIONS = [
  'sign-in',
  'sign-in.refused',
  'sign-out',
  'settings.change',
  'alarm.acknowledge',
  'config.propose',
  'config.approve',
  'config.withdraw',
  'config.deliver',
  'report.read',
  'round.evidence',
  'user.add',
  'user.replace',
  'user.disable',
  'floor.stream.ended',
  'floor.stream.dropped',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_PAGE_MAX = 500;

/** An id as the page sends it: digits only, no sign, exponent, hex or space (`Number` takes `1e3` and `0x10`). */
const Id = z
  .string()
  .regex(/^[1-9][0-9]{0,15}$/)
  .transform(Number)
  .refine(Number.isSafeInteger);

/**
 * A page of the log, newest first: at most `limit`, older than the id `before` (the `older` of the
 * page before), of one action and one actor when asked. A refused sign-in is written for every
 * attempt, so without the filter and the cursor a flood of them hid every real action.
 */
export const AuditQuery = z
  .strictObject({
    limit: z
      .string()
      .regex(/^[1-9][0-9]{0,2}$/)
      .transform(Number)
      .refine((n) => n <= AUDIT_PAGE_MAX)
      .default(200),
    before: Id.optional(),
    action: z.enum(AUDIT_ACTIONS).optional(),
    /** Every action but this one (the refused sign-ins, mostly: what was done behind their flood); not with `action`. */
    notAction: z.enum(AUDIT_ACTIONS).optional(),
    /** Any name a sign-in was tried under (the sign-in takes 64 characters): read as text, never as SQL. */
    actor: z.string().min(1).max(64).optional(),
  })
  .refine((q) => q.action === undefined || q.notAction === undefined, { message: 'action and notAction are one filter: give one' });
export type AuditQuery = z.infer<typeof AuditQuery>;

export async function audit(sql: Sql, r: AuditRecord): Promise<void> {
  await sql.query('INSERT INTO audit_log (actor, address, action, detail) VALUES ($1, $2, $3, $4::jsonb)', [
    r.actor,
    r.address,
    r.action,
    JSON.stringify(r.detail ?? {}),
  ]);
}

/**
 * $1 the action or null, $2 the actor or null, $3 the cursor or null, $4 the most rows. Each
 * filter is folded away when null (the plan is made with the values): by id alone it reads the
 * primary key backwards; by action or actor, their index (migration 22), so a filter finds a
 * config change among a million refused sign-ins without reading them.
 */
export const AUDIT_PAGE_SQL = `SELECT id, at, actor, address, action, detail FROM audit_log
 WHERE ($1::text IS NULL OR action = $1) AND ($2::text IS NULL OR actor = $2) AND ($3::bigint IS NULL OR id < $3)
 ORDER BY id DESC LIMIT $4`;

/**
 * A page of several actions (every action but `notAction`): $1 the actor or null, $2 the cursor or
 * null, $3 the most rows, then one parameter an action. Each action's newest rows are read apart (at
 * most $3 each, the planner choosing for each value, as for one action), then the newest $3 of them:
 * `action <> …` read the log backwards through every row of the action left out, a flood's million
 * refused sign-ins, to reach a page of what was done; one subquery joined to the list of actions had
 * a plan for any action, the primary key read backwards and filtered, through the flood for a rare
 * one (audit-index-migration.test.ts).
 */
export function auditPageAmongSql(actions: number): string {
  const one = (i: number) =>
    `(SELECT id, at, actor, address, action, detail FROM audit_log WHERE action = $${i + 4} AND ($1::text IS NULL OR actor = $1) AND ($2::bigint IS NULL OR id < $2) ORDER BY id DESC LIMIT $3)`;
  return `SELECT * FROM (${Array.from({ length: actions }, (_, i) => one(i)).join(' UNION ALL ')}) a ORDER BY id DESC LIMIT $3`;
}

/** Migration 22: the log by action and by actor, newest first (AUDIT_PAGE_SQL's filters). */
export const AUDIT_INDEX_SQL = `
  CREATE INDEX audit_log_by_action ON audit_log (action, id DESC);
  CREATE INDEX audit_log_by_actor ON audit_log (actor, id DESC);
`;

export interface AuditPage {
  rows: { id: number; at: string; actor: string | null; address: string | null; action: string; detail: unknown }[];
  /** The `before` of the next, older page; null when this one holds the oldest row that matches. */
  older: number | null;
}

export async function auditTrail(sql: Sql, q: Partial<AuditQuery> = {}): Promise<AuditPage> {
  const limit = q.limit ?? 200;
  // One row past the page says whether an older one exists, without a count over the whole log.
  const { notAction } = q;
  const among = notAction ? AUDIT_ACTIONS.filter((a) => a !== notAction) : [];
  const [text, params] = notAction
    ? [auditPageAmongSql(among.length), [q.actor ?? null, q.before ?? null, limit + 1, ...among]]
    : [AUDIT_PAGE_SQL, [q.action ?? null, q.actor ?? null, q.before ?? null, limit + 1]];
  const r = await sql.query<{ id: number; at: Date; actor: string | null; address: string | null; action: string; detail: unknown }>(text, params);
  const rows = r.rows
    .slice(0, limit)
    .map((x) => ({ id: Number(x.id), at: new Date(x.at).toISOString(), actor: x.actor, address: x.address, action: x.action, detail: x.detail }));
  return { rows, older: r.rows.length > limit ? (rows.at(-1)?.id ?? null) : null };
}
