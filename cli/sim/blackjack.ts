// `etg sim blackjack --rules <profile> [--set key=value ...] --hands N --seed S
//   --shuffle every-hand|cut-card [--workers W] --json`
// `etg sim blackjack --rules <profile> [--set …] --print-rules --json`
// `etg sim blackjack --rules <profile> [--set …] --exact [--hands N] [--json]`
//
// --exact: the exact expected value by combinatorial analysis (engine/blackjack/exact/), then a
// Monte Carlo of the same profile (--hands, default 2,000,000; 0 skips it; every-hand shuffle, as
// the exact figure is for a full shoe) set against the exact figure of the simulator's strategy.
//
// Multi-core driver of the engine's simulator (engine/blackjack/simulator.ts). The work is cut
// into fixed chunks, each seeded from (seed, chunk index) and pulled by worker threads, so the
// figures depend on the seed and not on the number of workers. This same file is the worker's
// entry point (it runs chunks when started as a worker).
import { availableParallelism } from 'node:os';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { exactBlackjack } from '../../engine/blackjack/exact/expectation.js';
import { describeRules, PROFILE_IDS, type BlackjackRules } from '../../engine/blackjack/rules.js';
import { FastBlackjack, SIM_SIDE_BETS, edge, emptyTotals, mergeTotals, type ShuffleMode, type SimTotals } from '../../engine/blackjack/simulator.js';
import { SimTables } from '../../engine/blackjack/simulator-tables.js';
import { computeStrategy, strategyChart } from '../../engine/blackjack/strategy/basic-strategy.js';
import { rulesFromArgs, UsageError } from '../blackjack-args.js';
import { defineCommand, options } from '../command.js';
import { exactReport, exactText, type MonteCarloCheck } from '../blackjack-exact-report.js';

export const command = defineCommand({
  name: 'sim blackjack',
  summary:
    'Monte Carlo of a blackjack profile with basic strategy on all cores, its rules with their articles,\n' +
    'its strategy chart, or its exact expected value (combinatorial analysis, checked against a seeded\n' +
    'simulation of --hands hands, default 2,000,000; 0 skips it).',
  usage:
    'usage: etg sim blackjack --rules <profile> [--set key=value ...] --hands N --seed S --shuffle every-hand|cut-card [--workers W] [--json]\n' +
    '       etg sim blackjack --rules <profile> [--set key=value ...] --print-rules [--json]\n' +
    '       etg sim blackjack --rules <profile> [--set key=value ...] --strategy [--json]\n' +
    '       etg sim blackjack --rules <profile> [--set key=value ...] --exact [--hands N] [--seed S] [--shuffle every-hand|cut-card] [--workers W] [--json]',
  options: {
    rules: { type: 'string', value: 'PROFILE', help: `the rule profile: ${PROFILE_IDS.join(', ')}` },
    set: { type: 'string', multiple: true, value: 'KEY=VALUE', help: "override one of the profile's options" },
    hands: { type: 'string', value: 'N', help: 'hands to simulate' },
    seed: { type: 'string', value: 'S', help: 'seed of the shuffles', default: '1' },
    shuffle: { type: 'string', value: 'every-hand|cut-card', help: 'when the shoe is shuffled (default: cut-card; every-hand with --exact)' },
    workers: { type: 'string', value: 'W', help: 'worker threads (default: every core)' },
    json: { type: 'boolean', help: 'print JSON' },
    'print-rules': { type: 'boolean', help: 'print the resolved rules with their articles' },
    strategy: { type: 'boolean', help: 'print the computed basic strategy chart' },
    exact: { type: 'boolean', help: 'the exact expected value, then a Monte Carlo check' },
  },
});

const CHUNK = 250_000;

// Workers start without the TypeScript loader this CLI runs under (Node 20 does not pass module
// hooks to workers), so a tiny boot script registers tsx's loader and then imports this file.
const TSX_API = import.meta.resolve('tsx/esm/api');
const WORKER_BOOT = `import(${JSON.stringify(TSX_API)}).then((m) => { m.register(); return import(${JSON.stringify(import.meta.url)}); });`;

interface WorkerInit {
  kind: 'blackjack-sim';
  rules: BlackjackRules;
  seed: number;
  shuffle: ShuffleMode;
}

