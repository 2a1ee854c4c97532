import type { Logger } from 'pino';

/**
 * What a start has started so far, each with its stop: a step that throws after others started
 * (the LAN port taken, two stations at one SAS address, the edges' NATS server refused) has them
 * stopped, the newest first, before the ledger and the folder are released. Otherwise the HTTP
 * server stayed bound, the timers ticked, and the simulated dealer dealt against a closed ledger:
 * the refused process did not exit (tests/host/start-partial-failure.test.ts). A start that ends
 * drops the list: its stop is `shutdown`'s (host/start/shutdown.ts), in the order a clean stop
 * journals in.
 */
export class StartStops {
  private readonly stops: { what: string; stop: () => void | Promise<void> }[] = [];

  constructor(private readonly log: Pick<Logger, 'error' | 'warn'>) {}

  /** `stop` is run should the start fail from here on; `what` names it in the log if it throws. */
  add(what: string, stop: () => void | Promise<void>): void {
    this.stops.push({ what, stop });
  }

  /**
   * Each stop run, the newest first; one that throws is logged and the others still run (the
   * start's own failure is the one its caller hears of).
   */
  async unwind(): Promise<void> {
    const stops = this.stops.splice(0).reverse();
    if (stops.length > 0) this.log.warn({ started: stops.map((s) => s.what) }, 'the start failed part-way: what it had started is stopped');
    for (const { what, stop } of stops) {
      try {
        await stop();
      } catch (err) {
        this.log.error({ err, what }, 'a failed start could not stop what it had started');
      }
    }
  }
}
