// The ticket-in attempts with no end (ticketsInOpen, ledger/ticket-queries.ts). The table host reads
// them at each ticket inserted (its acceptor has left every attempt before it at that station) and
// at each build of service mode's Tickets page (the held ones). They were found by walking every
// `ticket.redeem.request` the table ever journalled; a read now walks the requests since the last
// one and the attempts then still open. On one ledger file of ~50,000 entries (two in five of them
// ticket-in requests, every one ended, returned or stacked), in the same run:
// - the baseline: the whole walk, as every read did before (each read from a ledger opened afresh
//   on the file, so it knows nothing of an earlier read);
// - the figure: a ticket inserted and ended between two reads, the second read timed.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { billCredit } from '../ledger/fixtures.js';
import { Ledger } from '../ledger/ledger.js';
import { redeemApproved, redeemRequest, redeemReturned, redeemStacked } from '../ledger/ticket-fixtures.js';
import { ticketsInOpenWalked } from '../ledger/ticket-queries.js';
import { validationNumber } from '../terms/validation-number.js';
import { figure, loadAverage, QUICK } from './report.js';

const ENTRIES = QUICK ? 5_000 : 50_000;
const READS = QUICK ? 20 : 200;
const FRESH_READS = QUICK ? 5 : 20;

const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-ticket-in-open-'));
const file = path.join(dir, 'ledger.db');
const ledger = Ledger.open({ file, terminalId: 'T-BENCH' });
const rid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
let n = 0;

/** One ticket inserted at `station` and ended: stacked (every other one) or returned. */
function attempt(station: number) {
  const v = validationNumber(4242, ++n);
  const r = rid(n);
  return n % 2
    ? [redeemRequest(r, v, station), redeemReturned(r, v, station, 'already-paid')]
    : [redeemRequest(r, v, station), redeemApproved(r, v, station, 500), redeemStacked(r, v, station, 500)];
}

const t0 = performance.now();
const batch = [];
for (let i = 0; batch.length + (ledger.headOf().seq ?? 0) < ENTRIES; i++) {
  batch.push(...(i % 5 < 2 ? attempt(1 + (i % 6)) : [billCredit(1 + (i % 6), 100, `note-${i}`)]));
  if (batch.length >= 500) ledger.appendMany(batch.splice(0));
}
if (batch.length > 0) ledger.appendMany(batch.splice(0));
const head = ledger.headOf().seq;
console.log(`load average ${loadAverage()}`);
console.log(`journal: ${head} entries (${n} ticket-in attempts, all ended) made in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.99)] ?? 0;

const whole: number[] = [];
let walkedWhole = 0;
for (let i = 0; i < FRESH_READS; i++) {
  const fresh = Ledger.open({ file, terminalId: 'T-BENCH' });
  const t = performance.now();
  walkedWhole = ticketsInOpenWalked(fresh).walked;
  whole.push(performance.now() - t);
  fresh.close();
}

ticketsInOpenWalked(ledger);
const since: number[] = [];
let walkedSince = 0;
for (let i = 0; i < READS; i++) {
  ledger.appendMany(attempt(1 + (i % 6)));
  const t = performance.now();
  const r = ticketsInOpenWalked(ledger);
  since.push(performance.now() - t);
  walkedSince = Math.max(walkedSince, r.walked);
  if (r.open.length !== 0) throw new Error(`${r.open.length} attempts read as open, none is`);
}

const baseline = { name: 'the whole walk (every read before)', value: mean(whole) };
figure({
  name: 'open ticket-in attempts, read after a ticket',
  unit: 'ms',
  value: mean(since),
  better: 'lower',
  baseline,
  note: `${head} entries, ${n} attempts`,
});
console.log(`the open ticket-in attempts over ${head} entries:`);
console.log(`  the whole walk:        mean ${mean(whole).toFixed(3)} ms, p99 ${p99(whole).toFixed(3)} ms (${walkedWhole} requests walked)`);
console.log(`  after a ticket:        mean ${mean(since).toFixed(4)} ms, p99 ${p99(since).toFixed(4)} ms (at most ${walkedSince} walked)`);
console.log(`  ${(mean(whole) / mean(since)).toFixed(0)}× sooner (mean)`);
ledger.close();
rmSync(dir, { recursive: true, force: true });
