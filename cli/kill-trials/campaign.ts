// OS-level SIGKILL trials, cheap enough for thousands: a small kill-target process (target.ts,
// bundled once) opens a table's real ledger file and recovers, plays and inserts notes until this
// process SIGKILLs it at a seeded moment; then this process opens the file again (the restart that
// recovers, with the acceptors' power-up), checks the invariants against the acceptors' record
// files, and starts the next target. The four tables take turns, each on its own data folder and
// its own upstream, so every trial after the first four lands on a ledger that has lived through
// all the kills before it.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { withTableGame } from '../../engine/games.js';
import type { GameKind } from '../../engine/table/vocabulary.js';
import { Rng } from '../../engine/random/seeded-rng.js';
import { TABLES } from '../sim-faults/tables.js';
import { bundleTarget, targetThroughTsx } from './bundle.js';
import { checkAfterRestart, JournalTally } from './invariants.js';
import { readDeviceTruth } from './device-record.js';
import { deviceFile, openTableHost, trialConfig } from './table-host.js';
import type { TargetReady } from './target.js';
import { UpstreamServer } from './upstream-server.js';

/** Where a kill landed: before the target said it was in play (mid-recovery), or while it played. */
export const KILL_KINDS = ['sigkill-during-start', 'sigkill-during-play'] as const;
export type KillKind = (typeof KILL_KINDS)[number];

/**
 * What a restart found the kill had left: a stacked note whose credit the device still owed (its
 * credit journalled or not), a note in escrow (returned at power-up), a round in play (resumed)
 * or one voided by the recovery rules.
 */
export const FOUND_KINDS = ['credit-owed-at-restart', 'escrow-returned-at-power-up', 'round-resumed', 'round-voided'] as const;
export type FoundKind = (typeof FOUND_KINDS)[number];

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

function percentiles(xs: number[]): { p50: number; p99: number } {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
  return { p50: at(50), p99: at(99) };
}

interface TableRun {
  game: GameKind;
  profile: string;
  dir: string;
  upstream: UpstreamServer;
  tally: JournalTally;
  trials: number;
}

interface TargetExit {
  ready: TargetReady | null;
  /** The target ended on its own (not by our kill). */
  early: boolean;
  stderr: string;
}

/** One target: started, killed at the seeded moment, reaped. */
async function runTarget(cmd: { node: string; args: string[] }, killAt: { duringStart: boolean; ms: number }): Promise<TargetExit> {
  const child = spawn(cmd.node, cmd.args, { stdio: ['ignore', 'pipe', 'pipe'] });
  // A crash's first lines say what was thrown; its last lines say where: keep both.
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    const all = stderr + d.toString();
    stderr = all.length <= 4000 ? all : `${all.slice(0, 2000)}\n…\n${all.slice(-2000)}`;
  });
  let killed = false;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let ready: TargetReady | null = null;
  const kill = () => {
    if (killed || child.exitCode !== null || child.signalCode !== null) return;
    killed = true;
    child.kill('SIGKILL');
  };
  if (killAt.duringStart) setTimeout(kill, killAt.ms);
  const lines = createInterface({ input: child.stdout });
  lines.on('line', (line) => {
    if (ready !== null || !line.startsWith('{"ready"')) return;
    ready = JSON.parse(line) as TargetReady;
    if (!killAt.duringStart) setTimeout(kill, killAt.ms);
  });
  await exited;
  lines.close();
  return { ready, early: !killed, stderr };
}

