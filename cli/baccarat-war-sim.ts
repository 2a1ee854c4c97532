// The `sim` command of baccarat and «Desafio ao Casino»: the options both share, the exact
// calculator or a Monte Carlo spread over worker threads, and the output. Each game's module
// (`cli/sim/<game>.ts`) describes only what is its own as a `SimGame`.
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import {
  isUsageError,
  positiveInt,
  remainingCounts,
  profileOptions,
  shorthandOptions,
  shorthandSets,
  tsWorkerBootstrap,
  UsageError,
  type Shorthand,
} from './baccarat-war-args.js';
import { defineCommand, options } from './command.js';

export interface ExactFigures {
  readonly probabilities: Readonly<Record<string, number>>;
  readonly bets: Readonly<Record<string, { readonly houseEdge: number }>>;
}

export interface MonteCarloFigures {
  readonly hands: number;
  readonly probabilities: Readonly<Record<string, number>>;
  readonly bets: Readonly<Record<string, { readonly houseEdge: number; readonly standardError: number }>>;
}

export interface SimGame<P extends { readonly decks: number }, T> {
  /** The name after `sim` (`baccarat`, `war`); it also tags the worker threads' jobs. */
  readonly name: string;
  /** One line for `sim --help`. */
  readonly summary: string;
  readonly usage: string;
  readonly defaultRules: string;
  readonly shorthands?: Readonly<Record<string, Shorthand>>;
  rules(id: string, sets: readonly string[]): P;
  /** The heading of the text output, e.g. "…, 8 decks". */
  heading(profile: P): string;
  /** `counts`: rank counts A…K of the rest of a shoe (`--removed`), else a full shoe. */
  exact(profile: P, counts: number[] | undefined): ExactFigures;
  simulate(profile: P, hands: number, seed: number): T;
  emptyTally(): T;
  mergeTallies(a: T, b: T): T;
  summarise(tally: T): MonteCarloFigures;
}

interface Job<P> {
  readonly game: string;
  readonly profile: P;
  readonly hands: number;
  readonly seed: number;
}

const jobTag = (game: { readonly name: string }): string => `${game.name}-sim`;

/**
 * Call at the top level of the game's module: a worker thread started by `runSim` imports that
 * module, and this does the worker's share.
 */
export function serveSimWorker<P extends { readonly decks: number }, T>(game: SimGame<P, T>): void {
  const job = workerData as Job<P> | undefined;
  if (isMainThread || job?.game !== jobTag(game)) return;
  parentPort?.postMessage(game.simulate(job.profile, job.hands, job.seed));
}

/** Splits the hands over threads; thread i uses seed + i, so a run is reproducible from (seed, threads). */
async function monteCarlo<P extends { readonly decks: number }, T>(
  game: SimGame<P, T>,
  moduleUrl: string,
  profile: P,
  hands: number,
  seed: number,
  threads: number,
): Promise<T> {
  if (threads === 1) return game.simulate(profile, hands, seed);
  const parts = Array.from({ length: threads }, (_, i) => Math.floor(hands / threads) + (i < hands % threads ? 1 : 0));
  const tallies = await Promise.all(
    parts.map(
      (n, i) =>
        new Promise<T>((resolve, reject) => {
          const job: Job<P> = { game: jobTag(game), profile, hands: n, seed: (seed + i) >>> 0 };
          const w = new Worker(tsWorkerBootstrap(moduleUrl), { eval: true, workerData: job });
          w.once('message', resolve);
          w.once('error', reject);
        }),
    ),
  );
  return tallies.reduce((a, b) => game.mergeTallies(a, b), game.emptyTally());
}

const pct = (x: number): string => `${x.toFixed(4)}%`;

function printFigures(f: ExactFigures | MonteCarloFigures): void {
  console.log(
    Object.entries(f.probabilities)
      .map(([k, p]) => `P(${k}) ${p.toFixed(6)}`)
      .join('  '),
  );
  const width = Math.max(...Object.keys(f.bets).map((b) => b.length)) + 1;
  for (const [bet, e] of Object.entries(f.bets)) {
    console.log(`${bet.padEnd(width)} house edge ${pct(e.houseEdge)}${'standardError' in e ? ` ± ${pct(e.standardError as number)}` : ''}`);
  }
}

