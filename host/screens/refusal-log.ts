import type { Logger } from 'pino';

/**
 * Refused screen messages, logged sampled: the first of a kind at once, then at most one line
 * per `intervalMs` for that kind, carrying how many were refused since the last line. A screen
 * flooding the host costs a few log lines a second, never one per message (a flood once wrote
 * 85 MB of warnings in a minute). One instance serves every session of a host and a kind is a
 * view and a code, so a screen that reconnects and floods again shares its budget, and one
 * screen's flood never hides another screen's refusals.
 */
export class RefusalLog {
  private readonly kinds = new Map<string, { loggedAt: number; suppressed: number }>();

  constructor(
    private readonly log: Logger,
    private readonly now: () => number = () => performance.now(),
    private readonly intervalMs = 1000,
  ) {}

  /** One refused message of `code` from a screen showing `view` (null: not yet greeted); `fields` add the session and detail. */
  refused(view: string | null, code: string, fields: Record<string, unknown>): void {
    const now = this.now();
    const key = `${view ?? '-'} ${code}`;
    const kind = this.kinds.get(key);
    if (kind && now - kind.loggedAt < this.intervalMs) {
      kind.suppressed++;
      return;
    }
    const suppressed = kind?.suppressed ?? 0;
    this.kinds.set(key, { loggedAt: now, suppressed: 0 });
    this.log.warn({ ...fields, view, code, ...(suppressed ? { suppressed } : {}) }, 'screen message refused');
  }
}
