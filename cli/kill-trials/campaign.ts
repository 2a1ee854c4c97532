// OS-level SIGKILL trials, cheap enough for thousands: a small kill-target process (target.ts,
// bundled once) opens a table's real ledger file and recovers, plays and inserts notes until this
// process SIGKILLs it at a seeded moment; then this process opens the file again (the restart that
// recovers, with the acceptors' power-up), checks the invariants against the acceptors' record
// files, and starts the next target. The four tables take turns, each on its own data folder and
// its own upstream, so every trial after the first four lands on a ledger that has lived through
// all the kills before it.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Rng } from '../../engine/random/seeded-rng.js';
import { bundleTarget, targetThroughTsx } from './bundle.js';
import { percentiles } from './percentiles.js';
import { closeTableRuns, openTableRuns } from './table-runs.js';
import { emptyTally, type CampaignTally, type FoundKind, type KillKind } from './tally.js';
import { runTarget } from './target-run.js';
import { runTrial, type TrialSetup } from './trial.js';
import { UpstreamServer } from './upstream-server.js';

export { FOUND_KINDS, KILL_KINDS, type FoundKind, type KillKind } from './tally.js';

export interface KillCampaignOptions {
  trials: number;
  seed: number;
  /** The longest a target plays before its kill (ms after it is in play; default 200). */
  maxPlayMs?: number;
  /** Run the target through tsx instead of the bundle (the start-cost baseline). */
  tsx?: boolean;
  /** Keep the data here (default: a temporary folder, removed after unless a trial failed). */
  dir?: string;
  /** Verify every ledger from its first entry every this many trials (default 50; always at the end). */
  fullVerifyEvery?: number;
  progress?: (line: string) => void;
}

export interface KillCampaignResult {
  trials: number;
  byTable: Record<string, number>;
  kills: Record<KillKind, number>;
  /** What the restarts after the kills met, by kind (a kill may leave several). */
  found: Record<FoundKind, number>;
  lostCredits: number;
  duplicatedCredits: number;
  ledgerFailures: number;
  /** Every violation, with its trial. */
  violations: string[];
  /** Targets that exited before their kill (a crash of the host). */
  earlyExits: number;
  notesStacked: number;
  roundsClosed: number;
  journalEntries: number;
  /** The upstream held exactly each table's journal at the end. */
  upstreamExact: boolean;
  /** The restart that recovers, in this process: open, verify, fold, resume, the acceptors' power-up (ms). */
  recoverMs: { p50: number; p99: number };
  /** A target's start, process start to table in play (ms), and the part spent loading modules. */
  targetStartMs: { p50: number; p99: number };
  targetLoadMs: { p50: number; p99: number };
  how: 'bundle' | 'tsx';
  seconds: number;
}

export async function killCampaign(o: KillCampaignOptions): Promise<KillCampaignResult> {
  const t0 = performance.now();
  const bundle = o.tsx ? null : await bundleTarget();
  const base = o.dir ?? mkdtempSync(path.join(existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir(), 'kill-trials-'));
  const runs = await openTableRuns(base);
  const setup: TrialSetup = {
    seed: o.seed,
    trials: o.trials,
    maxPlayMs: o.maxPlayMs ?? 200,
    fullVerifyEvery: o.fullVerifyEvery ?? 50,
    target: bundle ? { execArgv: [], entry: bundle.file } : targetThroughTsx(),
    tables: runs.length,
    rng: Rng.fromSeed(o.seed),
  };
  const tally = emptyTally();
  for (let trial = 1; trial <= o.trials; trial++) {
    const run = runs[(trial - 1) % runs.length];
    if (!run) break;
    await runTrial(trial, run, setup, tally);
    if (trial % 50 === 0)
      o.progress?.(
        `${trial} trials, ${tally.violations.length} violations, ${((performance.now() - t0) / 1000).toFixed(0)} s (target start p50 ${tally.typicalStart.toFixed(0)} ms)`,
      );
  }
  const closed = await closeTableRuns(runs);
  // A table that had trials and whose upstream holds nothing was never checked against it.
  if (!closed.everyUpstreamHeld) tally.upstreamExact = false;
  bundle?.dispose();
  const failed = tally.violations.length > 0;
  if (!o.dir && !failed) rmSync(base, { recursive: true, force: true });
  else if (failed) o.progress?.(`data kept in ${base}`);
  return {
    trials: o.trials,
    byTable: Object.fromEntries(runs.map((r) => [`${r.game} ${r.profile}`, r.trials])),
    ...resultOf(tally),
    roundsClosed: closed.rounds,
    journalEntries: closed.entries,
    how: o.tsx ? 'tsx' : 'bundle',
    seconds: (performance.now() - t0) / 1000,
  };
}

