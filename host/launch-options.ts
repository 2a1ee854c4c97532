import { GameKind } from '../protocol/index.js';
import { ConfigFileError, describeIssues, loadTableConfigFile } from './config/load-config.js';
import { simulatedTableConfig, TableConfig } from './config/table-config.js';
import type { HostOptions } from './start-host.js';

/** The command-line options that configure the host, shared by `npm start` and Electron's host process. */
export const HOST_ARGS = {
  game: { type: 'string' },
  config: { type: 'string' },
  seed: { type: 'string' },
  'terminal-id': { type: 'string' },
  upstream: { type: 'string' },
  'sim-controls': { type: 'boolean' },
  'betting-seconds': { type: 'string' },
  'decision-seconds': { type: 'string' },
  'results-seconds': { type: 'string' },
} as const;

export type HostArgValues = { [K in keyof typeof HOST_ARGS]?: (typeof HOST_ARGS)[K]['type'] extends 'boolean' ? boolean : string };

export class UsageError extends Error {}

/** Host options from parsed arguments; a bad value is a usage error naming the option. */
export function hostOptionsFromArgs(values: HostArgValues): Pick<HostOptions, 'config' | 'seed' | 'terminalId' | 'upstream' | 'simControls'> {
  const game = GameKind.safeParse(values.game ?? 'blackjack');
  if (!game.success) throw new UsageError(`--game must be blackjack, baccarat or war, not "${values.game}"`);
  const seed = values.seed === undefined ? undefined : Number(values.seed);
  if (seed !== undefined && !Number.isSafeInteger(seed)) throw new UsageError(`--seed must be an integer, not "${values.seed}"`);
  let base = simulatedTableConfig(game.data);
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
  if (!config.success) throw new UsageError(`timers out of range:\n${describeIssues(config.error.issues)}`);
  return {
    config: config.data,
    ...(seed !== undefined ? { seed } : {}),
    ...(values['terminal-id'] ? { terminalId: values['terminal-id'] } : {}),
    ...(values.upstream ? { upstream: values.upstream } : {}),
    ...(values['sim-controls'] ? { simControls: true } : {}),
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
