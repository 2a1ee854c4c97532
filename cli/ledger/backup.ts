import { existsSync } from 'node:fs';
import { DATA_DIR, defineCommand, openFromArgs, options, tool, UsageError } from './common.js';

export const command = defineCommand({
  name: 'ledger backup',
  summary:
    'A consistent online copy of the ledger through SQLite\'s backup API (safe while the kiosk runs;\nnever copy ledger.sqlite, -wal or -shm by hand). Restore by placing FILE as\n<data dir>/ledger.sqlite of a stopped kiosk; "verify" it first.',
  usage: 'Usage: npm run --silent ledger -- backup --data-dir DIR --out FILE',
  options: { 'data-dir': DATA_DIR, out: { type: 'string', value: 'FILE', help: 'the copy to write (must not exist)' } },
});

export function run(argv: string[]): Promise<number> {
  return tool(async () => {
    const v = options(command, argv);
    if (!v.out) throw new UsageError(`--out is required\n${command.usage}`);
    if (existsSync(String(v.out))) throw new UsageError(`${String(v.out)} exists; refusing to overwrite`);
    const ledger = openFromArgs(v['data-dir'] as string | undefined, command.usage, true);
    try {
      await ledger.backup(String(v.out));
      console.log(`backed up ${ledger.headOf().seq} entries of terminal ${ledger.terminalId} to ${String(v.out)}`);
      return 0;
    } finally {
      ledger.close();
    }
  });
}
