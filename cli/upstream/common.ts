import { UsageError } from '../tool.js';

export { defineCommand, options } from '../command.js';
export { UsageError } from '../tool.js';

export const DB_OPTIONS = {
  pg: { type: 'string', value: 'URL', help: 'PostgreSQL connection string' },
  'data-dir': { type: 'string', value: 'DIR', help: 'embedded PGlite database in DIR (instead of --pg; no server needed)' },
} as const;

/** `--pg URL` or `--data-dir DIR` (PGlite); one of them, for tools that must not guess. */
export function dbChoice(v: { pg?: unknown; 'data-dir'?: unknown }, usage: string): { pg?: string; dataDir?: string } {
  if (v.pg && v['data-dir']) throw new UsageError(`give --pg or --data-dir, not both\n${usage}`);
  if (v.pg) return { pg: String(v.pg) };
  if (v['data-dir']) return { dataDir: String(v['data-dir']) };
  throw new UsageError(`--pg URL or --data-dir DIR is required\n${usage}`);
}
