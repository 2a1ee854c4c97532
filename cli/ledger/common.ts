import { runTool, UsageError } from '../tool.js';
import { openExistingLedger, type Ledger } from '../../ledger/index.js';

export { options, UsageError } from '../tool.js';

/** Runs a ledger tool body: usage errors → 2, ledger open failures → 1 with the reason. */
export function tool(body: () => Promise<number> | number): Promise<number> {
  return runTool('ledger', body);
}

/** `diagnostic` tools (verify, export) open a damaged ledger too, to report on it. */
export function openFromArgs(dataDir: string | undefined, usage: string, diagnostic = false): Ledger {
  if (!dataDir) throw new UsageError(`--data-dir is required\n${usage}`);
  return openExistingLedger(dataDir, { tailCheck: !diagnostic });
}
