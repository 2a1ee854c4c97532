// What `etg soak` (one table, not the campaign) was asked for, checked before any host starts: a
// bad number, game, rule profile or log cap is the user's error (exit 2, naming it), not a host
// child that never starts.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { tableGame } from '../../engine/games.js';
import type { GameKind } from '../../engine/table/vocabulary.js';
import { DEFAULT_ROTATION } from '../../host/logger.js';
import type { options } from '../command.js';
import { UsageError } from '../tool.js';
import { SOAK_COMMAND } from './command.js';

/** The parsed command line, typed from SOAK_COMMAND's definition. */
export type SoakValues = ReturnType<typeof options<(typeof SOAK_COMMAND)['options']>>;

export interface SoakPlan {
  readonly values: SoakValues;
  readonly game: GameKind;
  readonly rounds: number;
  readonly stations: number;
  readonly seed: number;
  /** Kill the host with SIGKILL every this many rounds (none: it runs to the end). */
  readonly killEvery: number | null;
  readonly cutCardAt: number | null;
  readonly dataDir: string;
  /** `--log-max-mb` as given (passed on to the host), and the cap in bytes it means. */
  readonly logMb: string | undefined;
  readonly logCap: number;
}

/** An integer option of at least `min`; absent, `fallback` (or a usage error when it has none). */
function int(name: string, value: string | undefined, fallback: number | null, min: number): number {
  if (value === undefined) {
    if (fallback === null) throw new UsageError(`--${name} is required\n${SOAK_COMMAND.usage}`);
    return fallback;
  }
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be an integer of at least ${min}, not "${value}"`);
  return n;
}

/** The game asked for (`--jackpot` is Portugal blackjack), its rule profile and authorised choice checked. */
function gameOf(v: SoakValues): GameKind {
  if (v.jackpot && ((v.game !== undefined && v.game !== 'blackjack') || (v.rules !== undefined && v.rules !== 'portugal-2001')))
    throw new UsageError('--jackpot plays Portugal blackjack (portugal-2001 rules 38-50)');
  const game = v.jackpot ? 'blackjack' : (v.game ?? '');
  if (game !== 'blackjack' && game !== 'baccarat' && game !== 'war') throw new UsageError(`--game must be blackjack, baccarat or war\n${SOAK_COMMAND.usage}`);
  if (v.rules !== undefined && !v.jackpot) {
    try {
      tableGame(game, v.rules, v.authorisation ? { authorisation: v.authorisation } : {});
    } catch (e) {
      throw new UsageError(`--rules ${v.rules}: ${e instanceof Error ? e.message : String(e)}${v.authorisation ? '' : ' (--authorisation REF)'}`);
    }
  }
  return game;
}

/** The soak's plan; the data folder is a new temporary one unless `--data-dir` names one. */
export function soakPlan(v: SoakValues): SoakPlan {
  const game = gameOf(v);
  const rounds = int('rounds', v.rounds, null, 1);
  const stations = int('stations', v.stations, 3, 1);
  const seed = int('seed', v.seed, 1, 0);
  const killEvery = v['kill-every'] === undefined ? null : int('kill-every', v['kill-every'], null, 1);
  const cutCardAt = v['cut-card-at'] === undefined ? null : int('cut-card-at', v['cut-card-at'], null, 1);
  const dataDir = v['data-dir'] ? path.resolve(v['data-dir']) : mkdtempSync(path.join(os.tmpdir(), 'soak-'));
  const logMb = v['log-max-mb'];
  if (logMb !== undefined && !(Number(logMb) >= 0.001)) throw new UsageError(`--log-max-mb must be a size in MiB of at least 0.001, not "${logMb}"`);
  const logCap = logMb === undefined ? DEFAULT_ROTATION.maxBytes : Math.round(Number(logMb) * 1024 * 1024);
  return { values: v, game, rounds, stations, seed, killEvery, cutCardAt, dataDir, logMb, logCap };
}
