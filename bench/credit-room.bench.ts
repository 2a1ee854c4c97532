// What the station credit limit's measure costs a SAS answer (docs/sas.md, "The station credit
// limit"): `creditRoom` for a station whose acceptor has taken NOTES notes (each an escrow and its
// credit, all in the journal), one more note told to stack and not yet credited. Timed: the first
// question of a ledger opened afresh (it reads the open escrows from the journal once, as the
// credit rule does at a start), then the mean of many after (a map lookup for the notes, the
// ledger's credit and the ticket in escrow by index). Run: `npx tsx bench/credit-room.bench.ts`.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { NewEntry } from '../ledger/entries.js';
import { Ledger } from '../ledger/ledger.js';
import { creditRoom } from '../host/devices/credit-rule/credit-limit.js';

const NOTES = Number(process.env.BENCH_NOTES ?? 20_000);
const CALLS = 20_000;
const STATION = 1;
const DEVICE = 'BA-1';

function fill(ledger: Ledger): void {
  ledger.append({ type: 'power.reset', payload: { clean: true, softwareVersion: '0.1.0' } });
  for (let i = 0; i < NOTES; i += 500) {
    const escrows: NewEntry[] = [];
    for (let j = i; j < Math.min(NOTES, i + 500); j++)
      escrows.push({
        type: 'bill.escrow',
        txId: `${DEVICE}:n${j}:escrow`,
        payload: { station: STATION, device: DEVICE, denomination: 1_000, currency: 'MOP', escrowId: `n${j}` },
      });
    const seqs = ledger.appendMany(escrows).map((r) => r.entry.seq);
    ledger.appendMany(
      seqs.map((escrowSeq, k) => ({
        type: 'bill.credit',
        txId: `${DEVICE}:n${i + k}:credit`,
        payload: { station: STATION, device: DEVICE, denomination: 1_000, currency: 'MOP', escrowSeq },
      })),
    );
  }
  ledger.append({
    type: 'bill.escrow',
    txId: `${DEVICE}:last:escrow`,
    payload: { station: STATION, device: DEVICE, denomination: 1_000, currency: 'MOP', escrowId: 'last' },
  });
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'credit-room-bench-'));
try {
  const file = path.join(dir, 'ledger.sqlite');
  const filling = Ledger.open({ file, terminalId: 'T-BENCH' });
  fill(filling);
  filling.close();
  const ledger = Ledger.open({ file, terminalId: 'T-BENCH' });
  const limit = 99_999_999;
  const expected = limit - NOTES * 1_000 - 1_000;
  let t = performance.now();
  const first = creditRoom(ledger, STATION, limit);
  const firstMs = performance.now() - t;
  if (first !== expected) throw new Error(`room ${first}, expected ${expected}`);
  t = performance.now();
  for (let i = 0; i < CALLS; i++) if (creditRoom(ledger, STATION, limit) !== expected) throw new Error('room changed');
  const meanMs = (performance.now() - t) / CALLS;
  ledger.close();
  console.log(`creditRoom at ${NOTES} notes, one on its way: first ${firstMs.toFixed(3)} ms, then ${meanMs.toFixed(4)} ms a call (mean of ${CALLS})`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
