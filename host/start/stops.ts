import type { Logger } from 'pino';

/**
 * When a stop runs, in the order a clean stop runs them (each phase whole before the next):
 * - `watches`: what only looks or counts (the fault count, the disk, the table clock, the file check);
 * - `rounds`: what makes rounds, the simulated players, attendant and dealer, the floor, the table;
 * - `service`: service mode, whoever is signed in journalled out, its held exits tried once more;
 * - `listeners`: the edges, the transfers, the LAN and HTTP listeners, the screens' refusals said,
 *   the remote acceptors: no input comes in after this phase;
 * - `devices`: the SAS links, the printers, the bill acceptors, the shoe;
 * - `faults`: no device left to speak, the faults closed (a clear still waiting dropped) and the
 *   signals that raise them taken back;
 * - `accounts`: the service accounts' database, once no request can reach it;
 * - `ledger`: the sync, the witness (flushed first), the ledger closed, no WAL left;
 * - `folder`: the power marker (clean only once the ledger is closed), the folder's lock.
 */
export const STOP_PHASES = ['watches', 'rounds', 'service', 'listeners', 'devices', 'faults', 'accounts', 'ledger', 'folder'] as const;
export type StopPhase = (typeof STOP_PHASES)[number];

interface Stop {
  phase: StopPhase;
  what: string;
  stop: () => unknown;
}

/**
 * The host's one list of what it has started, each with its stop, put there by the step that
 * started it, once. A start that fails part-way (the LAN port taken, two stations at one SAS
 * address, the edges' NATS server refused) runs it (`unwind`), and so does a clean stop
 * (`stopAll`, host/start/shutdown.ts): the same stops, phase by phase in `STOP_PHASES`' order
 * and, within a phase, the newest first. Before, the start kept this list for its failure and
 * the shutdown a list of its own: a timer added to one and not the other was left ticking by a
 * host that started and stopped (tests/host/start-partial-failure.test.ts, clean-shutdown.test.ts).
 *
 * Each stop runs whatever the one before did, its failure logged: one that throws (service mode's
 * exits refused by a full journal) left the devices, the ledger, the folder's lock unclosed.
 */
export class StartStops {
  private readonly stops: Stop[] = [];

  constructor(private readonly log: Pick<Logger, 'error' | 'warn'>) {}

  /** `stop` is run at the host's stop, or should its start fail from here on, in `phase`; `what` names it. */
  add(phase: StopPhase, what: string, stop: () => unknown): void {
    this.stops.push({ phase, what, stop });
  }

  /** What a stop now would run, in its order (the names given to `add`). */
  order(): string[] {
    return this.ordered(this.stops).map((s) => s.what);
  }

  /** The start failed: every stop run, said in the log first; the start's own failure is the one its caller hears of. */
  async unwind(): Promise<void> {
    const stops = this.ordered(this.stops.splice(0));
    if (stops.length > 0) this.log.warn({ started: stops.map((s) => s.what) }, 'the start failed part-way: what it had started is stopped');
    await this.run(stops, 'a failed start could not stop what it had started');
  }

  /** A clean stop: every stop run; what was stopped, in order, and how many failed. Never rejects; a second call finds nothing to stop. */
  async stopAll(): Promise<{ stopped: string[]; failed: number }> {
    const stops = this.ordered(this.stops.splice(0));
    const failed = await this.run(stops, 'the host stopping: a step failed; the others still run');
    return { stopped: stops.map((s) => s.what), failed };
  }

  private ordered(stops: readonly Stop[]): Stop[] {
    const newestFirst = [...stops].reverse();
    return STOP_PHASES.flatMap((phase) => newestFirst.filter((s) => s.phase === phase));
  }

  private async run(stops: readonly Stop[], failed: string): Promise<number> {
    let failures = 0;
    for (const { what, stop } of stops)
      try {
        await stop();
      } catch (err) {
        failures++;
        this.log.error({ err, what }, failed);
      }
    return failures;
  }
}
