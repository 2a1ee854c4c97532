import { UsageError } from '../tool.js';
import { openExistingLedger, type Ledger } from '../../ledger/index.js';

export { defineCommand, options } from '../command.js';
export { UsageError } from '../tool.js';

/** Every ledger tool reads a kiosk's data folder. */
export const DATA_DIR = { type: 'string', value: 'DIR', help: "the kiosk's data folder (holds ledger.sqlite)" } as const;
export const JSON_OUTPUT = { type: 'boolean', help: 'print JSON' } as const;

/**
 * The ledger for a tool that only reads it: opened read-only, so that it is left as it was found
 * (never migrated, its head mark not rewritten, no checkpoint key made: a verification must not
 * change the evidence it verifies). The tools that write (`sync`, `demo`) open it themselves.
 * `diagnostic` tools (verify, export) open a damaged ledger too, to report on it.
 */
export function openFromArgs(dataDir: string | undefined, usage: string, diagnostic = false): Ledger {
  if (!dataDir) throw new UsageError(`--data-dir is required\n${usage}`);
  return openExistingLedger(dataDir, { tailCheck: !diagnostic, readonly: true });
}
