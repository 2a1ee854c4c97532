import { existsSync } from 'node:fs';
import { openFromArgs, options, tool, UsageError } from './common.js';

const USAGE = `Usage: npm run --silent ledger -- backup --data-dir DIR --out FILE
  A consistent online copy of the ledger through SQLite's backup API (safe while the kiosk runs;
  never copy ledger.sqlite, -wal or -shm by hand). Restore by placing FILE as
  <data dir>/ledger.sqlite of a stopped kiosk; "verify" it first.`;

export function run(argv: string[]): Promise<number> {
  return tool(async () => {
    const v = options(argv, { 'data-dir': { type: 'string' }, out: { type: 'string' } }, USAGE);
    if (!v.out) throw new UsageError(`--out is required\n${USAGE}`);
    if (existsSync(String(v.out))) throw new UsageError(`${String(v.out)} exists; refusing to overwrite`);
    const ledger = openFromArgs(v['data-dir'] as string | undefined, USAGE, true);
    try {
      await ledger.backup(String(v.out));
      console.log(`backed up ${ledger.headOf().seq} entries of terminal ${ledger.terminalId} to ${String(v.out)}`);
      return 0;
    } finally {
      ledger.close();
    }
  });
}
