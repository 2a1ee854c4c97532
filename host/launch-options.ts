import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { GameKind } from '../protocol/index.js';
import { DEFAULT_GAME, gameDefaults } from '../engine/games.js';
import type { GameDefaults } from '../engine/table/game.js';
import { GAME_KINDS } from '../engine/table/vocabulary.js';
import { ConfigFileError, describeIssues, loadTableConfigFile } from './config/load-config.js';
import { simulatedTableConfig, TableConfig } from './config/table-config.js';
import { crc16 } from '../terms/validation-number.js';
import { loadRoundScript } from './autoplay/round-script.js';
import type { HostOptions } from './start-host.js';
import { DEFAULT_ROTATION } from './logging/rotating-file.js';

/** The command-line options that configure the host, shared by `npm start` and Electron's host process. */
export const HOST_ARGS = {
  game: { type: 'string' },
  config: { type: 'string' },
  seed: { type: 'string' },
  'terminal-id': { type: 'string' },
  upstream: { type: 'string' },
  /** The ledger witness's socket (docs/ledger.md, "The witness"). */
  witness: { type: 'string' },
  'sim-controls': { type: 'boolean' },
  'betting-seconds': { type: 'string' },
  'decision-seconds': { type: 'string' },
  'results-seconds': { type: 'string' },
  /** Simulated players at every station (host/autoplay/), seeded by --seed. */
  autoplay: { type: 'boolean' },
  /** The rule profile of the simulated table (default: the game's Macau profile). */
  rules: { type: 'string' },
  /** The regulator's authorisation reference of the profile's choice (a no-commission baccarat table, Art. 19). */
  authorisation: { type: 'string' },
  /**
   * A simulated Portugal blackjack table with the progressive jackpot (rules 38–50), under the
   * engine's example program: figures of no approval, for demonstrations, soaks and tests.
   */
  jackpot: { type: 'boolean' },
  /** How many stations the simulated table has (1–7; default 7). */
  stations: { type: 'string' },
  /** The size cap of logs/host.log in MiB (default 20); five rotated files are kept beside it. */
  'log-max-mb': { type: 'string' },
  /** Log lines one client (a connection's address, a screen's view) may cause a minute, after a burst of 20 (default 10). */
  'log-client-lines': { type: 'string' },
  /** A file holding the bearer token of `/metrics` (Prometheus); without it the host serves no metrics. */
  'metrics-token-file': { type: 'string' },
  /** Test only: instant simulated dealing and timers far below the table's minimums (soak, kill tests). */
  'test-timing': { type: 'boolean' },
  /** Test only: SIGKILL the process right after the K-th journal entry of its first round. */
  'test-kill-after-round-entry': { type: 'string' },
  /** Test only: a JSON round script for the first round (cards, bets, decisions; host/autoplay/round-script.ts). */
  'test-script': { type: 'string' },
  /** Test only: the simulated shoe's cut card comes out after N cards of each shoe (short shoes: many shoe changes). */
  'test-cut-card-at': { type: 'string' },
} as const;

/** The timers of `--test-timing`: short enough for thousands of rounds, long enough for simulated players to answer. */
export const TEST_TIMINGS = { bettingMs: 120, decisionMs: 150, resultsMs: 5 };
/** With a round script, a window long enough for every scripted bet of every station even on a loaded machine. */
export const TEST_SCRIPT_BETTING_MS = 600;

export type HostArgValues = { [K in keyof typeof HOST_ARGS]?: (typeof HOST_ARGS)[K]['type'] extends 'boolean' ? boolean : string };

export class UsageError extends Error {}

/**
 * The simulated table of `--jackpot`: the game's example of its progressive (blackjack's: Portugal's
 * profile, the jackpot on, the engine's example program, no approval), as the game's module says.
 */
function jackpotTable(base: TableConfig, example: NonNullable<GameDefaults['jackpotExample']>, authorisation: string | undefined): TableConfig {
  const t = simulatedTableConfig(base.game, example.profile, authorisation ?? example.authorisation);
  return { ...t, profileOptions: { ...base.profileOptions, ...example.options } };
}

