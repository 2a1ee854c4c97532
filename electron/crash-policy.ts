/**
 * What to do when a screen's renderer dies: reload it (its state lives in the host, so a reload
 * loses nothing), unless it keeps dying, in which case relaunch the whole app. A screen stuck in
 * a crash loop is worse than a clean restart that the technician sees in the log.
 */
export class CrashBreaker {
  private readonly crashes: number[] = [];

  constructor(
    private readonly maxCrashes = 3,
    private readonly windowMs = 60_000,
  ) {}

  /** Records a crash at `now` (ms) and says whether to reload this window or relaunch the app. */
  onCrash(now: number): 'reload' | 'relaunch' {
    this.crashes.push(now);
    while (this.crashes.length && (this.crashes[0] ?? 0) <= now - this.windowMs) this.crashes.shift();
    return this.crashes.length > this.maxCrashes ? 'relaunch' : 'reload';
  }
}

/** `clean-exit` is a normal close (e.g. app quit), not a crash. */
export function isCrash(reason: string): boolean {
  return reason !== 'clean-exit';
}
