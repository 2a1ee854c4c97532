import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const APP_DIR_NAME = 'macau-etg-kiosk';

/**
 * The kiosk's data folder (ledger database, logs): `$XDG_DATA_HOME/macau-etg-kiosk`, or
 * `~/.local/share/macau-etg-kiosk`, unless `--data-dir` names another.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_DATA_HOME && path.isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : path.join(os.homedir(), '.local', 'share');
  return path.join(base, APP_DIR_NAME);
}

/** Creates the data folder and its `logs/` readable by the kiosk user only. */
export function prepareDataDir(dir: string): { dataDir: string; logDir: string } {
  const dataDir = path.resolve(dir);
  const logDir = path.join(dataDir, 'logs');
  mkdirSync(logDir, { recursive: true, mode: 0o700 });
  return { dataDir, logDir };
}