/** The tally's part of the result. */
function resultOf(t: CampaignTally): Omit<KillCampaignResult, 'trials' | 'byTable' | 'roundsClosed' | 'journalEntries' | 'how' | 'seconds'> {
  return {
    kills: t.kills,
    found: t.found,
    lostCredits: t.lost,
    duplicatedCredits: t.duplicated,
    ledgerFailures: t.ledgerFailures,
    violations: t.violations,
    earlyExits: t.early,
    notesStacked: t.stacked,
    upstreamExact: t.upstreamExact,
    recoverMs: percentiles(t.recover),
    targetStartMs: percentiles(t.starts),
    targetLoadMs: percentiles(t.loads),
  };
}

/** The campaign's one table, as printed. */
export function killCampaignTable(r: KillCampaignResult): string {
  const f = (x: number) => x.toFixed(1);
  const rows: [string, string][] = [
    ['SIGKILL trials (processes)', String(r.trials)],
    ...Object.entries(r.byTable).map(([t, n]): [string, string] => [`  ${t}`, String(n)]),
    ...Object.entries(r.kills).map(([k, n]): [string, string] => [`fault ${k}`, String(n)]),
    ...Object.entries(r.found).map(([k, n]): [string, string] => [`found ${k}`, String(n)]),
    ['target exited before its kill', String(r.earlyExits)],
    ['lost credits', String(r.lostCredits)],
    ['duplicated credits', String(r.duplicatedCredits)],
    ['ledger failures', String(r.ledgerFailures)],
    ['violations (every kind)', String(r.violations.length)],
    ['upstream holds exactly the journal', r.upstreamExact ? 'yes' : 'NO'],
    ['notes stacked / rounds closed / entries', `${r.notesStacked} / ${r.roundsClosed} / ${r.journalEntries}`],
    ['recover p50 / p99 (ms)', `${f(r.recoverMs.p50)} / ${f(r.recoverMs.p99)}`],
    [`target start p50 / p99 (ms, ${r.how})`, `${f(r.targetStartMs.p50)} / ${f(r.targetStartMs.p99)}`],
    ['  of which loading modules', `${f(r.targetLoadMs.p50)} / ${f(r.targetLoadMs.p99)}`],
    ['wall time (s)', f(r.seconds)],
  ];
  const w = Math.max(...rows.map(([k]) => k.length));
  return [...rows.map(([k, v]) => `${k.padEnd(w)}  ${v}`), ...r.violations.slice(0, 20).map((v) => `  ${v}`)].join('\n');
}

export interface StartCost {
  starts: number;
  bundle: { p50: number; p99: number };
  tsx: { p50: number; p99: number };
  /** tsx p50 / bundle p50. */
  ratio: number;
}

/**
 * A target's start cost, bundled beside the same target through tsx (the baseline), measured in
 * the same run and interleaved so that the machine's load falls on both alike: each start is a
 * fresh process on a fresh data folder, killed once it says it is in play.
 */
export async function measureTargetStart(o: { starts: number }): Promise<StartCost> {
  const bundle = await bundleTarget();
  const bundled = bundle.file;
  const tsx = targetThroughTsx();
  const base = mkdtempSync(path.join(existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir(), 'kill-start-'));
  const upstream = await UpstreamServer.listen('KILL-1');
  const times = { bundle: [] as number[], tsx: [] as number[] };
  try {
    for (let i = 0; i < o.starts * 2; i++) {
      const how = i % 2 === 0 ? 'bundle' : 'tsx';
      const dir = path.join(base, String(i));
      mkdirSync(dir);
      const args = how === 'bundle' ? [bundled] : [...tsx.execArgv, tsx.entry];
      const r = await runTarget({ node: process.execPath, args: [...args, dir, 'war', 'macau', String(i), upstream.url()] }, { duringStart: false, ms: 0 });
      if (r.ready === null) throw new Error(`a ${how} target did not start: ${r.stderr.slice(-600)}`);
      times[how].push(r.ready.startMs);
    }
  } finally {
    bundle.dispose();
    await upstream.close();
    rmSync(base, { recursive: true, force: true });
  }
  const bundledP = percentiles(times.bundle);
  const tsxP = percentiles(times.tsx);
  return { starts: o.starts, bundle: bundledP, tsx: tsxP, ratio: tsxP.p50 / Math.max(1e-9, bundledP.p50) };
}

export function startCostRows(c: StartCost): string {
  const f = (x: number) => x.toFixed(1);
  return [
    `target start, same run, ${c.starts} each (ms p50 / p99):`,
    `  bundled (what the campaign runs)  ${f(c.bundle.p50)} / ${f(c.bundle.p99)}`,
    `  through tsx (baseline)            ${f(c.tsx.p50)} / ${f(c.tsx.p99)}`,
    `  tsx / bundled (p50)               ${c.ratio.toFixed(2)}`,
  ].join('\n');
}
