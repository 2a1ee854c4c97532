// `etg soak --campaign`: kill trials over all three games and both blackjack jurisdictions, with
// the other faults of the simulation (cli/sim-faults/) around them, and one table of the results.
// A trial is one kill of the host at a seeded journal write (before or after its commit), then
// the start on the same ledger file that recovers from it. The kills are simulated in process at
// the journal's writes, where a SIGKILL lands as far as the ledger can tell (a commit is atomic);
// the OS-level SIGKILL of a host process is `etg soak --kill-every M`.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { FAULT_KINDS } from '../sim-faults/faults.js';
import { simulate, TABLES } from '../sim-faults/simulate.js';

export interface CampaignResult {
  trials: number;
  seeds: number;
  byTable: Record<string, number>;
  faults: Record<string, number>;
  lostCredits: number;
  duplicatedCredits: number;
  ledgerFailures: number;
  otherViolations: number;
  failingSeeds: number[];
  recoverMs: { p50: number; p99: number };
  seconds: number;
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** Runs seeds from `from`, a table each in turn, until `trials` kills have been recovered from. */
export async function campaign(o: { trials: number; from: number; steps: number; progress?: (s: string) => void }): Promise<CampaignResult> {
  const t0 = Date.now();
  const faults = new Map<string, number>(FAULT_KINDS.map((k) => [k, 0]));
  const byTable = new Map<string, number>();
  const recover: number[] = [];
  let trials = 0;
  let seeds = 0;
  let lost = 0;
  let duplicated = 0;
  let ledgerFailures = 0;
  let other = 0;
  const failing: number[] = [];
  for (let seed = o.from; trials < o.trials; seed++) {
    const table = seeds % TABLES.length;
    const r = await simulate({ seed, steps: o.steps, table, killRate: 1, maxKills: 12 });
    seeds++;
    const kills = r.starts - 1;
    trials += kills;
    const name = `${r.game} ${r.profile}`;
    byTable.set(name, (byTable.get(name) ?? 0) + kills);
    for (const [k, n] of r.faults) faults.set(k, (faults.get(k) ?? 0) + n);
    // The first start is not a recovery from a kill.
    recover.push(...r.recoverMs.slice(1));
    lost += r.notes.lost;
    duplicated += r.notes.duplicated;
    const verify = r.violations.filter((v) => /verif|hash|journal entry|upstream/.test(v)).length;
    ledgerFailures += verify;
    other += r.violations.length - verify - (r.notes.lost > 0 || r.notes.duplicated > 0 ? r.notes.lost + r.notes.duplicated : 0);
    if (r.violations.length > 0) failing.push(seed);
    if (seeds % 20 === 0) o.progress?.(`${seeds} seeds, ${trials} kill trials`);
  }
  recover.sort((a, b) => a - b);
  return {
    trials,
    seeds,
    byTable: Object.fromEntries(byTable),
    faults: Object.fromEntries(faults),
    lostCredits: lost,
    duplicatedCredits: duplicated,
    ledgerFailures,
    otherViolations: Math.max(0, other),
    failingSeeds: failing,
    recoverMs: { p50: percentile(recover, 50), p99: percentile(recover, 99) },
    seconds: (Date.now() - t0) / 1000,
  };
}

/** The campaign's one table, as printed. */
export function campaignTable(r: CampaignResult): string {
  const rows: [string, string][] = [
    ['trials (kills)', String(r.trials)],
    ...Object.entries(r.byTable).map(([t, n]): [string, string] => [`  ${t}`, String(n)]),
    ...Object.entries(r.faults)
      .filter(([k]) => !k.startsWith('kill-'))
      .map(([k, n]): [string, string] => [`fault ${k}`, String(n)]),
    ...Object.entries(r.faults)
      .filter(([k]) => k.startsWith('kill-'))
      .map(([k, n]): [string, string] => [`fault ${k}`, String(n)]),
    ['lost credits', String(r.lostCredits)],
    ['duplicated credits', String(r.duplicatedCredits)],
    ['ledger failures', String(r.ledgerFailures)],
    ['other violations', String(r.otherViolations)],
    ['recover p50 (ms)', r.recoverMs.p50.toFixed(1)],
    ['recover p99 (ms)', r.recoverMs.p99.toFixed(1)],
    ['seeds', `${r.seeds}${r.failingSeeds.length > 0 ? ` (failing: ${r.failingSeeds.join(' ')})` : ''}`],
    ['wall time (s)', r.seconds.toFixed(1)],
  ];
  const w = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(w)}  ${v}`).join('\n');
}

export interface SigkillResult {
  trials: number;
  byTable: Record<string, number>;
  failures: string[];
  seconds: number;
}

/**
 * OS-level SIGKILL trials beside the simulated ones: `etg soak` as a child per table (the autoplay
 * host as its own child, killed with SIGKILL every `killEvery` rounds and restarted on the same
 * data), each soak's money and ledger checked by the soak itself.
 */
export async function sigkillTrials(o: { rounds: number; killEvery: number; seed: number; progress?: (s: string) => void }): Promise<SigkillResult> {
  const t0 = Date.now();
  const root = path.resolve(import.meta.dirname, '../..');
  const byTable: Record<string, number> = {};
  const failures: string[] = [];
  let trials = 0;
  for (const t of TABLES) {
    const name = `${t.game} ${t.profile}`;
    const args = ['bin/etg.js', 'soak', '--game', t.game, '--rules', t.profile, '--rounds', String(o.rounds), '--kill-every', String(o.killEvery)];
    const r = spawnSync(process.execPath, [...args, '--seed', String(o.seed), '--stations', '2', '--json'], { cwd: root, encoding: 'utf8' });
    const line = r.stdout.trim().split('\n').at(-1) ?? '';
    let out: { restarts?: unknown; conserved?: unknown; ledgerVerified?: unknown } = {};
    try {
      out = JSON.parse(line) as typeof out;
    } catch {
      failures.push(`${name}: the soak printed no result (exit ${String(r.status)}): ${r.stderr.slice(-400)}`);
      continue;
    }
    const restarts = typeof out.restarts === 'number' ? out.restarts : 0;
    byTable[name] = restarts;
    trials += restarts;
    if (out.conserved !== true || out.ledgerVerified !== true)
      failures.push(`${name}: conserved ${String(out.conserved)}, ledger verified ${String(out.ledgerVerified)}`);
    o.progress?.(`SIGKILL soak ${name}: ${restarts} kills`);
  }
  return { trials, byTable, failures, seconds: (Date.now() - t0) / 1000 };
}

/** The SIGKILL rows of the campaign's table. */
export function sigkillRows(r: SigkillResult): string {
  const rows: [string, string][] = [
    ['SIGKILL trials (process)', String(r.trials)],
    ...Object.entries(r.byTable).map(([t, n]): [string, string] => [`  ${t}`, String(n)]),
    ['SIGKILL soak failures', String(r.failures.length)],
    ['SIGKILL wall time (s)', r.seconds.toFixed(1)],
  ];
  const w = Math.max(...rows.map(([k]) => k.length));
  return [...rows.map(([k, v]) => `${k.padEnd(w)}  ${v}`), ...r.failures.map((f) => `  ${f}`)].join('\n');
}
