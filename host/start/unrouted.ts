import type { Logger } from 'pino';
import { FloorClock } from '../tickets/floor-clock.js';
import type { SyncEvents, WitnessEvents } from './opened.js';

/**
 * The sync client's signals before the table exists: it starts first, and its signals are routed
 * once the table does (host/start/signals.ts). An order that comes before then waits: the upstream
 * sends it again at the next heartbeat.
 */
export function unroutedSyncEvents(log: Logger): SyncEvents {
  return {
    stopNewBets: (_stop: boolean) => undefined as void,
    clean: true,
    health: (): unknown => ({ starting: true }),
    configOrders: (_answer: unknown) => undefined as void,
    alarm: (alarm) => log.error({ alarm }, 'upstream sync alarm'),
    clock: new FloorClock(),
  };
}

/** The witness's signals before the tilts exist: nothing to stop or raise yet (routed by host/start/signals.ts). */
export function unroutedWitnessEvents(): WitnessEvents {
  return { stop: (_stop: boolean): void => undefined, alarm: (): void => undefined };
}
