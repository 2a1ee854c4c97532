import type { Db, Sql } from '../sql.js';
import { iso } from '../queries.js';
import { audit } from './audit.js';

export interface WorkedAlarm {
  id: number;
  terminalId: string | null;
  kind: string;
  detail: unknown;
  raisedAt: string;
  clearedAt: string | null;
  acks: { by: string; at: string; note: string }[];
  /** On the oldest listed of a table's alarms when the list holds only its newest: how many more its own page has. */
  more?: number;
}

/**
 * How many of one table's alarms the list of every table holds: its newest. One table's flood
 * (a refused batch raises one, up to 600 a minute) used to push every other table's alarms off
 * the newest 200 of all (a review); the rest of a table's are on its own page (`terminal`).
 */
export const ALARMS_PER_TABLE = 20;

/**
 * How many acknowledgements one alarm takes. Each is appended, never replaced, and every list of
 * alarms carries each one's whole list: unbounded, one signed-in user (or a stolen cookie) posting
 * notes of 1,000 characters at 1,200 requests a minute grew one alarm's list, and every alarms page
 * and table page with it, without end (a review of 6 December). A further one is refused.
 */
export const ALARM_ACKS_MAX = 20;

/**
 * The list (`workedAlarms`): $1 one table or every one, $2 open ones only, $3 how many at most, $4 how
 * many of each table's. Read by table, newest first: the index of migration 16. Of each table's
 * newest $4 (rn), the list takes every table's newest first, then every table's second… (k) up to
 * $3, and each table's newest whatever $3: at most $3 + one a table. Cut at the newest $3 of all, ten
 * busy tables (20 each) pushed every other table's alarms off the page (a review of 6 December).
 * A table's listed are its newest m; the oldest of them says how many more its own page has.
 */
export const WORKED_ALARMS_SQL = `SELECT id, terminal_id, kind, detail, raised_at, cleared_at, CASE WHEN rn = m AND n > m THEN n - m END AS more
     FROM (SELECT *, COUNT(*) OVER (PARTITION BY terminal_id) AS m
           FROM (SELECT *, row_number() OVER (ORDER BY rn, id DESC) AS k
                 FROM (SELECT id, terminal_id, kind, detail, raised_at, cleared_at,
                              row_number() OVER (PARTITION BY terminal_id ORDER BY id DESC) AS rn, COUNT(*) OVER (PARTITION BY terminal_id) AS n
                       FROM alarms WHERE ($1::text IS NULL OR terminal_id = $1) AND (NOT $2::boolean OR cleared_at IS NULL)) a
                 WHERE rn <= $4) b
           WHERE rn = 1 OR k <= $3) c
     ORDER BY id DESC`;

/**
 * Migration 16: the alarms by table, newest first, in the order the list reads them (a table's
 * newest, each table's newest). Before, only the id was indexed: one table's page read every alarm
 * of the floor and the list of every table sorted them all (an upstream review).
 */
export const ALARMS_BY_TABLE_SQL = `CREATE INDEX alarms_by_table ON alarms (terminal_id, id DESC);`;

type AlarmRow = { id: number; terminal_id: string | null; kind: string; detail: unknown; raised_at: Date; cleared_at: Date | null; more: number | null };

/**
 * Alarms, newest first, each with every acknowledgement it was given (who, when, what note). Of
 * every table's, each table's newest ALARMS_PER_TABLE (the service's own, with no table, as one),
 * at most `limit` but each table's newest always, the oldest listed of a table with more carrying
 * how many more (`more`); of one table's, its newest `limit`.
 */
export async function workedAlarms(sql: Sql, options: { terminal?: string; open?: boolean; limit?: number } = {}): Promise<WorkedAlarm[]> {
  const r = await sql.query<AlarmRow>(WORKED_ALARMS_SQL, [
    options.terminal ?? null,
    options.open ?? false,
    options.limit ?? 200,
    options.terminal === undefined ? ALARMS_PER_TABLE : (options.limit ?? 200),
  ]);
  const ids = r.rows.map((x) => Number(x.id));
  const acks = ids.length
    ? await sql.query<{ alarm_id: number; user_name: string; at: Date; note: string }>(
        'SELECT alarm_id, user_name, at, note FROM alarm_acks WHERE alarm_id = ANY($1::bigint[]) ORDER BY id',
        [ids],
      )
    : { rows: [] };
  const byAlarm = new Map<number, WorkedAlarm['acks']>();
  for (const a of acks.rows) {
    const list = byAlarm.get(Number(a.alarm_id)) ?? [];
    list.push({ by: a.user_name, at: iso(a.at), note: a.note });
    byAlarm.set(Number(a.alarm_id), list);
  }
  return r.rows.map((x) => ({
    id: Number(x.id),
    terminalId: x.terminal_id,
    kind: x.kind,
    detail: withoutTicketNumbers(x.detail),
    raisedAt: iso(x.raised_at),
    clearedAt: x.cleared_at === null ? null : iso(x.cleared_at),
    acks: byAlarm.get(Number(x.id)) ?? [],
    ...(x.more === null ? {} : { more: Number(x.more) }),
  }));
}

/**
 * Appends an acknowledgement (never replaces one) and audits it: 'no-alarm' when there is no such
 * alarm, 'full' when it holds ALARM_ACKS_MAX already. The alarm's row is held while its
 * acknowledgements are counted, so requests at once cannot all pass the count.
 */
export async function acknowledge(db: Db, alarmId: number, by: string, address: string, note: string): Promise<'ok' | 'no-alarm' | 'full'> {
  return db.transaction(async (tx) => {
    const exists = await tx.query('SELECT 1 FROM alarms WHERE id = $1 FOR UPDATE', [alarmId]);
    if (exists.rows.length === 0) return 'no-alarm';
    const held = await tx.query<{ n: number }>('SELECT COUNT(*)::int AS n FROM alarm_acks WHERE alarm_id = $1', [alarmId]);
    if (Number(held.rows[0]?.n ?? 0) >= ALARM_ACKS_MAX) return 'full';
    await tx.query('INSERT INTO alarm_acks (alarm_id, user_name, note) VALUES ($1, $2, $3)', [alarmId, by, note]);
    await audit(tx, { actor: by, address, action: 'alarm.acknowledge', detail: { alarmId, note } });
    return 'ok';
  });
}

/**
 * An alarm's detail as the back office serves it: a ticket's number cut to its last four digits
 * and no sequence beside it. A ticket is paid to whoever holds its number, and an alarm can name
 * one still payable (the real ticket a table refused for its guesses presented, refused `offline`):
 * its whole number went to every role (a review of 4 December). The numbering scheme is public,
 * so an id and a sequence make the number too. The alarm keeps it whole in the database, for the
 * query token and `etg upstream ticket`.
 */
export function withoutTicketNumbers(detail: unknown): unknown {
  if (detail === null || typeof detail !== 'object' || Array.isArray(detail) || !('validation' in detail)) return detail;
  const { validation, sequence: _sequence, ...rest } = detail as Record<string, unknown>;
  return { ...rest, validation: typeof validation === 'string' ? `…${validation.slice(-4)}` : validation };
}
