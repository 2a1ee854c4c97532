// `npm run --silent sim -- war [--rules macau] [--set k=v …] [--decks D] [--shuffler] (--exact | --hands N [--seed S] [--threads T]) [--json]`
// Exact figures or Monte Carlo of «Desafio ao Casino»: `main` always goes to war on a tie,
// `mainSurrender` always surrenders, `tie` is the tie bet alone.
import { parseArgs } from 'node:util';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { exactWar } from '../../engine/war/exact.js';
import type { WarProfile } from '../../engine/war/profiles.js';
import { emptyWarTally, mergeWarTallies, simulateWar, summariseWar, type WarTally } from '../../engine/war/simulate.js';
import { positiveInt, remainingCounts, tsWorkerBootstrap, UsageError, warRulesFromArgs } from '../baccarat-war-args.js';

const USAGE = `usage: npm run --silent sim -- war [--rules macau] [--set key=value …] [--decks D] [--shuffler]
         (--exact [--removed "AS KH …"] | --hands N [--seed S] [--threads T]) [--json] | --print-rules`;

interface Job {
  readonly game: 'war-sim';
  readonly profile: WarProfile;
  readonly hands: number;
  readonly seed: number;
}

if (!isMainThread && (workerData as Job | undefined)?.game === 'war-sim') {
  const job = workerData as Job;
  parentPort?.postMessage(simulateWar(job.profile, job.hands, job.seed));
}

/** Thread i simulates its share with seed + i: reproducible from (seed, threads). */
async function monteCarlo(profile: WarProfile, hands: number, seed: number, threads: number): Promise<WarTally> {
  if (threads === 1) return simulateWar(profile, hands, seed);
  const parts = Array.from({ length: threads }, (_, i) => Math.floor(hands / threads) + (i < hands % threads ? 1 : 0));
  const tallies = await Promise.all(
    parts.map(
      (n, i) =>
        new Promise<WarTally>((resolve, reject) => {
          const job: Job = { game: 'war-sim', profile, hands: n, seed: (seed + i) >>> 0 };
          const w = new Worker(tsWorkerBootstrap(import.meta.url), { eval: true, workerData: job });
          w.once('message', resolve);
          w.once('error', reject);
        }),
    ),
  );
  return tallies.reduce(mergeWarTallies, emptyWarTally());
}

const pct = (x: number): string => `${x.toFixed(4)}%`;

export async function run(argv: string[]): Promise<number> {
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        rules: { type: 'string', default: 'macau' },
        set: { type: 'string', multiple: true },
        decks: { type: 'string' },
        shuffler: { type: 'boolean', default: false },
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
    if (values.shuffler) sets.push('shuffling=automatic-shuffler');
    const profile = warRulesFromArgs(values.rules, sets);
    if (values['print-rules']) {
      console.log(JSON.stringify(profile, null, 2));
      return 0;
    }
    if (values.exact === (values.hands !== undefined)) throw new UsageError('give either --exact or --hands N');
    if (values.removed !== undefined && !values.exact) throw new UsageError('--removed goes with --exact');
    if (values.exact) {
      const e = exactWar(profile, values.removed === undefined ? undefined : remainingCounts(profile.decks, values.removed));
      if (values.json) console.log(JSON.stringify(e));
      else {
        console.log(`${profile.title}, ${profile.decks} decks — exact`);
        console.log(`P(tie) ${e.probabilities.tie.toFixed(6)}`);
        for (const [bet, { houseEdge }] of Object.entries(e.bets)) console.log(`${bet.padEnd(13)} house edge ${pct(houseEdge)}`);
      }
      return 0;
    }
    const hands = positiveInt(values.hands as string, 'hands', 1e10);
    if (!/^\d+$/.test(values.seed) || Number(values.seed) > 0xffffffff) throw new UsageError(`--seed must be an integer 0–4294967295, got "${values.seed}"`);
    const threads = positiveInt(values.threads, 'threads', 64);
    const s = summariseWar(await monteCarlo(profile, hands, Number(values.seed), threads));
    if (values.json) console.log(JSON.stringify(s));
    else {
      console.log(`${profile.title}, ${profile.decks} decks, ${profile.shuffling} — Monte Carlo, ${s.hands} coups, seed ${values.seed}, ${threads} thread(s)`);
      console.log(`P(tie) ${s.probabilities.tie.toFixed(6)}`);
      for (const [bet, { houseEdge, standardError }] of Object.entries(s.bets)) console.log(`${bet.padEnd(13)} house edge ${pct(houseEdge)} ± ${pct(standardError)}`);
    }
    return 0;
  } catch (e) {
    if (e instanceof UsageError || (e instanceof TypeError && 'code' in e && String(e.code).startsWith('ERR_PARSE_ARGS'))) {
      console.error(`sim war: ${e.message}\n${USAGE}`);
      return 2;
    }
    throw e;
  }
}
