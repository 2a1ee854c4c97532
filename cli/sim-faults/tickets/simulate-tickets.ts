import { faultHooks } from './fault-hooks.js';
import { floorChore, noteAmount, secondCopy, stopFaults, takePaper, walletTicket } from './floor-step.js';
import { TicketFloor } from './floor.js';
import { checkTickets, type TicketTally } from './invariants.js';
import { note, pickSite, pickStation, startRun } from './ticket-run.js';

// One seed, one run of a floor that prints and takes tickets under faults (issue 47), in the
// manner of simulate.ts: the seed draws which faults the run meets and how often (swarm testing),
// and every step. Faults: kills at the tables' journal writes (before or after the commit, at any
// start, recovery included); printers that jam, run out of paper, say printed when they jammed,
// print twice, or are printing when their host dies; an authority that answers late, never,
// twice, loses the request or the answer; acceptors' power-ups after each kill. Then the faults
// stop, every journal syncs, the players present every ticket they hold, and the invariants
// (invariants.ts) are checked. Its parts: the run and its swarm (ticket-run.ts), the faults the
// floor meets (fault-hooks.ts), what a step does that waits for nothing (floor-step.ts).

export interface TicketSimOptions {
  seed: number;
  steps?: number;
  /** Tables of the floor (default 2). */
  tables?: number;
  maxKills?: number;
  /** The harness's own check: a flawed authority that approves a ticket already pending (it must be found). */
  flaw?: 'approve-pending';
}

export interface TicketSimResult {
  seed: number;
  steps: number;
  starts: number;
  kills: number;
  faults: Record<string, number>;
  tally: TicketTally;
  trace: string[];
  violations: string[];
}

/**
 * The steps and the end are awaited here, in one function, every call to a host where it always
 * was: held answers are delivered in the background, and a helper that awaited would give them
 * a turn more, so that their draws from the seed's stream would come in another order.
 */
export async function simulateTickets(o: TicketSimOptions): Promise<TicketSimResult> {
  const steps = o.steps ?? 200;
  const run = startRun(o.seed, o.maxKills ?? 12);
  const floor = new TicketFloor(o.tables ?? 2, faultHooks(run), o.flaw ?? null);
  try {
    await floor.open();
    for (run.step = 1; run.step <= steps; run.step++) {
      const r = run.rng.below(100);
      const s = pickSite(run, floor);
      const st = pickStation(run);
      if (r < 22) await floor.insertNote(s, st, noteAmount(run));
      else if (r < 42) note(run, `cash-out ${s.name}/${st}: ${await floor.cashOut(s, st)}`);
      else if (r < 55) takePaper(run, floor, s, st);
      else if (r < 77) {
        const t = walletTicket(run, floor);
        if (t) note(run, `insert ${t.n}${t.forged ? ' (never issued)' : ''} at ${s.name}/${st}: ${await floor.insertTicket(s, st, t.n)}`);
      } else if (r < 80) {
        const copy = secondCopy(run, floor, s);
        if (copy) {
          const [a, b] = await Promise.all([floor.insertTicket(s, st, copy.n), floor.insertTicket(copy.other, pickStation(run), copy.n)]);
          note(run, `insert ${copy.n} at ${s.name} and ${copy.other.name} at once: ${a}, ${b}`);
        }
      } else floorChore(run, floor, r, s, st);
    }
    // The end: the players present every ticket they hold, twice over; then the invariants.
    stopFaults(run, floor);
    for (let pass = 0; pass < 2; pass++)
      for (const n of [...floor.wallet]) {
        const r = await floor.insertTicket(pickSite(run, floor), pickStation(run), n);
        note(run, `last insert ${n}: ${r}`);
        for (const s of floor.sites) floor.sync(s);
      }
    const tally: TicketTally = checkTickets(floor, (s) => run.violations.push(`end: ${s}`));
    return {
      seed: o.seed,
      steps: run.step - 1,
      starts: floor.sites.reduce((a, s) => a + s.starts, 0),
      kills: floor.sites.reduce((a, s) => a + s.kills, 0),
      faults: run.faults,
      tally,
      trace: run.trace,
      violations: run.violations,
    };
  } finally {
    await floor.close();
  }
}