type FromWorker = { chunk: number; totals: SimTotals } | { ready: true };

/** A 32-bit seed for chunk `c` of run seed `s` (splitmix-style mixing). */
function chunkSeed(s: number, c: number): number {
  let z = (s ^ Math.imul(c + 1, 0x9e3779b9)) >>> 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
  return (z ^ (z >>> 16)) >>> 0;
}

// The strategy is computed once per thread and its tables shared by every chunk (computing it
// per chunk cost several percent of a run).
let shared: { init: WorkerInit; tables: SimTables } | undefined;

function runChunk(init: WorkerInit, chunk: number, hands: number): SimTotals {
  if (shared?.init !== init) shared = { init, tables: new SimTables(init.rules) };
  const sim = new FastBlackjack(init.rules, chunkSeed(init.seed, chunk), shared.tables);
  const t = emptyTotals();
  sim.run(hands, init.shuffle, t);
  return t;
}

if (!isMainThread && (workerData as WorkerInit | undefined)?.kind === 'blackjack-sim') {
  const init = workerData as WorkerInit;
  parentPort?.on('message', (m: { chunk: number; hands: number } | 'stop') => {
    if (m === 'stop') {
      parentPort?.close();
      return;
    }
    parentPort?.postMessage({ chunk: m.chunk, totals: runChunk(init, m.chunk, m.hands) } satisfies FromWorker);
  });
  parentPort?.postMessage({ ready: true } satisfies FromWorker);
}

async function simulate(init: WorkerInit, hands: number, workers: number): Promise<SimTotals> {
  const chunks: { chunk: number; hands: number }[] = [];
  for (let c = 0, left = hands; left > 0; c++, left -= CHUNK) chunks.push({ chunk: c, hands: Math.min(CHUNK, left) });
  const total = emptyTotals();
  if (workers <= 1) {
    for (const c of chunks) mergeTotals(total, runChunk(init, c.chunk, c.hands));
    return total;
  }
  const queue = chunks.slice();
  await Promise.all(
    Array.from({ length: Math.min(workers, chunks.length) }, () => {
      return new Promise<void>((resolve, reject) => {
        const w = new Worker(WORKER_BOOT, { eval: true, workerData: init });
        const feed = (): void => {
          const next = queue.shift();
          if (next) w.postMessage(next);
          else {
            w.postMessage('stop');
          }
        };
        w.on('message', (m: FromWorker) => {
          if ('totals' in m) mergeTotals(total, m.totals);
          feed();
        });
        w.on('error', reject);
        w.on('exit', () => resolve());
      });
    }),
  );
  return total;
}

/** Monte Carlo hands run beside `--exact` unless --hands says otherwise. */
const EXACT_CHECK_HANDS = 2_000_000;

async function exact(init: WorkerInit, hands: number, workers: number, json: boolean): Promise<number> {
  const rules = init.rules;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const r = exactBlackjack(rules);
  const cpu = process.cpuUsage(c0);
  const time = { seconds: (performance.now() - t0) / 1000, cpuSeconds: (cpu.user + cpu.system) / 1e6 };
  let mc: MonteCarloCheck | undefined;
  if (hands > 0) {
    const t1 = performance.now();
    const t = await simulate(init, hands, workers);
    const e = edge(t.sum, t.sumSq, t.hands);
    mc = {
      hands: t.hands,
      seed: init.seed,
      shuffle: init.shuffle,
      workers,
      houseEdge: e.houseEdge,
      stdErr: e.stdErr,
      seconds: (performance.now() - t1) / 1000,
    };
  }
  const rep = exactReport(rules, r, time, mc);
  console.log(json ? JSON.stringify(rep) : exactText(rep));
  return 0;
}

function positiveInt(text: string | undefined, what: string): number {
  const n = Number(text);
  if (text === undefined || !/^\d+$/.test(text) || !Number.isSafeInteger(n) || n <= 0) throw new UsageError(`${what} must be a positive integer`);
  return n;
}

