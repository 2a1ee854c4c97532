/**
 * Service mode's times are Macau's (UTC+8 all year: Macau keeps no summer time), as the ticket's
 * paper, the station's clock (CLOCK_TIME_ZONE) and the back office give them, whatever zone the
 * cabinet's system is set to (often UTC): a technician matches a page's time with a ticket's.
 */
const MACAU_OFFSET_MS = 8 * 3_600_000;

/** `YYYYMMDDhhmm` typed on the pad, a minute in Macau's time; null if it is no such minute. */
export function typedTime(digits: string): number | null {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(digits);
  if (!m) return null;
  const [y, mo, d, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number];
  const t = new Date(Date.UTC(y, mo - 1, d, h, mi));
  // Date rolls 31 February over into March: a minute that does not exist is refused.
  if (t.getUTCFullYear() !== y || t.getUTCMonth() !== mo - 1 || t.getUTCDate() !== d || t.getUTCHours() !== h || t.getUTCMinutes() !== mi) return null;
  return t.getTime() - MACAU_OFFSET_MS;
}

/** A journal time (UTC) as Macau's `YYYY-MM-DD hh:mm:ss`. */
export function macauTime(iso: string | number): string {
  const ms = new Date(iso).getTime();
  if (Number.isNaN(ms)) return String(iso);
  const t = new Date(ms + MACAU_OFFSET_MS).toISOString();
  return `${t.slice(0, 10)} ${t.slice(11, 19)}`;
}
