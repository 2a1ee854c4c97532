// A transfer of credit between two table hosts (docs/transfers.md), end to end over two SQLite
// ledgers on this disk, in one process (no network yet: the hosts do not carry transfers over
// their links): the sender's debit, the receiver's credit, the sender's completion — three durable
// commits — beside three bare one-row commits on the same disk in the same run. And the pure
// step's cost as a host's state grows with the transfers it keeps, beside the same step on an
// empty state.
//   npm run bench -- transfers
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { billCredit } from '../ledger/fixtures.js';
import { Ledger } from '../ledger/index.js';
import { bareCommits } from '../ledger/testing/bare-commits.js';
import { TableId } from '../terms/transfer-terms.js';
import { LedgerTransferJournal } from '../host/transfers/ledger-journal.js';
import { fold, outgoingTransfers, type TransferState } from '../host/transfers/state.js';
import { step } from '../host/transfers/step.js';
import { TransferHost } from '../host/transfers/transfer-host.js';
import { figure, QUICK, times } from './report.js';

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const HOME = TableId.parse('home');
const WAR = TableId.parse('war');
const dir = mkdtempSync(path.join(os.tmpdir(), 'transfers-bench-'));
console.log(
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
try {
  // 1. End to end over two ledgers: every message delivered at once, in order.
  const wire: { from: TableId; to: TableId; message: unknown }[] = [];
  const ledgers = new Map<TableId, Ledger>();
  const hosts = new Map<TableId, TransferHost>();
  for (const id of [HOME, WAR]) {
    const ledger = Ledger.open({ dataDir: path.join(dir, id), terminalId: id });
    ledger.append(billCredit(1, 100_000_000, `${id}-opening`));
    ledgers.set(id, ledger);
    hosts.set(
      id,
      new TransferHost({
        self: id,
        currency: 'MOP',
        // Station 1 is homed at HOME: it goes to war and comes back, as a station's credit does.
        homes: { 1: HOME },
        journal: new LedgerTransferJournal(ledger),
        send: (o) => wire.push({ from: id, to: o.to, message: o.message }),
        alarm: (a) => {
          throw new Error(`alarm ${a.reason}`);
        },
      }),
    );
  }
  const N = QUICK ? 50 : 400;
  const latency: number[] = [];
  for (let i = 0; i < N; i++) {
    const [from, to] = i % 2 ? [WAR, HOME] : [HOME, WAR];
    const t = performance.now();
    hosts.get(from)?.start(1, to, 100);
    while (wire.length) {
      const w = wire.shift();
      if (w) hosts.get(w.to)?.receive(w.from, w.message);
    }
    latency.push(performance.now() - t);
  }
  const open = [...hosts.values()].flatMap((h) => outgoingTransfers(h.state).filter((o) => o.phase !== 'completed'));
  if (open.length) throw new Error(`${open.length} transfers not completed`);
  for (const l of ledgers.values()) l.close();

  const bare = bareCommits(path.join(dir, 'raw.sqlite'), 3 * N);
  const triples: number[] = [];
  for (let i = 0; i + 2 < bare.times.length; i += 3) triples.push((bare.times[i] ?? 0) + (bare.times[i + 1] ?? 0) + (bare.times[i + 2] ?? 0));
  const bareName = 'three bare 1-row SQLite commits, WAL+FULL, same disk';
  const note = 'baseline: the three durable commits a transfer needs (debit, credit, completion), as bare one-row INSERTs, none of the ledger or transfer code';
  for (const p of [50, 99]) {
    const r = figure({
      name: `transfer end to end over two ledgers in one process (debit, credit, completion), p${p}`,
      unit: 'ms',
      value: pct(latency, p),
      better: 'lower',
      baseline: { name: `${bareName}, p${p}`, value: pct(triples, p) },
      note,
    });
    console.log(`${r.name}: ${r.value.toFixed(2)} ms; baseline ${pct(triples, p).toFixed(2)} ms; ${times(r)} (n=${N})`);
  }

  // 2. The pure step as the state grows: a start on a host that keeps K closed transfers.
  const withClosed = (k: number): TransferState => {
    const entries = [];
    for (let i = 1; i <= k; i++) {
      const transfer = { id: { origin: HOME, serial: i }, currency: 'MOP', station: 1, from: HOME, to: WAR, amount: 1 };
      entries.push({ type: 'transfer.out' as const, payload: { transfer } }, { type: 'transfer.complete' as const, payload: { transfer } });
    }
    return fold(HOME, 'MOP', { 1: HOME }, entries);
  };
  const stepCost = (s: TransferState, reps: number) => {
    const t = performance.now();
    for (let i = 0; i < reps; i++) step(s, { kind: 'start', station: 1, to: WAR, amount: 1, available: 10 });
    return (performance.now() - t) / reps;
  };
  const REPS = QUICK ? 200 : 2000;
  const empty = stepCost(withClosed(0), REPS);
  for (const k of QUICK ? [1_000] : [1_000, 10_000]) {
    const r = figure({
      name: `pure step (a start) with ${k.toLocaleString('en')} closed transfers kept`,
      unit: 'ms',
      value: stepCost(withClosed(k), Math.max(20, Math.round(REPS / (k / 500)))),
      better: 'lower',
      baseline: { name: 'the same step on an empty state', value: empty },
      note: 'baseline: the same start stepped on a host that keeps no transfer',
    });
    console.log(`${r.name}: ${r.value.toFixed(4)} ms; baseline ${empty.toFixed(4)} ms; ${times(r)}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
