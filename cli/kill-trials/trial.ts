// One SIGKILL trial: a target on the table's data folder killed at a seeded moment (15% during
// its start, aimed inside a typical start; else while it plays), then the restart that recovers
// and its checks.
import type { Rng } from '../../engine/random/seeded-rng.js';
import { percentiles } from './percentiles.js';
import { restartAndCheck } from './restart-check.js';
import type { TableRun } from './table-runs.js';
import type { CampaignTally } from './tally.js';
import { runTarget, type KillMoment } from './target-run.js';

/** What every trial of a campaign shares. */
export interface TrialSetup {
  readonly seed: number;
  /** The campaign's number of trials: each table's last trial syncs and checks its upstream. */
  readonly trials: number;
  /** The longest a target plays before its kill (ms). */
  readonly maxPlayMs: number;
  /** Verify the ledger from its first entry every this many trials. */
  readonly fullVerifyEvery: number;
  /** How a target is run: the bundle, or its source through tsx. */
  readonly target: { readonly execArgv: readonly string[]; readonly entry: string };
  readonly tables: number;
  readonly rng: Rng;
}

/** The seeded moment of this trial's kill. */
function killMoment(setup: TrialSetup, tally: CampaignTally): KillMoment {
  const duringStart = setup.rng.below(100) < 15;
  const ms = duringStart ? setup.rng.below(Math.max(1, Math.round(tally.typicalStart))) : setup.rng.below(setup.maxPlayMs + 1);
  return { duringStart, ms };
}

/** Trial number `trial` on `run`'s table, its kill and its restart's findings added to `tally`. */
export async function runTrial(trial: number, run: TableRun, setup: TrialSetup, tally: CampaignTally): Promise<void> {
  const { target } = setup;
  const r = await runTarget(
    {
      node: process.execPath,
      args: [...target.execArgv, target.entry, run.dir, run.game, run.profile, String(setup.seed * 100_000 + trial), run.upstream.url()],
    },
    killMoment(setup, tally),
  );
  const ready = r.ready;
  if (r.early) {
    tally.early++;
    tally.violations.push(`trial ${trial} (${run.game} ${run.profile}): the target exited before its kill: ${r.stderr}`);
  } else tally.kills[ready === null ? 'sigkill-during-start' : 'sigkill-during-play']++;
  if (ready !== null) {
    tally.starts.push(ready.startMs);
    tally.loads.push(ready.loadMs);
    tally.typicalStart = percentiles(tally.starts).p50;
    if (!ready.verified) tally.violations.push(`trial ${trial} (${run.game} ${run.profile}): the target's start did not verify the ledger`);
  }
  run.trials++;
  const last = trial > setup.trials - setup.tables;
  const c = await restartAndCheck(run, trial, { full: last || trial % setup.fullVerifyEvery === 0, sync: last }, tally);
  if (last) {
    tally.stacked += c.stacked;
    tally.upstreamExact &&= c.upstreamExact;
  }
}
