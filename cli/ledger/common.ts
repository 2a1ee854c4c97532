import { parseArgs, type ParseArgsConfig } from 'node:util';
import { openExistingLedger, type Ledger } from '../../ledger/index.js';

export class UsageError extends Error {}

/** Parses options (strict) or throws a UsageError carrying the usage text. */
export function options<T extends NonNullable<ParseArgsConfig['options']>>(argv: string[], opts: T, usage: string) {
  try {
    return parseArgs({ args: argv, options: { ...opts, help: { type: 'boolean' } }, strict: true, allowPositionals: false }).values;
  } catch (e) {
    throw new UsageError(`${e instanceof Error ? e.message : String(e)}\n${usage}`);
  }
}

/** Runs a tool body: usage errors → 2, ledger open failures → 1 with the reason. */
export async function tool(usage: string, body: () => Promise<number> | number): Promise<number> {
  try {
    return await body();
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(e.message);
      return 2;
    }
    console.error(`ledger: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}

/** `diagnostic` tools (verify, export) open a damaged ledger too, to report on it. */
export function openFromArgs(dataDir: string | undefined, usage: string, diagnostic = false): Ledger {
  if (!dataDir) throw new UsageError(`--data-dir is required\n${usage}`);
  return openExistingLedger(dataDir, { tailCheck: !diagnostic });
}