/** The exact figures, a `--removed` that leaves too few cards for a coup being a usage error. */
function exactOf<P extends { readonly decks: number }>(game: SimGame<P, unknown>, profile: P, removed: string | undefined): ExactFigures {
  if (removed === undefined) return game.exact(profile, undefined);
  const counts = remainingCounts(profile.decks, removed);
  try {
    return game.exact(profile, counts);
  } catch (e) {
    if (e instanceof RangeError) throw new UsageError(`--removed: ${e.message}`);
    throw e;
  }
}

/** The options of `sim <game>`: the profile's, the game's shorthands, and how to compute. */
export function simCommand<P extends { readonly decks: number }, T>(game: SimGame<P, T>) {
  return defineCommand({
    name: `sim ${game.name}`,
    summary: game.summary,
    usage: game.usage,
    options: {
      ...shorthandOptions(game.shorthands ?? {}),
      ...profileOptions(game.defaultRules),
      decks: { type: 'string', value: 'D', help: "decks in the shoe (1–16; default: the profile's)" },
      exact: { type: 'boolean', default: false, help: 'exact figures by enumeration' },
      hands: { type: 'string', value: 'N', help: 'coups to simulate (Monte Carlo)' },
      seed: { type: 'string', default: '1', value: 'S', help: 'seed of the shuffles' },
      threads: { type: 'string', default: '1', value: 'T', help: 'worker threads (1–64)' },
      'print-rules': { type: 'boolean', default: false, help: 'print the resolved profile as JSON' },
      removed: { type: 'string', value: '"AS KH …"', help: 'with --exact: the edge of the rest of a shoe once these cards are dealt' },
    },
  });
}

type SimOptions = ReturnType<typeof simCommand>['options'];

/** `sim <game> …`; `moduleUrl` is the game module's `import.meta.url` (the worker threads load it). */
export async function runSim<P extends { readonly decks: number }, T>(game: SimGame<P, T>, moduleUrl: string, argv: string[]): Promise<number> {
  const command = simCommand(game);
  const parsed = options(command, argv);
  try {
    return await simulateFromArgs(game, moduleUrl, parsed);
  } catch (e) {
    if (isUsageError(e)) throw new UsageError(`${command.name}: ${e.message}\n${command.usage}`);
    throw e;
  }
}

async function simulateFromArgs<P extends { readonly decks: number }, T>(
  game: SimGame<P, T>,
  moduleUrl: string,
  values: ReturnType<typeof options<SimOptions>>,
): Promise<number> {
  const shorthands = game.shorthands ?? {};
  const sets = [...(values.set ?? [])];
  if (values.decks !== undefined) sets.push(`decks=${positiveInt(values.decks, 'decks', 16)}`);
  sets.push(...shorthandSets(shorthands, values));
  const profile = game.rules(values.rules, sets);
  if (values['print-rules']) {
    console.log(JSON.stringify(profile, null, 2));
    return 0;
  }
  if (values.exact === (values.hands !== undefined)) throw new UsageError('give either --exact or --hands N');
  if (values.removed !== undefined && !values.exact) throw new UsageError('--removed goes with --exact');
  if (values.exact) {
    const e = exactOf(game, profile, values.removed);
    if (values.json) console.log(JSON.stringify(e));
    else {
      console.log(`${game.heading(profile)} — exact`);
      printFigures(e);
    }
    return 0;
  }
  const hands = positiveInt(values.hands as string, 'hands', 1e10);
  if (!/^\d+$/.test(values.seed) || Number(values.seed) > 0xffffffff) throw new UsageError(`--seed must be an integer 0–4294967295, got "${values.seed}"`);
  const threads = positiveInt(values.threads, 'threads', 64);
  const s = game.summarise(await monteCarlo(game, moduleUrl, profile, hands, Number(values.seed), threads));
  if (values.json) console.log(JSON.stringify(s));
  else {
    console.log(`${game.heading(profile)} — Monte Carlo, ${s.hands} coups, seed ${values.seed}, ${threads} thread(s)`);
    printFigures(s);
  }
  return 0;
}
