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

/** Runs hosts until the rounds are closed; how many times one was killed and restarted. */
export async function runHosts(plan: SoakPlan, log: LogPeak, say: (s: string) => void): Promise<number> {
  const v = plan.values;
  const watch = new LedgerWatch(plan.dataDir);
  // The kill lands a seeded random moment after the M-th round closed: in the next betting window,
  // mid-deal, at a decision, at the settlement — not always at the same step.
  const jitter = Rng.fromSeed(plan.seed ^ 0x5eed);
  let restarts = 0;
  // With tickets, the validation authority the players' tickets are asked of: an upstream in this process.
  const tableId = v.jackpot ? null : simulatedTableConfig(plan.game).tableId;
  const upstream = v.tickets && tableId ? await soakUpstream(plan.dataDir, tableId) : null;
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
        await child.kill('SIGTERM');
        break;
      }
      await sleep(jitter.below(600));
      await child.kill('SIGKILL');
      restarts++;
      say(`killed at ${until.closed} rounds; restarting (${restarts})`);
    }
  } finally {
    watch.close();
    await upstream?.close();
  }
  return restarts;
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
