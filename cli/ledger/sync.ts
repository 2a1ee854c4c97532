import { openExistingLedger, startLedgerSync } from '../../ledger/index.js';
import { options, tool, UsageError } from './common.js';

const USAGE = `Usage: npm run --silent ledger -- sync --data-dir DIR [--upstream URL] [--until-synced] [--json]
  Runs the upstream sync client on a kiosk's ledger (credentials from
  <DIR>/upstream-credentials.json, written by "npm run upstream -- enroll"). With --until-synced
  it exits 0 once the upstream acknowledged every entry (1 if it cannot within --timeout s,
  default 600); otherwise it runs until interrupted, printing the sync status every 5 s.
  The kiosk itself syncs while it runs; this is for technicians and demonstrations.`;

export function run(argv: string[]): Promise<number> {
  return tool(async () => {
    const v = options(
      argv,
      {
        'data-dir': { type: 'string' },
        upstream: { type: 'string' },
        'until-synced': { type: 'boolean' },
        timeout: { type: 'string' },
        json: { type: 'boolean' },
      },
      USAGE,
    );
    if (!v['data-dir']) throw new UsageError(`--data-dir is required\n${USAGE}`);
    const timeoutS = Number(v.timeout ?? '600');
    if (!Number.isFinite(timeoutS) || timeoutS <= 0) throw new UsageError(`bad --timeout\n${USAGE}`);
    const dataDir = String(v['data-dir']);
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
    }
  });
}
