import { z } from 'zod';
import { raiseAlarm } from '../alarm.js';
import type { Sql } from '../sql.js';
import { gamingDayWindow, isCalendarDate, MACAU_OFFSET_MS } from './gaming-day.js';

// The gaming day's start hour as it stood on each day. An administrator's change takes effect from
// the next gaming day, never on one that has begun: a report signed for a day reads the same
// afterwards. Each day ends where the next begins, so the day a change takes effect after is
// longer or shorter than 24 hours (06:00 to 08:00 the next morning: 26 hours), and no hour falls
// between two days nor into both.

/** Before any change was kept: the hour in force from the first day on. */
const FIRST_DAY = '0001-01-01';

/**
 * From `from` on (a gaming day, YYYY-MM-DD, or FIRST_DAY), each day begins at `hour`, Macau time;
 * strictly ascending by `from`, which hourOf reads in order. At most 100,000 changes: a change a day
 * for over 270 years. Entries are never dropped, for every past day's window needs the hour it began
 * at; the bound (1,000 before) only keeps a stored value from growing without end, and at 1,000 the
 * 1,001st change failed to parse and the hour could never be changed again.
 */
export const DayHours = z
  .array(
    z.strictObject({
      from: z.string().refine((d) => d === FIRST_DAY || isCalendarDate(d), { message: 'a day of the calendar, YYYY-MM-DD, or 0001-01-01' }),
      hour: z.number().int().min(0).max(23),
    }),
  )
  .min(1)
  .max(100_000)
  .refine((hours) => hours.every((h, i) => i === 0 || (hours[i - 1]?.from ?? '') < h.from), { message: 'strictly ascending by `from`' });
export type DayHours = z.infer<typeof DayHours>;

/** Where the history is kept: a back-office setting of its own, beside `gamingDayStartHour` (the hour last set). */
const KEY = 'gamingDayStartHours';

/**
 * The history as stored; with none stored, `current` for every day (the start hour was one value
 * before the history was kept). A stored value that does not parse is an error, never that fallback:
 * `current` for every day would re-window every past day under the hour last set, silently.
 */
export async function readDayHours(sql: Sql, current: number): Promise<DayHours> {
  const r = await sql.query<{ value: unknown }>('SELECT value FROM backoffice_settings WHERE key = $1', [KEY]);
  const row = r.rows[0];
  if (!row) return [{ from: FIRST_DAY, hour: current }];
  const parsed = DayHours.safeParse(row.value);
  if (parsed.success) return parsed.data;
  const error = `the back-office setting ${KEY} (the start hour's history) does not parse: ${parsed.error.message}`;
  // An alarm as well as the error, once while it stands: the error reaches only whoever asked.
  const standing = await sql.query("SELECT 1 FROM alarms WHERE kind = 'backoffice-setting-unreadable' AND cleared_at IS NULL AND detail->>'key' = $1", [KEY]);
  if (standing.rows.length === 0) await raiseAlarm(sql, null, 'backoffice-setting-unreadable', { key: KEY, error: error.slice(0, 500) });
  throw new Error(error);
}

export async function writeDayHours(sql: Sql, hours: DayHours, by: string): Promise<void> {
  await sql.query(
    `INSERT INTO backoffice_settings (key, value, updated_by) VALUES ($1, $2::jsonb, $3)
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_by = EXCLUDED.updated_by, updated_at = now()`,
    [KEY, JSON.stringify(DayHours.parse(hours)), by],
  );
}

const nextDate = (date: string): string => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
const previousDate = (date: string): string => new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

/**
 * Whether a gaming day has a window: a day of the calendar whose next day is one too, for its window
 * ends where the next day begins (9998-12-31's would end on 9999-01-01, past isCalendarDate's range).
 */
export function hasWindow(date: string): boolean {
  return isCalendarDate(date) && isCalendarDate(nextDate(date));
}

/** The start hour of a gaming day. */
export function hourOf(hours: DayHours, date: string): number {
  let hour = hours[0]?.hour ?? 0;
  for (const h of hours) if (h.from <= date) hour = h.hour;
  return hour;
}

/** A gaming day's instants: from its own start to the next day's. */
export function dayWindow(hours: DayHours, date: string): { from: Date; to: Date; startHour: number } {
  const startHour = hourOf(hours, date);
  const next = nextDate(date);
  return { from: gamingDayWindow(date, startHour).from, to: gamingDayWindow(next, hourOf(hours, next)).from, startHour };
}

/** The gaming day an instant belongs to. */
export function dayOf(hours: DayHours, at: Date): string {
  const macauDate = new Date(at.getTime() + MACAU_OFFSET_MS).toISOString().slice(0, 10);
  for (const date of [previousDate(macauDate), macauDate]) {
    const w = dayWindow(hours, date);
    if (at >= w.from && at < w.to) return date;
  }
  return nextDate(macauDate);
}

/**
 * `hour` from the first gaming day after the one `now` is in that would begin after `now` (the next
 * day, or the one after when the new hour on the next day has passed already: the day under way
 * must not end before now); a change not yet in effect is replaced.
 */
export function scheduleHour(hours: DayHours, hour: number, now: Date): DayHours {
  let from = nextDate(dayOf(hours, now));
  if (gamingDayWindow(from, hour).from <= now) from = nextDate(from);
  const kept = hours.filter((h) => h.from < from);
  return hourOf(kept, from) === hour ? kept : [...kept, { from, hour }];
}
