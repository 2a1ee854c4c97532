// One table host's transfers as a process of its own, for the SIGKILL trial (kill-trial.ts): its
// ledger in a data folder, the transfer machine over it, commands on stdin and what it sends on
// stdout, one JSON line each. A SIGKILL at any instant leaves only what the ledger committed.
// Usage: transfer-node <data-dir> <table> <peer-table>
import { createInterface } from 'node:readline';
import { billCredit } from '../../ledger/fixtures.js';
import { Ledger } from '../../ledger/index.js';
import { TableId } from '../../terms/transfer-terms.js';
import { LedgerTransferJournal } from '../../host/transfers/ledger-journal.js';
import { outgoingTransfers } from '../../host/transfers/state.js';
import { TransferHost } from '../../host/transfers/transfer-host.js';
import { HOMES, NodeCommand, STATIONS, OPENING_CREDIT } from './node-wire.js';

const [dataDir, selfArg] = process.argv.slice(2);
if (!dataDir || !selfArg) throw new Error('usage: transfer-node <data-dir> <table>');
const self = TableId.parse(selfArg);
const out = (line: unknown) => process.stdout.write(`${JSON.stringify(line)}\n`);

const ledger = Ledger.open({ dataDir, terminalId: self });
// The opening credit of the stations homed here, under fixed transaction ids: after a kill mid-way they are appended again as duplicates, never twice.
ledger.appendMany(STATIONS.filter((s) => HOMES[s] === self).map((s) => billCredit(s, OPENING_CREDIT, `${self}-opening-${s}`)));
const host = new TransferHost({
  self,
  currency: 'MOP',
  homes: Object.fromEntries(STATIONS.map((s) => [s, TableId.parse(HOMES[s])])),
  journal: new LedgerTransferJournal(ledger),
  send: (o) => out({ kind: 'send', to: o.to, message: o.message }),
  alarm: (a) => out({ kind: 'alarm', reason: a.reason, detail: a.detail }),
});
out({ kind: 'ready' });

for await (const line of createInterface({ input: process.stdin })) {
  const c = NodeCommand.parse(JSON.parse(line));
  let refused: string | undefined;
  switch (c.kind) {
    case 'start':
      refused = host.start(c.station, TableId.parse(c.to), c.amount).refused;
      break;
    case 'tick':
      host.tick();
      break;
    case 'receive':
      host.receive(TableId.parse(c.link), c.message);
      break;
    case 'recall': {
      const open = outgoingTransfers(host.state).find((o) => o.phase === 'offering');
      if (open) host.recall(open.transfer.id);
      break;
    }
    case 'status':
      break;
    case 'exit':
      ledger.close();
      out({ kind: 'done', n: c.n, open: 0 });
      process.exit(0);
  }
  const open = outgoingTransfers(host.state).filter((o) => o.phase === 'offering' || o.phase === 'recalling').length;
  out({ kind: 'done', n: c.n, open, ...(refused ? { refused } : {}) });
}