export async function killCampaign(o: KillCampaignOptions): Promise<KillCampaignResult> {
  const t0 = performance.now();
  const rng = Rng.fromSeed(o.seed);
  const maxPlay = o.maxPlayMs ?? 200;
  const fullEvery = o.fullVerifyEvery ?? 50;
  const bundle = o.tsx ? null : await bundleTarget();
  const entry = bundle ? { execArgv: [], entry: bundle.file } : targetThroughTsx();
  const base = o.dir ?? mkdtempSync(path.join(existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir(), 'kill-trials-'));
  const runs: TableRun[] = [];
  for (const [i, t] of TABLES.entries()) {
    const dir = path.join(base, `${i}-${t.game}-${t.profile}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    runs.push({ game: t.game, profile: t.profile, dir, upstream: await UpstreamServer.listen('KILL-1'), tally: new JournalTally(), trials: 0 });
  }
  const kills: Record<KillKind, number> = { 'sigkill-during-start': 0, 'sigkill-during-play': 0 };
  const found: Record<FoundKind, number> = { 'credit-owed-at-restart': 0, 'escrow-returned-at-power-up': 0, 'round-resumed': 0, 'round-voided': 0 };
  const recover: number[] = [];
  const starts: number[] = [];
  const loads: number[] = [];
  const violations: string[] = [];
  let lost = 0;
  let duplicated = 0;
  let ledgerFailures = 0;
  let early = 0;
  let stacked = 0;
  let upstreamExact = true;
  // A target's typical start, to aim the kills during start inside it (updated as starts come in).
  let typicalStart = 300;

  const restartAndCheck = async (run: TableRun, trial: number, full: boolean, sync: boolean): Promise<{ stacked: number; upstreamExact: boolean }> =>
    withTableGame(run.game, run.profile, {}, async (def) => {
      for (const station of trialConfig(run.game, run.profile).stations.map((s) => s.station)) {
        const truth = readDeviceTruth(deviceFile(run.dir, station), `BA-${station}`);
        found['credit-owed-at-restart'] += truth.owed.length;
        found['escrow-returned-at-power-up'] += [...truth.notes.values()].filter((n) => n.where === 'escrow').length;
      }
      const host = openTableHost(def, { dir: run.dir, game: run.game, profile: run.profile, ...(sync ? { upstream: run.upstream.url() } : {}) });
      recover.push(host.recoverMs);
      if (host.found.resumedRound) found['round-resumed']++;
      found['round-voided'] += host.found.voided;
      const c = checkAfterRestart({
        ledger: host.ledger,
        dir: run.dir,
        stations: host.stations,
        tally: run.tally,
        verifiedAtStart: host.verifiedAtStart,
        problems: host.problems,
        full,
      });
      let upstreamExact = true;
      if (sync && host.sync) {
        for (let i = 0; i < 10_000; i++) if ((await host.sync.syncOnce()) === 'empty') break;
        const head = host.ledger.headOf().seq;
        const held = run.upstream.model.entries;
        upstreamExact = held.length === head && held.every((u) => host.ledger.entry(u.seq)?.hash === u.hash) && run.upstream.model.stats.alarms.length === 0;
        if (!upstreamExact)
          c.violations.push(`the upstream holds ${held.length} entries (alarms: ${run.upstream.model.stats.alarms.join(', ') || 'none'}), the journal ${head}`);
      }
      await host.close();
      for (const v of c.violations) violations.push(`trial ${trial} (${run.game} ${run.profile}): ${v}`);
      lost += c.lost;
      duplicated += c.duplicated;
      if (c.ledgerFailure) ledgerFailures++;
      return { stacked: c.stacked, upstreamExact };
    });

  for (let trial = 1; trial <= o.trials; trial++) {
    const run = runs[(trial - 1) % runs.length];
    if (!run) break;
    const duringStart = rng.below(100) < 15;
    const ms = duringStart ? rng.below(Math.max(1, Math.round(typicalStart))) : rng.below(maxPlay + 1);
    const r = await runTarget(
      { node: process.execPath, args: [...entry.execArgv, entry.entry, run.dir, run.game, run.profile, String(o.seed * 100_000 + trial), run.upstream.url()] },
      { duringStart, ms },
    );
    const ready: TargetReady | null = r.ready;
    if (r.early) {
      early++;
      violations.push(`trial ${trial} (${run.game} ${run.profile}): the target exited before its kill: ${r.stderr}`);
    } else kills[ready === null ? 'sigkill-during-start' : 'sigkill-during-play']++;
    if (ready !== null) {
      starts.push(ready.startMs);
      loads.push(ready.loadMs);
      typicalStart = percentiles(starts).p50;
      if (!ready.verified) violations.push(`trial ${trial} (${run.game} ${run.profile}): the target's start did not verify the ledger`);
    }
    run.trials++;
    const last = trial > o.trials - runs.length;
    const c = await restartAndCheck(run, trial, last || trial % fullEvery === 0, last);
    if (last) {
      stacked += c.stacked;
      upstreamExact &&= c.upstreamExact;
    }
    if (trial % 50 === 0)
      o.progress?.(
        `${trial} trials, ${violations.length} violations, ${((performance.now() - t0) / 1000).toFixed(0)} s (target start p50 ${typicalStart.toFixed(0)} ms)`,
      );
  }
  let rounds = 0;
  let entries = 0;
  for (const run of runs) {
    rounds += run.tally.rounds;
    await withTableGame(run.game, run.profile, {}, (def) => {
      const host = openTableHost(def, { dir: run.dir, game: run.game, profile: run.profile });
      entries += host.ledger.headOf().seq;
      return host.close();
    });
    // A table that had trials and whose upstream holds nothing was never checked against it.
    if (run.trials > 0 && run.upstream.model.entries.length === 0) upstreamExact = false;
    await run.upstream.close();
  }
  bundle?.dispose();
  const failed = violations.length > 0;
  if (!o.dir && !failed) rmSync(base, { recursive: true, force: true });
  else if (failed) o.progress?.(`data kept in ${base}`);
  return {
    trials: o.trials,
    byTable: Object.fromEntries(runs.map((r) => [`${r.game} ${r.profile}`, r.trials])),
    kills,
    found,
    lostCredits: lost,
    duplicatedCredits: duplicated,
    ledgerFailures,
    violations,
    earlyExits: early,
    notesStacked: stacked,
    roundsClosed: rounds,
    journalEntries: entries,
    upstreamExact,
    recoverMs: percentiles(recover),
    targetStartMs: percentiles(starts),
    targetLoadMs: percentiles(loads),
    how: o.tsx ? 'tsx' : 'bundle',
    seconds: (performance.now() - t0) / 1000,
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