/** Host options from parsed arguments; a bad value is a usage error naming the option. */
export function hostOptionsFromArgs(
  values: HostArgValues,
): Pick<
  HostOptions,
  | 'config'
  | 'seed'
  | 'terminalId'
  | 'upstream'
  | 'witness'
  | 'simControls'
  | 'autoplay'
  | 'timings'
  | 'simulatedDealer'
  | 'killAfterRoundEntry'
  | 'roundScript'
  | 'simShoeCutCardAt'
  | 'logRotation'
  | 'logClientBudget'
  | 'metricsToken'
> {
  const seed = values.seed === undefined ? undefined : Number(values.seed);
  if (seed !== undefined && !Number.isSafeInteger(seed)) throw new UsageError(`--seed must be an integer, not "${values.seed}"`);
  const config = tableFromArgs(values);
  const { logMb, clientLines, metricsToken, kill, cutCardAt } = operationsFromArgs(values);
  let roundScript: HostOptions['roundScript'];
  if (values['test-script'] !== undefined) {
    try {
      roundScript = loadRoundScript(values['test-script']);
    } catch (e) {
      throw new UsageError(e instanceof Error ? e.message : String(e));
    }
  }
  return {
    config,
    ...(seed !== undefined ? { seed } : {}),
    ...(values['terminal-id'] ? { terminalId: values['terminal-id'] } : {}),
    ...(values.upstream ? { upstream: values.upstream } : {}),
    ...(values.witness ? { witness: { socket: values.witness } } : {}),
    ...(values['sim-controls'] ? { simControls: true } : {}),
    ...(values.autoplay ? { autoplay: true } : {}),
    ...(values['test-timing']
      ? { timings: { ...TEST_TIMINGS, ...(roundScript ? { bettingMs: TEST_SCRIPT_BETTING_MS } : {}) }, simulatedDealer: { dealMs: 0 } }
      : {}),
    ...(kill !== undefined ? { killAfterRoundEntry: kill } : {}),
    ...(roundScript ? { roundScript } : {}),
    ...(cutCardAt !== undefined ? { simShoeCutCardAt: cutCardAt } : {}),
    ...(metricsToken !== undefined ? { metricsToken } : {}),
    ...(clientLines !== undefined ? { logClientBudget: { perMinute: clientLines } } : {}),
    ...(logMb !== undefined ? { logRotation: { maxBytes: Math.round(logMb * 1024 * 1024), keep: DEFAULT_ROTATION.keep } } : {}),
  };
}

/** The table the arguments ask for: a simulated one, or the configuration file's, with the flags that adjust it. */
function tableFromArgs(values: HostArgValues): TableConfig {
  const game = GameKind.safeParse(values.game ?? DEFAULT_GAME);
  if (!game.success) throw new UsageError(`--game must be ${GAME_KINDS.slice(0, -1).join(', ')} or ${GAME_KINDS.at(-1)}, not "${values.game}"`);
  let base: TableConfig;
  try {
    base = simulatedTableConfig(game.data, values.rules, values.authorisation);
  } catch (e) {
    // The profile or its options refused by the engine's guard (an analysis profile, an authorisation missing).
    if (e instanceof z.ZodError) throw new UsageError(`the simulated ${game.data} table cannot open:\n${describeIssues(e.issues)}`);
    throw e;
  }
  if (values.config !== undefined) {
    try {
      base = loadTableConfigFile(values.config);
    } catch (e) {
      if (e instanceof ConfigFileError) throw new UsageError(e.message);
      throw e;
    }
    if (values.game !== undefined && values.game !== base.game) {
      throw new UsageError(`--game ${values.game} disagrees with the configuration file, which is a ${base.game} table`);
    }
  }
  if (values.rules) base.profile = values.rules;
  if (values.authorisation) base.profileAuthorisation = values.authorisation;
  if (values.jackpot) {
    const example = gameDefaults(base.game).jackpotExample;
    if (!example || values.config !== undefined || (values.rules !== undefined && values.rules !== example.profile))
      throw new UsageError('--jackpot is a simulated Portugal blackjack table (portugal-2001 rules 38-50): no --config, --game or --rules besides');
    base = jackpotTable(base, example, values.authorisation);
  }
  if (values.stations !== undefined) {
    const n = Number(values.stations);
    if (!Number.isInteger(n) || n < 1 || n > base.stations.length)
      throw new UsageError(`--stations must be 1 to ${base.stations.length}, not "${values.stations}"`);
    base.stations = base.stations.slice(0, n);
  }
  if (values['sim-controls'] && values.config === undefined) base = withSimulatedPrinters(base, { authority: values.upstream !== undefined });
  const ms = (flag: 'betting-seconds' | 'decision-seconds' | 'results-seconds', fallback: number) => {
    const v = values[flag];
    if (v === undefined) return fallback;
    const n = Number(v);
    if (!Number.isFinite(n)) throw new UsageError(`--${flag} must be a number of seconds, not "${v}"`);
    return Math.round(n * 1000);
  };
  const config = TableConfig.safeParse({
    ...base,
    timings: {
      bettingMs: ms('betting-seconds', base.timings.bettingMs),
      decisionMs: ms('decision-seconds', base.timings.decisionMs),
      resultsMs: ms('results-seconds', base.timings.resultsMs),
    },
  });
  if (!config.success) throw new UsageError(`the table configuration is refused:\n${describeIssues(config.error.issues)}`);
  return config.data;
}

