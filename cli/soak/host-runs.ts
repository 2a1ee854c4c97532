// The soak's hosts: the autoplay host as a child process on the soak's data folder until the
// table has closed its rounds, killed with SIGKILL every M rounds (a seeded moment after the M-th
// round closed) and started again on the same folder.
import { statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { Rng } from '../../engine/random/seeded-rng.js';
import { simulatedTableConfig } from '../../host/config/table-config.js';
import { HostChild, LedgerWatch, type HostChildOptions } from './child.js';
import type { SoakPlan } from './plan.js';
import { logSince } from './stall-report.js';
import { soakUpstream } from './upstream.js';

/** A host that stops closing rounds for this long is stuck: the soak says so rather than wait forever. */
const STALL_MS = 60_000;

/** The host's log file, whose size the soak samples as it runs: the largest it grew. */
export class LogPeak {
  peak = 0;
  constructor(readonly file: string) {}

  sample(): void {
    try {
      this.peak = Math.max(this.peak, statSync(this.file).size);
    } catch {
      // Not written yet.
    }
  }
}

/**
 * The hosts run from the script this soak runs from: bin/etg.js as users start it, or the same
 * command line bundled when a test starts the soak (tests/children/bundle.ts).
 */
function hostChild(o: HostChildOptions): HostChild {
  return new HostChild(process.argv[1] ? { ...o, etg: process.argv[1] } : o);
}

/**
 * With tickets, a kill that came due waits this long at most for a cash-out's ticket to be
 * printing, and lands then: a kill mid-print leaves a ticket the restarted printer cannot judge
 * (held for a person), the fault a soak once stopped on (docs/tito.md). None printing in that
 * time, the kill lands anyway.
 */
const MID_PRINT_WAIT_MS = 5_000;

/** How long the soak's last host may take, its rounds closed, to end the tickets issued before then (printed, voided, or settled by the attendant). */
const HELD_WAIT_MS = 15_000;

/** Runs hosts until the rounds are closed; how many times one was killed and restarted, and of those how many while a ticket printed. */
export async function runHosts(
  plan: SoakPlan,
  log: LogPeak,
  say: (s: string) => void,
): Promise<{ restarts: number; killsMidPrint: number; upstreamAlarms: Record<string, number> | null }> {
  const v = plan.values;
  const watch = new LedgerWatch(plan.dataDir);
  // The kill lands a seeded random moment after the M-th round closed: in the next betting window,
  // mid-deal, at a decision, at the settlement — not always at the same step.
  const jitter = Rng.fromSeed(plan.seed ^ 0x5eed);
  let restarts = 0;
  let killsMidPrint = 0;
  // With tickets, the validation authority the players' tickets are asked of: an upstream in this process.
  const tableId = v.jackpot ? null : simulatedTableConfig(plan.game).tableId;
  const upstream = v.tickets && tableId ? await soakUpstream(plan.dataDir, tableId) : null;
  let upstreamAlarms: Record<string, number> | null;
  try {
    for (;;) {
      const child = hostChild({
        dataDir: plan.dataDir,
        game: plan.game,
        ...(v.rules ? { rules: v.rules } : {}),
        stations: plan.stations,
        seed: plan.seed + restarts,
        extra: [
          ...(plan.logMb !== undefined ? [`--log-max-mb=${plan.logMb}`] : []),
          ...(v.jackpot ? ['--jackpot'] : []),
          ...(v.authorisation ? [`--authorisation=${v.authorisation}`] : []),
          ...(plan.cutCardAt !== null ? [`--test-cut-card-at=${plan.cutCardAt}`] : []),
          // A simulated printer at every station (docs/tito.md): cash-outs print tickets the players insert elsewhere.
          ...(upstream ? ['--sim-controls', `--upstream=${upstream.url}`] : []),
        ],
      });
      const started = await child.started;
      if (!started) throw new Error(`the host did not start:\n${child.errors()}`);
      const until = await watchHost(child, watch, plan, log);
      if (until.reason === 'done') {
        // A ticket a kill left held is settled by the simulated attendant once the restarted
        // printer has answered (its settle time, 5 s): the soak's last host waits for that.
        if (upstream && !(await ticketsEnded(watch, HELD_WAIT_MS))) say(`tickets still in print after ${HELD_WAIT_MS / 1000} s: stopping the host anyway`);
        await child.kill('SIGTERM');
        upstreamAlarms = upstream ? await upstream.alarms() : null;
        break;
      }
      const printing = upstream ? await ticketPrinting(watch) : null;
      await sleep(jitter.below(printing === null ? 600 : 300));
      // Said only if the ticket is still printing as the kill goes out (a print takes about 0.7 s here).
      const midPrint = printing !== null && (watch.printing(printing) ?? 0) > 0;
      await child.kill('SIGKILL');
      restarts++;
      if (midPrint) killsMidPrint++;
      say(`killed at ${until.closed} rounds${midPrint ? ' while a ticket printed' : ''}; restarting (${restarts})`);
    }
  } finally {
    watch.close();
    await upstream?.close();
  }
  return { restarts, killsMidPrint, upstreamAlarms };
}

/** Waits (`ms` at most) until no ticket issued so far is in print; whether none is. */
async function ticketsEnded(watch: LedgerWatch, ms: number): Promise<boolean> {
  watch.closedRounds();
  const head = watch.head;
  const until = Date.now() + ms;
  for (;;) {
    if (watch.printing(0, head) === 0) return true;
    if (Date.now() >= until) return false;
    await sleep(50);
  }
}

/** Waits (MID_PRINT_WAIT_MS at most) for a ticket issued from now on to be printing: the seq it was issued after, or null if none was. */
async function ticketPrinting(watch: LedgerWatch): Promise<number | null> {
  watch.closedRounds();
  const from = watch.head;
  const until = Date.now() + MID_PRINT_WAIT_MS;
  while (Date.now() < until) {
    if ((watch.printing(from) ?? 0) > 0) return from;
    await sleep(10);
  }
  return null;
}

/**
 * Watches a started host's rounds close (every 20 ms) until the soak's rounds are closed
 * (`done`) or its kill is due (`kill`); a host stuck for STALL_MS is killed and one that exited
 * is an error.
 */
async function watchHost(child: HostChild, watch: LedgerWatch, plan: SoakPlan, log: LogPeak): Promise<{ reason: 'done' | 'kill'; closed: number }> {
  const from = watch.closedRounds();
  let last = from;
  let lastAt = Date.now();
  for (;;) {
    await sleep(20);
    log.sample();
    const closed = watch.closedRounds();
    if (closed !== last) {
      last = closed;
      lastAt = Date.now();
    }
    if (closed >= plan.rounds) return { reason: 'done', closed: last };
    if (plan.killEvery !== null && closed - from >= plan.killEvery) return { reason: 'kill', closed: last };
    if (Date.now() - lastAt > STALL_MS) {
      await child.kill('SIGKILL');
      throw new Error(`no round closed for ${STALL_MS / 1000} s (at ${closed} rounds); the host logged since: ${logSince(log.file, lastAt)}`);
    }
    if (child.process.exitCode !== null || child.process.signalCode !== null) throw new Error(`the host exited:\n${child.errors()}`);
  }
}
