import { openExistingLedger, startLedgerSync } from '../../ledger/index.js';
import { lockFolderForTool } from '../folder-lock.js';
import { DATA_DIR, defineCommand, JSON_OUTPUT, options, UsageError } from './common.js';

export const command = defineCommand({
  name: 'ledger sync',
  summary:
    'Runs the upstream sync client on a kiosk\'s ledger (credentials from\n<DIR>/upstream-credentials.json, written by "etg upstream enroll"). With --until-synced\nit exits 0 once the upstream acknowledged every entry (1 if it cannot within --timeout s);\notherwise it runs until interrupted, printing the sync status every 5 s.\nThe kiosk itself syncs while it runs; this is for technicians and demonstrations.',
  usage: 'usage: etg ledger sync --data-dir DIR [--upstream URL] [--until-synced] [--json]',
  options: {
    'data-dir': DATA_DIR,
    upstream: { type: 'string', value: 'URL', help: 'the upstream service (default: the one in the credentials)' },
    'until-synced': { type: 'boolean', help: 'exit once every entry is acknowledged' },
    timeout: { type: 'string', value: 'S', help: 'with --until-synced: give up after S seconds', default: '600' },
    json: JSON_OUTPUT,
  },
});

export async function run(argv: string[]): Promise<number> {
  const v = options(command, argv);
  if (!v['data-dir']) throw new UsageError(`--data-dir is required\n${command.usage}`);
  const timeoutS = Number(v.timeout ?? '600');
  if (!Number.isFinite(timeoutS) || timeoutS <= 0) throw new UsageError(`bad --timeout\n${command.usage}`);
  const dataDir = String(v['data-dir']);
  // The host syncs its own ledger while it runs: one sync client per folder.
  const lock = lockFolderForTool(dataDir, 'etg ledger sync', 'the running host syncs its ledger itself');
  const ledger = openExistingLedger(dataDir);
  const sync = startLedgerSync({
    ledger,
    terminalId: ledger.terminalId,
    dataDir,
    idleMs: 200,
    ...(v.upstream ? { upstream: String(v.upstream) } : {}),
    onAlarm: (a) => console.error(`ALARM ${a.kind}: ${a.message}`),
  });
  const print = () => {
    const s = sync.status();
    console.log(
      v.json
        ? JSON.stringify(s)
        : `${s.state}: acked ${s.ackedSeq}/${s.headSeq}, lag ${s.lagEntries} entries ${s.lagSeconds} s${s.lastError ? `, last error: ${s.lastError}` : ''}`,
    );
    return s;
  };
  try {
    const started = Date.now();
    let stop = false;
    const onSignal = () => (stop = true);
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    let last = 0;
    while (!stop) {
      await new Promise((r) => setTimeout(r, 100));
      const s = sync.status();
      if (v['until-synced'] && s.lagEntries === 0) {
        print();
        return 0;
      }
      if (v['until-synced'] && Date.now() - started > timeoutS * 1000) {
        print();
        return 1;
      }
      if (Date.now() - last > 5000) {
        last = Date.now();
        print();
      }
    }
    print();
    return 0;
  } finally {
    await sync.stop();
    ledger.close();
    lock.release();
  }
}
