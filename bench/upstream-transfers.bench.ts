// The upstream's reconciliation of transfers between tables, run every minute for weeks. Before,
// each run read every transfer entry ever synced; the service now keeps one reconciler that reads
// what synced since its last run (upstream/transfers/reconciler.ts). Two table hosts move a
// station's credit back and forth (each transfer debited, taken and completed), their ledgers
// synced to an in-memory PGlite upstream. In the same run: a reading of everything (what every run
// was, the baseline), then the kept reconciler's run with nothing new, and with one transfer more.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { LedgerTransferJournal } from '../host/transfers/ledger-journal.js';
import { TransferHost } from '../host/transfers/transfer-host.js';
import { billCredit } from '../ledger/fixtures.js';
import { Ledger } from '../ledger/index.js';
import { TableId } from '../terms/transfer-terms.js';
import { enrolTerminal, ingest, openUpstreamDb, type Db } from '../upstream/index.js';
import { reconcileTransfers, TransferReconciler } from '../upstream/transfers.js';
import { figure, loadAverage, QUICK } from './report.js';

const PAIRS = QUICK ? 500 : 5_000;
const ROUNDS = QUICK ? 2 : 5;
const BAC = TableId.parse('bac-1');
const WAR = TableId.parse('war-1');
const STATION = 101;
const watch = { openAfterSeconds: 3600 };

const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-upstream-transfers-'));
const wire: { from: TableId; to: TableId; message: unknown }[] = [];
const hosts = new Map<TableId, TransferHost>();
const ledgers = new Map<TableId, Ledger>();
for (const t of [BAC, WAR]) {
  const ledger = Ledger.open({ dataDir: path.join(dir, t), terminalId: t });
  ledgers.set(t, ledger);
  ledger.append(billCredit(STATION, 1_000_000, `${t}-note`));
  const send = (o: { to: TableId; message: unknown }) => wire.push({ from: t, to: o.to, message: o.message });
  hosts.set(
    t,
    new TransferHost({ self: t, currency: 'MOP', homes: { [STATION]: BAC }, journal: new LedgerTransferJournal(ledger), send, alarm: () => undefined }),
  );
}
const deliver = () => {
  for (let w = wire.shift(); w; w = wire.shift()) hosts.get(w.to)?.receive(w.from, w.message);
};
const there = (from: TableId, to: TableId) => {
  hosts.get(from)?.start(STATION, to, 100);
  deliver();
};

async function sync(db: Db): Promise<void> {
  for (const [t, ledger] of ledgers) {
    const held = Number((await db.query<{ seq: number }>('SELECT seq FROM heads WHERE terminal_id = $1', [t])).rows[0]?.seq ?? 0);
    const all = [...ledger.entries(held + 1)].map((e) => ({ seq: e.seq, hash: e.hash, body: e.body }));
    let prev = ledger.entry(held + 1)?.prevHash;
    for (let i = 0; prev !== undefined && i < all.length; i += 2_000) {
      const entries = all.slice(i, i + 2_000);
      const r = await ingest(db, { terminalId: t, prevHash: prev, entries });
      if (r.status !== 200) throw new Error(`ingest refused: ${JSON.stringify(r).slice(0, 200)}`);
      prev = entries.at(-1)?.hash;
    }
  }
}

async function mean(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  for (let i = 0; i < ROUNDS; i++) await fn();
  return (performance.now() - t) / ROUNDS;
}

for (let i = 0; i < PAIRS; i++) {
  there(BAC, WAR);
  there(WAR, BAC);
}
const db = await openUpstreamDb({});
for (const t of [BAC, WAR]) await enrolTerminal(db, t);
await sync(db);
console.log(`load average ${loadAverage()}`);

const kept = new TransferReconciler();
const first = await kept.run(db, watch);
const full = await reconcileTransfers(db, watch);
if (first.transfers !== full.transfers || full.transfers !== 2 * PAIRS || full.disagreements.length > 0)
  throw new Error(`the readings disagree: ${first.transfers} and ${full.transfers} of ${2 * PAIRS}`);
const everything = await mean(() => reconcileTransfers(db, watch));
const nothingNew = await mean(() => kept.run(db, watch));
let oneMore = 0;
for (let i = 0; i < ROUNDS; i++) {
  there(BAC, WAR);
  await sync(db);
  const t = performance.now();
  await kept.run(db, watch);
  oneMore += (performance.now() - t) / ROUNDS;
}
const note = `${2 * PAIRS} transfers synced (${PAIRS} each way)`;
const baseline = { name: 'a reading of everything (every run before)', value: everything };
figure({ name: 'transfer reconciliation, nothing new', unit: 'ms', value: nothingNew, better: 'lower', baseline, note });
figure({ name: 'transfer reconciliation, one transfer more', unit: 'ms', value: oneMore, better: 'lower', baseline, note });
console.log(`transfer reconciliation over ${2 * PAIRS} transfers (mean of ${ROUNDS}):`);
console.log(`  a reading of everything: ${everything.toFixed(1)} ms`);
console.log(`  kept reconciler, nothing new: ${nothingNew.toFixed(1)} ms (${(everything / nothingNew).toFixed(1)}× less)`);
console.log(`  kept reconciler, one transfer synced since: ${oneMore.toFixed(1)} ms (${(everything / oneMore).toFixed(1)}× less)`);
await db.close();
for (const l of ledgers.values()) l.close();
rmSync(dir, { recursive: true, force: true });
