import type { SasDateTime } from '../../hardware/sas/types.js';

/**
 * Macau's offset from UTC: +8 all year (Macau keeps no summer time). Every time the kiosk prints,
 * shows or tells the floor is Macau's by name, whatever zone the cabinet's operating system was
 * installed with (a Debian cabinet left in UTC read 8 hours early): the ticket's paper, the
 * screens' clocks (renderer, Intl's `Asia/Macau`), the back office, SAS's 0x7E and 0x4D, and the
 * day a rule authorisation takes effect.
 */
export const MACAU_OFFSET_MS = 8 * 3_600_000;

/** A moment as Macau's calendar and clock read it (SAS's date and time fields take these). */
export type MacauTime = SasDateTime;

export function macauTime(ms: number): MacauTime {
  const t = new Date(ms + MACAU_OFFSET_MS);
  return {
    year: t.getUTCFullYear(),
    month: t.getUTCMonth() + 1,
    day: t.getUTCDate(),
    hour: t.getUTCHours(),
    minute: t.getUTCMinutes(),
    second: t.getUTCSeconds(),
  };
}

/** `2026-11-26 16:40:12`: the moment in Macau's time, as a ticket prints it. */
export function macauStamp(ms: number): string {
  const t = new Date(ms + MACAU_OFFSET_MS).toISOString();
  return `${t.slice(0, 10)} ${t.slice(11, 19)}`;
}

/** `2026-11-26`: Macau's calendar day at the moment. */
export function macauDay(ms: number): string {
  return macauStamp(ms).slice(0, 10);
}
