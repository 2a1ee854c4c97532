/**
 * The Macau equipment standard asks player screens for a 12-hour local clock that flashes at the
 * start of a session and at least every 10 minutes. We flash for the first 10 s of the session
 * and of every 10-minute period after it, blinking at 1 Hz. A session starts when the screen
 * starts and again whenever a player's credit arrives at a station that held nothing
 * (station/station-screen.ts).
 */
export const FLASH_EVERY_MS = 10 * 60_000;
export const FLASH_FOR_MS = 10_000;

/** Whether the clock is drawn at `now` (false = the "off" half of a blink). */
export function clockVisible(sessionStartMs: number, nowMs: number): boolean {
  const sinceStart = Math.max(0, nowMs - sessionStartMs);
  const inPeriod = sinceStart % FLASH_EVERY_MS;
  if (inPeriod >= FLASH_FOR_MS) return true;
  return Math.floor(inPeriod / 500) % 2 === 0;
}

/**
 * When the clock next changes how it is drawn: the next half second of a blink while it flashes,
 * else the next flash or the next minute, whichever comes first.
 */
export function clockChangesAt(sessionStartMs: number, nowMs: number): number {
  const minute = (Math.floor(nowMs / 60_000) + 1) * 60_000;
  if (nowMs < sessionStartMs) return Math.min(minute, sessionStartMs);
  const inPeriod = (nowMs - sessionStartMs) % FLASH_EVERY_MS;
  const flash = inPeriod < FLASH_FOR_MS ? nowMs + (500 - (inPeriod % 500)) : nowMs + (FLASH_EVERY_MS - inPeriod);
  return Math.min(minute, flash);
}

/**
 * Whether a player's session begins: credit arrived at a station that held nothing (no credit,
 * nothing on its spots): a fresh station, or one cashed out or played down to zero. `before` is
 * null on the screen's first snapshot, which is its own start (already flashing).
 */
export function sessionBegins(before: number | null, held: number): boolean {
  return before === 0 && held > 0;
}

/** Macau's own time, whatever zone the kiosk's operating system is set to (often UTC). */
export const CLOCK_TIME_ZONE = 'Asia/Macau';

export function clockFormat(intlLocale: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(intlLocale, { hour: 'numeric', minute: '2-digit', hour12: true, timeZone: CLOCK_TIME_ZONE });
}
