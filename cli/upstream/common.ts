import { parseArgs, type ParseArgsConfig } from 'node:util';

export class UsageError extends Error {}

export const DB_OPTIONS = {
  pg: { type: 'string' },
  'data-dir': { type: 'string' },
} as const;

export function options<T extends NonNullable<ParseArgsConfig['options']>>(argv: string[], opts: T, usage: string) {
  try {
    return parseArgs({ args: argv, options: { ...opts, help: { type: 'boolean' } }, strict: true, allowPositionals: false }).values;
  } catch (e) {
    throw new UsageError(`${e instanceof Error ? e.message : String(e)}\n${usage}`);
  }
}

export async function tool(body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(e.message);
      return 2;
    }
    console.error(`upstream: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}

/** `--pg URL` or `--data-dir DIR` (PGlite); one of them, for tools that must not guess. */
export function dbChoice(v: { pg?: unknown; 'data-dir'?: unknown }, usage: string): { pg?: string; dataDir?: string } {
  if (v.pg && v['data-dir']) throw new UsageError(`give --pg or --data-dir, not both\n${usage}`);
  if (v.pg) return { pg: String(v.pg) };
  if (v['data-dir']) return { dataDir: String(v['data-dir']) };
  throw new UsageError(`--pg URL or --data-dir DIR is required\n${usage}`);
}
