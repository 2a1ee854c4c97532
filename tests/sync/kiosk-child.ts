// A kiosk process for the kill tests: applies operations from --from up to --to, printing
// "C <i>" after each durable commit, while the sync client sends the journal upstream. With
// --drain it then waits until the upstream acknowledged everything and prints "DONE".
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Ledger, SyncClient, type Credentials } from '../../ledger/index.js';
import { applyOp } from './ops.js';

const { values: v } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    terminal: { type: 'string' },
    credentials: { type: 'string' },
    upstream: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
    drain: { type: 'boolean' },
    batch: { type: 'string' },
    pace: { type: 'string' },
  },
});
const ledger = Ledger.open({ dataDir: String(v['data-dir']), terminalId: String(v.terminal) });
const credentials = JSON.parse(readFileSync(String(v.credentials), 'utf8')) as Credentials;
const sync = new SyncClient(ledger, {
  url: String(v.upstream),
  credentials,
  maxBatchEntries: Number(v.batch ?? '25'),
  idleMs: 20,
  backoffBaseMs: 10,
  backoffCapMs: 200,
  requestTimeoutMs: 2000,
});
sync.start();
process.stdout.write('READY\n');
const from = Number(v.from);
const to = Number(v.to);
const pace = Number(v.pace ?? '0');
for (let i = from; i < to; i++) {
  applyOp(ledger, i);
  process.stdout.write(`C ${i}\n`);
  sync.kick();
  // Yield so the sync client's requests interleave with the writes.
  await new Promise((r) => setTimeout(r, pace));
}
if (v.drain) {
  while (sync.status().lagEntries > 0) await new Promise((r) => setTimeout(r, 20));
  process.stdout.write('DONE\n');
}
await sync.stop();
ledger.close();
