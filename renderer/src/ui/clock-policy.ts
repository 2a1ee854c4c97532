/**
 * The Macau equipment standard asks player screens for a 12-hour local clock that flashes at the
 * start of a session and at least every 10 minutes. We flash for the first 10 s of the session
 * and of every 10-minute period after it, blinking at 1 Hz.
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

export function clockFormat(intlLocale: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(intlLocale, { hour: 'numeric', minute: '2-digit', hour12: true });
}
