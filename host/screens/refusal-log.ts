import type { Logger } from 'pino';
import { SampledLog } from '../logging/sampled-log.js';

/**
 * Refused screen messages, logged sampled: the first of a kind at once, then at most one line
 * per `intervalMs` for that kind, carrying how many were refused since the last line. A screen
 * flooding the host costs a few log lines a second, never one per message (a flood once wrote
 * 85 MB of warnings in a minute). One instance serves every session of a host and a kind is a
 * view and a code, so a screen that reconnects and floods again shares its budget, and one
 * screen's flood never hides another screen's refusals.
 */
export class RefusalLog {
  private readonly sampled: SampledLog;

  constructor(log: Logger, now: () => number = () => performance.now(), intervalMs = 1000) {
    this.sampled = new SampledLog(log, now, intervalMs);
  }

  /** One refused message of `code` from a screen showing `view` (null: not yet greeted); `fields` add the session and detail. */
  refused(view: string | null, code: string, fields: Record<string, unknown>): void {
    this.sampled.warn(`${view ?? '-'} ${code}`, { ...fields, view, code }, 'screen message refused');
  }

  /** Says every count still held back (the host is stopping). */
  close(): void {
    this.sampled.close();
  }
}