/** `--print-rules`: every rule as played, its article, its class and, for a choice, its default. */
function printRules(rules: BlackjackRules, json: boolean): number {
  const described = describeRules(rules);
  const out = {
    profile: rules.profile,
    rules: Object.fromEntries(
      Object.entries(described).map(([k, v]) => [k, { value: v.value, article: v.article, class: v.class, ...(v.choice ? { default: v.default } : {}) }]),
    ),
  };
  if (json) console.log(JSON.stringify(out));
  else
    for (const [k, v] of Object.entries(described))
      console.log(
        `${k.padEnd(26)} ${JSON.stringify(v.value).padEnd(22)} ${v.class.padEnd(14)} ${v.article}${v.choice ? ` (default ${JSON.stringify(v.default)})` : ''}`,
      );
  return 0;
}

/** `--strategy`: the basic strategy chart for the rules (infinite deck), and its expected return. */
function printStrategy(rules: BlackjackRules, json: boolean): number {
  const table = computeStrategy(rules);
  const chart = strategyChart(table);
  if (json)
    console.log(
      JSON.stringify({
        profile: rules.profile,
        columns: ['2', '3', '4', '5', '6', '7', '8', '9', 'T', 'A'],
        ...chart,
        expectedReturnInfiniteDeck: table.expectedReturn,
      }),
    );
  else {
    console.log('        2 3 4 5 6 7 8 9 T A   (H hit, S stand, D double, P split, R surrender)');
    for (const [k, row] of [...Object.entries(chart.hard), ...Object.entries(chart.soft), ...Object.entries(chart.pairs)])
      console.log(`${k.padStart(6)}  ${row.join(' ')}`);
  }
  return 0;
}

export async function run(argv: string[]): Promise<number> {
  const values = options(command, argv);
  try {
    const rules = rulesFromArgs(values.rules, values.set);
    if (values['print-rules']) return printRules(rules, values.json === true);
    if (values.strategy) return printStrategy(rules, values.json === true);
    const hands =
      values.exact && (values.hands === undefined || values.hands === '0')
        ? values.hands === '0'
          ? 0
          : EXACT_CHECK_HANDS
        : positiveInt(values.hands, '--hands');
    const seed = Number(values.seed);
    if (!/^\d+$/.test(values.seed) || !Number.isSafeInteger(seed)) throw new UsageError('--seed must be a non-negative integer');
    const shuffle = values.shuffle ?? (values.exact ? 'every-hand' : 'cut-card');
    if (shuffle !== 'every-hand' && shuffle !== 'cut-card') throw new UsageError('--shuffle must be every-hand or cut-card');
    const workers = values.workers === undefined ? availableParallelism() : positiveInt(values.workers, '--workers');
    const init: WorkerInit = { kind: 'blackjack-sim', rules, seed: seed >>> 0, shuffle };
    if (values.exact) return await exact(init, hands, workers, values.json === true);
    const t0 = performance.now();
    const t = await simulate(init, hands, workers);
    const seconds = (performance.now() - t0) / 1000;
    const main = edge(t.sum, t.sumSq, t.hands);
    const offered = new FastBlackjack(rules, 0).sideBetsOffered();
    const sideBets = Object.fromEntries(SIM_SIDE_BETS.filter((b) => offered.includes(b)).map((b) => [b, edge(t.side[b].sum, t.side[b].sumSq, t.side[b].n)]));
    const out = {
      game: 'blackjack',
      profile: rules.profile,
      rules: Object.fromEntries(Object.entries(rules).filter(([k]) => k !== 'profile')),
      hands: t.hands,
      shuffle,
      seed,
      houseEdge: main.houseEdge,
      stdErr: main.stdErr,
      handsPerSecond: Math.round(t.hands / seconds),
      workers,
      sideBets,
    };
    if (values.json) console.log(JSON.stringify(out));
    else {
      console.log(
        `${rules.profile}: ${t.hands} hands, house edge ${main.houseEdge.toFixed(3)}% ± ${main.stdErr.toFixed(3)}% (${out.handsPerSecond} hands/s on ${workers} worker(s))`,
      );
      for (const [k, v] of Object.entries(sideBets)) console.log(`  ${k.padEnd(14)} ${v.houseEdge.toFixed(3)}% ± ${v.stdErr.toFixed(3)}%`);
    }
    return 0;
  } catch (e) {
    if (e instanceof UsageError) throw new UsageError(`${command.name}: ${e.message}\n${command.usage}`);
    throw e;
  }
}