/**
 * The demonstration table (`--sim-controls`, no `--config`): a simulated TCL printer at every
 * station, so a cash-out prints a ticket (docs/tito.md). With an upstream (`authority`), the
 * validation id is the one it assigns this table (`POST /v1/tickets/machine`): any other would make
 * numbers the authority refuses as another table's, never redeemable. Without one it comes from
 * the table id (a CRC-16 of it, never 0): stable across restarts, distinct for the demo tables of
 * one machine (T-1, T-2…).
 */
export function withSimulatedPrinters(base: TableConfig, { authority }: { authority: boolean }): TableConfig {
  const crc = crc16([...Buffer.from(base.tableId)]);
  return {
    ...base,
    stations: base.stations.map((s) => ({ ...s, printer: s.printer ?? 'sim' })),
    tickets: { ...base.tickets, ...(authority ? {} : { machineId: base.tickets.machineId ?? crc + 1 }) },
  };
}

/** The log's rotation and client budget, the metrics token and the test's kill point, each checked. */
function operationsFromArgs(values: HostArgValues): { logMb?: number; clientLines?: number; metricsToken?: string; kill?: number; cutCardAt?: number } {
  const logMb = values['log-max-mb'] === undefined ? undefined : Number(values['log-max-mb']);
  if (logMb !== undefined && !(Number.isFinite(logMb) && logMb >= 0.001 && logMb <= 4096))
    throw new UsageError(`--log-max-mb must be a size in MiB from 0.001 to 4096, not "${values['log-max-mb']}"`);
  const clientLines = values['log-client-lines'] === undefined ? undefined : Number(values['log-client-lines']);
  if (clientLines !== undefined && !(Number.isInteger(clientLines) && clientLines >= 1 && clientLines <= 10_000))
    throw new UsageError(`--log-client-lines must be a whole number of lines a minute from 1 to 10000, not "${values['log-client-lines']}"`);
  let metricsToken: string | undefined;
  if (values['metrics-token-file'] !== undefined) {
    try {
      metricsToken = readFileSync(values['metrics-token-file'], 'utf8').trim();
    } catch (e) {
      throw new UsageError(`--metrics-token-file: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (metricsToken.length < 16) throw new UsageError('--metrics-token-file must hold a token of at least 16 characters');
  }
  const kill = values['test-kill-after-round-entry'] === undefined ? undefined : Number(values['test-kill-after-round-entry']);
  if (kill !== undefined && !(Number.isInteger(kill) && kill >= 1)) throw new UsageError(`--test-kill-after-round-entry must be a positive integer`);
  const cutCardAt = values['test-cut-card-at'] === undefined ? undefined : Number(values['test-cut-card-at']);
  if (cutCardAt !== undefined && !(Number.isInteger(cutCardAt) && cutCardAt >= 1)) throw new UsageError('--test-cut-card-at must be a positive integer');
  return {
    ...(logMb !== undefined ? { logMb } : {}),
    ...(clientLines !== undefined ? { clientLines } : {}),
    ...(metricsToken !== undefined ? { metricsToken } : {}),
    ...(kill !== undefined ? { kill } : {}),
    ...(cutCardAt !== undefined ? { cutCardAt } : {}),
  };
}

/** The same options written back as `--key=value` arguments, to forward to another process. */
export function hostArgsToForward(values: HostArgValues): string[] {
  return Object.keys(HOST_ARGS).flatMap((key) => {
    const v = values[key as keyof HostArgValues];
    if (v === undefined || v === false) return [];
    return [v === true ? `--${key}` : `--${key}=${v}`];
  });
}
