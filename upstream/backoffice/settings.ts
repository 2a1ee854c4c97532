import { z } from 'zod';
import type { Db, Sql } from '../sql.js';
import { audit } from './audit.js';
import { readDayHours, scheduleHour, writeDayHours } from './day-hours.js';

/**
 * What an administrator configures from the back office. The gaming day begins at
 * `gamingDayStartHour` in Macau time (Asia/Macau, UTC+8 all year: Macau keeps no summer time);
 * a table not heard from for `offlineLimitSeconds` raises a `table-offline` alarm. There is no
 * back-office currency: each table names its own with its heartbeat (upstream/table-currency.ts),
 * and every amount is labelled by its table's.
 */
export const Settings = z.strictObject({
  gamingDayStartHour: z.number().int().min(0).max(23),
  offlineLimitSeconds: z.number().int().min(30).max(86_400),
});
export type Settings = z.infer<typeof Settings>;

export const DEFAULT_SETTINGS: Settings = { gamingDayStartHour: 6, offlineLimitSeconds: 120 };

export async function readSettings(sql: Sql): Promise<Settings> {
  const r = await sql.query<{ key: string; value: unknown }>('SELECT key, value FROM backoffice_settings');
  // Only the keys a setting has now: a key stored by an older service (the back office's one
  // `currency`, before each table named its own) is left in the table and not read.
  const known = new Set(Object.keys(Settings.shape));
  const stored = Object.fromEntries(r.rows.filter((x) => known.has(x.key)).map((x) => [x.key, x.value]));
  const parsed = Settings.partial().safeParse(stored);
  return { ...DEFAULT_SETTINGS, ...(parsed.success ? parsed.data : {}) };
}

/** Taken by each change of the settings, till its transaction ends (pg_advisory_xact_lock; 727274 and 727275 are the migrations' and the ticket machines'). */
const SETTINGS_LOCK = 727276;

/**
 * A change of the start hour takes effect from the gaming day after the one `now` is in (day-hours.ts).
 * One transaction under a lock: two administrators changing the settings at once are taken one
 * after the other, so the start hour set and the history's last hour never end apart (each was
 * written in a statement of its own, and two changes could interleave: one's history, the other's hour).
 */
export async function writeSettings(db: Db, change: Partial<Settings>, by: string, address: string, now: Date): Promise<Settings> {
  return db.transaction(async (sql) => {
    await sql.query('SELECT pg_advisory_xact_lock($1)', [SETTINGS_LOCK]);
    const before = await readSettings(sql);
    let startHourFrom: string | undefined;
    if (change.gamingDayStartHour !== undefined) {
      const hours = scheduleHour(await readDayHours(sql, before.gamingDayStartHour), change.gamingDayStartHour, now);
      await writeDayHours(sql, hours, by);
      startHourFrom = hours.at(-1)?.from;
    }
    for (const [key, value] of Object.entries(change)) {
      await sql.query(
        `INSERT INTO backoffice_settings (key, value, updated_by) VALUES ($1, $2::jsonb, $3)
         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_by = EXCLUDED.updated_by, updated_at = now()`,
        [key, JSON.stringify(value), by],
      );
    }
    await audit(sql, { actor: by, address, action: 'settings.change', detail: { before, change, ...(startHourFrom ? { startHourFrom } : {}) } });
    return readSettings(sql);
  });
}
