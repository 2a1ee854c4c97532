import type { Logger } from 'pino';
import type { Clock } from '../../hardware/clock.js';
import type { BytePort } from '../../hardware/transport/byte-port.js';

/**
 * Closes a relay's port at its stop (or one that opened after it). A close that fails is logged,
 * never thrown: the stop has nobody to throw to, and the port is the operating system's to free.
 */
export async function closeAtStop(port: BytePort | null, log: Logger, what: string): Promise<void> {
  try {
    await port?.close();
  } catch (e) {
    log.warn({ err: e instanceof Error ? e.message : String(e), port: what }, 'a port closing at the stop failed');
  }
}

/**
 * How long a stop waits for an open in flight: a USB or TCP open that hangs must not hang the
 * agent's stop. Past it the stop resolves, and the port the open hands over later is closed then.
 */
export const OPEN_WAIT_MS = 2000;

/** Waits for `opening` to settle, at most `OPEN_WAIT_MS` on `clock`; leaves no timer behind. */
export async function openSettled(opening: Promise<void> | null, clock: Clock): Promise<void> {
  if (!opening) return;
  let timer: unknown = null;
  await Promise.race([opening, new Promise<void>((resolve) => (timer = clock.setTimeout(resolve, OPEN_WAIT_MS)))]);
  clock.clearTimeout(timer);
}
