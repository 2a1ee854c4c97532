// What `etg start` was asked for, checked before anything is locked or built: a bad port, host
// option or screen list is a usage error at once, so `--help` and typos never wait for a build.
import path from 'node:path';
import { defaultDataDir } from '../../host/data-dir.js';
import { hostOptionsFromArgs, UsageError as HostUsageError } from '../../host/launch-options.js';
import { options } from '../command.js';
import { UsageError } from '../tool.js';
import { START_COMMAND } from './command.js';

/** The parsed command line, typed from START_COMMAND's definition. */
export type StartValues = ReturnType<typeof options<(typeof START_COMMAND)['options']>>;

export interface StartPlan {
  /** The command line as parsed: Electron's main is handed the host's own options from it. */
  readonly values: StartValues;
  readonly dataDir: string;
  readonly port: number;
  readonly hostOptions: ReturnType<typeof hostOptionsFromArgs>;
  /** The screens to open (`--screens`), e.g. `table`, `station/1`. */
  readonly wanted: readonly string[];
}

export function startPlan(argv: string[]): StartPlan {
  const values = options(START_COMMAND, argv);
  const dataDir = path.resolve(values['data-dir'] ?? defaultDataDir());
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a port number, not "${values.port}"`);
  let hostOptions: ReturnType<typeof hostOptionsFromArgs>;
  try {
    hostOptions = hostOptionsFromArgs(values);
  } catch (e) {
    if (e instanceof HostUsageError) throw new UsageError(e.message);
    throw e;
  }
  const wanted = values.screens
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return { values, dataDir, port, hostOptions, wanted };
}
