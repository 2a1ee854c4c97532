import { existsSync } from 'node:fs';
import path from 'node:path';
import { DATA_DIR, defineCommand, openFromArgs, options, UsageError } from './common.js';

export const command = defineCommand({
  name: 'ledger backup',
  summary:
    'A consistent online copy of the ledger through SQLite\'s backup API (safe while the kiosk runs;\nnever copy ledger.sqlite, -wal or -shm by hand). Restore by placing FILE as\n<data dir>/ledger.sqlite of a stopped kiosk; "verify" it first. A start refuses a journal shorter\nthan the one it last committed (ledger.sqlite.head): removing that file with the restore accepts\nthat the entries after the backup are gone.',
  usage: 'usage: etg ledger backup --data-dir DIR --out FILE',
  options: { 'data-dir': DATA_DIR, out: { type: 'string', value: 'FILE', help: 'the copy to write (must not exist)' } },
});

export async function run(argv: string[]): Promise<number> {
  const v = options(command, argv);
  if (!v.out) throw new UsageError(`--out is required\n${command.usage}`);
  if (existsSync(v.out)) throw new UsageError(`${v.out} exists; refusing to overwrite`);
  // SQLite's own words ("the directory does not exist") named neither the folder nor the file.
  const folder = path.dirname(path.resolve(v.out));
  if (!existsSync(folder)) throw new UsageError(`no folder ${folder} to write the copy in: make it first`);
  const ledger = openFromArgs(v['data-dir'], command.usage, true);
  try {
    await ledger.backup(v.out);
    const done = { terminalId: ledger.terminalId, entries: ledger.headOf().seq, out: v.out };
    console.log(v.json ? JSON.stringify(done) : `backed up ${done.entries} entries of terminal ${done.terminalId} to ${done.out}`);
    return 0;
  } finally {
    ledger.close();
  }
}
