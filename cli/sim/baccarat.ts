// `npm run --silent sim -- baccarat [--rules P] [--set k=v …] [--decks D] (--exact | --hands N [--seed S] [--threads T]) [--json]`
// Exact enumeration or Monte Carlo of the baccarat bets; the work is engine code, this file only
// parses, spreads Monte Carlo over worker threads and prints.
import { parseArgs } from 'node:util';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { exactBaccarat } from '../../engine/baccarat/exact.js';
import type { BaccaratProfile } from '../../engine/baccarat/profiles.js';
import { emptyTally, mergeTallies, simulateBaccarat, summariseBaccarat, type BaccaratTally } from '../../engine/baccarat/simulate.js';
import { baccaratRulesFromArgs, positiveInt, remainingCounts, tsWorkerBootstrap, UsageError } from '../baccarat-war-args.js';

const USAGE = `usage: npm run --silent sim -- baccarat [--rules macau-commission|macau-no-commission] [--set key=value …] [--decks D]
         (--exact [--removed "AS KH …"] | --hands N [--seed S] [--threads T]) [--json] | --print-rules`;

interface Job {
  readonly game: 'baccarat-sim';
  readonly profile: BaccaratProfile;
  readonly hands: number;
  readonly seed: number;
}

if (!isMainThread && (workerData as Job | undefined)?.game === 'baccarat-sim') {
  const job = workerData as Job;
  parentPort?.postMessage(simulateBaccarat(job.profile, job.hands, job.seed));
}

/** Splits the hands over threads; thread i uses seed + i, so a run is reproducible from (seed, threads). */
async function monteCarlo(profile: BaccaratProfile, hands: number, seed: number, threads: number): Promise<BaccaratTally> {
  if (threads === 1) return simulateBaccarat(profile, hands, seed);
  const parts = Array.from({ length: threads }, (_, i) => Math.floor(hands / threads) + (i < hands % threads ? 1 : 0));
  const tallies = await Promise.all(
    parts.map(
      (n, i) =>
        new Promise<BaccaratTally>((resolve, reject) => {
          const job: Job = { game: 'baccarat-sim', profile, hands: n, seed: (seed + i) >>> 0 };
          const w = new Worker(tsWorkerBootstrap(import.meta.url), { eval: true, workerData: job });
          w.once('message', resolve);
          w.once('error', reject);
        }),
    ),
  );
  return tallies.reduce(mergeTallies, emptyTally());
}

const pct = (x: number): string => `${x.toFixed(4)}%`;

export async function run(argv: string[]): Promise<number> {
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        rules: { type: 'string', default: 'macau-commission' },
        set: { type: 'string', multiple: true },
        decks: { type: 'string' },
        exact: { type: 'boolean', default: false },
        hands: { type: 'string' },
        seed: { type: 'string', default: '1' },
        threads: { type: 'string', default: '1' },
        json: { type: 'boolean', default: false },
        'print-rules': { type: 'boolean', default: false },
        removed: { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    });
    const sets = [...(values.set ?? [])];
    if (values.decks !== undefined) sets.push(`decks=${positiveInt(values.decks, 'decks', 16)}`);
    const profile = baccaratRulesFromArgs(values.rules, sets);
    if (values['print-rules']) {
      console.log(JSON.stringify(profile, null, 2));
      return 0;
    }
    if (values.exact === (values.hands !== undefined)) throw new UsageError('give either --exact or --hands N');
    if (values.removed !== undefined && !values.exact) throw new UsageError('--removed goes with --exact');
    if (values.exact) {
      const e = exactBaccarat(profile, values.removed === undefined ? undefined : remainingCounts(profile.decks, values.removed));
      if (values.json) console.log(JSON.stringify(e));
      else {
        console.log(`${profile.title}, ${profile.decks} decks — exact`);
        console.log(`P(banker) ${e.probabilities.banker.toFixed(6)}  P(player) ${e.probabilities.player.toFixed(6)}  P(tie) ${e.probabilities.tie.toFixed(6)}`);
        for (const [bet, { houseEdge }] of Object.entries(e.bets)) console.log(`${bet.padEnd(11)} house edge ${pct(houseEdge)}`);
      }
      return 0;
    }
    const hands = positiveInt(values.hands as string, 'hands', 1e10);
    if (!/^\d+$/.test(values.seed) || Number(values.seed) > 0xffffffff) throw new UsageError(`--seed must be an integer 0–4294967295, got "${values.seed}"`);
    const threads = positiveInt(values.threads, 'threads', 64);
    const s = summariseBaccarat(await monteCarlo(profile, hands, Number(values.seed), threads));
    if (values.json) console.log(JSON.stringify(s));
    else {
      console.log(`${profile.title}, ${profile.decks} decks — Monte Carlo, ${s.hands} coups, seed ${values.seed}, ${threads} thread(s)`);
      console.log(`P(banker) ${s.probabilities.banker.toFixed(6)}  P(player) ${s.probabilities.player.toFixed(6)}  P(tie) ${s.probabilities.tie.toFixed(6)}`);
      for (const [bet, { houseEdge, standardError }] of Object.entries(s.bets)) console.log(`${bet.padEnd(11)} house edge ${pct(houseEdge)} ± ${pct(standardError)}`);
    }
    return 0;
  } catch (e) {
    if (e instanceof UsageError || (e instanceof TypeError && 'code' in e && String(e.code).startsWith('ERR_PARSE_ARGS'))) {
      console.error(`sim baccarat: ${e.message}\n${USAGE}`);
      return 2;
    }
    throw e;
  }
}
