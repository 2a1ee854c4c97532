import { outboxStats, syncAnchor } from '../../ledger/index.js';
import { DATA_DIR, defineCommand, JSON_OUTPUT, openFromArgs, options } from './common.js';

export const command = defineCommand({
  name: 'ledger status',
  summary: 'Journal head, upstream acknowledgement, outbox lag and the last sync error.',
  usage: 'usage: etg ledger status --data-dir DIR [--json]',
  options: { 'data-dir': DATA_DIR, json: JSON_OUTPUT },
});

export async function run(argv: string[]): Promise<number> {
  const v = options(command, argv);
  const ledger = openFromArgs(v['data-dir'], command.usage);
  try {
    const a = syncAnchor(ledger);
    const o = outboxStats(ledger);
    const lagSeconds = o.oldestQueuedAt ? Math.floor((Date.now() - Date.parse(o.oldestQueuedAt)) / 1000) : 0;
    const s = {
      terminalId: ledger.terminalId,
      head: ledger.headOf(),
      acked: { seq: a.ackedSeq, hash: a.ackedHash },
      lagEntries: o.pending,
      lagSeconds,
      lastError: a.lastError,
      lastErrorAt: a.lastErrorAt,
      lastSuccessAt: a.lastSuccessAt,
    };
    if (v.json) console.log(JSON.stringify(s));
    else {
      console.log(`terminal ${s.terminalId}: head ${s.head.seq}, acknowledged upstream ${s.acked.seq}`);
      console.log(`unsynced: ${s.lagEntries} entries, oldest ${s.lagSeconds} s`);
      if (s.lastError) console.log(`last error (${s.lastErrorAt}): ${s.lastError}`);
    }
    return 0;
  } finally {
    ledger.close();
  }
}
