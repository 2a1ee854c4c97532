// The station credit limit's room (docs/sas.md, "The station credit limit"): `creditRoom` is read
// at every note in escrow, ticket, AFT question and move in, so it must not grow with the journal.
// A journal of N notes (a tenth of them with a ticket redeemed and a move out, each closed), then
// two tickets approved and not stacked, three moves out in flight and one note told to stack and
// not yet credited at station 101: the room's cost a call, and its parts (the credit, the notes on
// their way, the tickets' walk, the moves' walk), each beside the bare credit read of the same run.
//   npm run bench -- credit-room          (N = 20,000 and 80,000)
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { billCredit } from '../ledger/fixtures.js';
import { notesOnTheirWay, openLedger, type Ledger, type NewEntry } from '../ledger/index.js';
import { redeemApproved, redeemRequest, redeemStacked } from '../ledger/ticket-fixtures.js';
import { ticketsApprovedOpen } from '../ledger/ticket-queries.js';
import { transfersOutInFlight } from '../ledger/transfer-queries.js';
import { TableId, transferTxId, type Transfer } from '../terms/transfer-terms.js';
import { validationNumber } from '../terms/validation-number.js';
import { creditRoom } from '../host/devices/credit-rule/credit-limit.js';
import { QUICK } from './report.js';

const HOME = TableId.parse('home');
const BACC = TableId.parse('baccarat');
const LIMIT = 99_999_999;
const CALLS = QUICK ? 200 : 5_000;

function journalOf(ledger: Ledger, notes: number): void {
  let serial = 0;
  const move = (station: number): Transfer => ({ id: { origin: HOME, serial: ++serial }, currency: 'MOP', station, from: HOME, to: BACC, amount: 10 });
  let batch: NewEntry[] = [];
  for (let i = 0; i < notes; i++) {
    const st = 101 + (i % 6);
    batch.push({ ...billCredit(st, 100, `b${i}`, 'MOP') });
    if (i % 10 === 0) {
      const v = validationNumber(31, i + 1);
      const r = `req-${String(i).padStart(6, '0')}`;
      const t = move(st);
      batch.push(redeemRequest(r, v, st), redeemApproved(r, v, st, 50), redeemStacked(r, v, st, 50));
      batch.push({ type: 'transfer.out', payload: { transfer: t }, txId: transferTxId('out', t.id) });
      batch.push({ type: 'transfer.complete', payload: { transfer: t }, txId: transferTxId('close', t.id) });
    }
    if (batch.length >= 500) {
      ledger.appendMany(batch);
      batch = [];
    }
  }
  ledger.appendMany(batch);
  for (let k = 0; k < 2; k++) {
    const v = validationNumber(32, k + 1);
    ledger.appendMany([redeemRequest(`req-open0${k}`, v, 101), redeemApproved(`req-open0${k}`, v, 101, 70)]);
  }
  for (let k = 0; k < 3; k++) {
    const t = move(101);
    ledger.append({ type: 'transfer.out', payload: { transfer: t }, txId: transferTxId('out', t.id) });
  }
  ledger.append({
    type: 'bill.escrow',
    txId: 'BA-101:last:escrow',
    payload: { station: 101, device: 'BA-101', denomination: 1_000, currency: 'MOP', escrowId: 'last' },
  });
}

function perCall(f: (station: number) => number): number {
  f(101);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) f(101 + (i % 6));
  return Number(process.hrtime.bigint() - t0) / 1e6 / CALLS;
}

console.log(
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
for (const notes of QUICK ? [2_000] : [20_000, 80_000]) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'credit-room-bench-'));
  const ledger = openLedger(dir, 'SIM-WAR-01');
  try {
    journalOf(ledger, notes);
    const parts = [
      ['creditRoom', (s: number) => creditRoom(ledger, s, LIMIT)],
      ['  credit', (s: number) => ledger.credit(s)],
      ['  notes on their way', (s: number) => notesOnTheirWay(ledger, s)],
      ['  tickets approved, open', (s: number) => ticketsApprovedOpen(ledger, s)],
      ['  moves out in flight', (s: number) => transfersOutInFlight(ledger, s)],
    ] as const;
    const times = parts.map(([name, f]) => [name, perCall(f)] as const);
    // The baseline, measured in this run: the bare credit read the room adds its parts to.
    const bare = times.find(([name]) => name === '  credit')?.[1] ?? Number.NaN;
    for (const [name, ms] of times) console.log(`${notes} notes: ${name} ${ms.toFixed(3)} ms a call (${(ms / bare).toFixed(1)}× the bare credit read)`);
    console.log(`${notes} notes: room at 101 ${creditRoom(ledger, 101, LIMIT)} (held beyond the credit: 2 tickets × 70 + 3 moves × 10 + 1 note × 1,000)`);
  } finally {
    ledger.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
