// A station's ticket recall (ticketLog with a station, ledger/ticket-log.ts: the player's recall
// on the station's screen, GLI-11's last 35 vouchers each way). It read the table's ticket entries
// newest first through the type index, sorting them all, and stopped only at 6 × 35 of the
// station's: a quiet station walked every ticket entry of the table (a review: 184 ms on a 30-day
// journal), on the host's one thread. Migration 12 indexes the station and seq over the ticket
// entries (`journal_ticket_station`). On one ledger file of a busy table's 30 days (synthetic
// rounds, notes, doors and service sessions, ledger/testing/synthetic.ts, and a ticket out or in
// every ~40 entries at stations 1–6; station 7 quiet, its three tickets on the first day), in the
// same run: the recalls with the index dropped (the query before migration 12, the baseline),
// then with it made again (its time and size are the migration's on such a journal).
//
//   BENCH_TICKET_LOG_DAYS (30), BENCH_TICKET_LOG_PER_DAY (40000): the journal's size.
//   BENCH_TICKET_LOG_KEEP=FILE: build the journal into FILE and keep it (an existing FILE is reused).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Ledger } from '../ledger/ledger.js';
import type { NewEntry } from '../ledger/entries.js';
import { redeemed, redeemRequest, redeemReturned, ticketIssue, ticketPrinted } from '../ledger/ticket-fixtures.js';
import { ticketLog } from '../ledger/ticket-log.js';
import { appendSynthetic } from '../ledger/testing/synthetic.js';
import { dropTicketStationIndex, makeTicketStationIndex } from '../ledger/testing/ticket-station-index.js';
import { validationNumber } from '../terms/validation-number.js';
import { figure, loadAverage, QUICK } from './report.js';

const DAYS = QUICK ? 1 : Number(process.env.BENCH_TICKET_LOG_DAYS ?? 30);
const PER_DAY = QUICK ? 5_000 : Number(process.env.BENCH_TICKET_LOG_PER_DAY ?? 40_000);
const READS = QUICK ? 5 : 30;
const QUIET = 7;
const TICKET_EVERY = 40;
const CHUNK = 4_000;

const keep = process.env.BENCH_TICKET_LOG_KEEP;
const dir = keep ? null : mkdtempSync(path.join(os.tmpdir(), 'bench-ticket-log-'));
const file = keep ?? path.join(dir ?? '', 'ledger.db');
const reused = keep !== undefined && existsSync(keep);
const ledger = Ledger.open({ file, terminalId: 'T-BENCH' });
const rid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
let tickets = 0;

/** A ticket at `station`: out (issued, printed), or in (stacked, or returned every third). */
function ticket(station: number): NewEntry[] {
  const n = ++tickets;
  if (n % 2 === 0) return [ticketIssue(validationNumber(7, n), n, 500, station), ticketPrinted(validationNumber(7, n), station)];
  const v = validationNumber(9, n);
  return n % 3 === 0 ? [redeemRequest(rid(n), v, station), redeemReturned(rid(n), v, station)] : redeemed(rid(n), v, station, 500);
}

function build(): void {
  const target = DAYS * PER_DAY;
  let cycle = appendSynthetic(ledger, 100);
  ledger.appendMany([...ticket(QUIET), ...ticket(QUIET), ...ticket(QUIET), ...ticket(QUIET)]);
  while (ledger.headOf().seq < target) {
    cycle = appendSynthetic(ledger, CHUNK, { from: cycle });
    const batch: NewEntry[] = [];
    for (let i = 0; i < CHUNK / TICKET_EVERY; i++) batch.push(...ticket(1 + (tickets % 6)));
    ledger.appendMany(batch);
  }
}

const t0 = performance.now();
if (!reused) build();
const head = ledger.headOf().seq;
console.log(`load average ${loadAverage()}`);
console.log(
  `journal: ${head} entries (${DAYS} days of ${PER_DAY}) ${reused ? `reused from ${file}` : `made in ${((performance.now() - t0) / 1000).toFixed(0)} s`}`,
);

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.99)] ?? 0;
const cases = [
  { name: `quiet station ${QUIET}`, station: QUIET as number | undefined },
  { name: 'busy station 1', station: 1 },
  { name: 'the table', station: undefined },
];

function run(): { ms: number[]; answers: string[] } {
  const ms: number[] = [];
  const answers: string[] = [];
  for (const c of cases) {
    const each: number[] = [];
    for (let i = 0; i < READS; i++) {
      const t = performance.now();
      const log = ticketLog(ledger, 35, c.station);
      each.push(performance.now() - t);
      if (i === 0) answers.push(JSON.stringify(log));
    }
    ms.push(mean(each), p99(each));
  }
  return { ms, answers };
}

dropTicketStationIndex(ledger);
const before = run();
const t1 = performance.now();
const bytes = makeTicketStationIndex(ledger);
const made = performance.now() - t1;
const after = run();
cases.forEach((c, i) => {
  if (before.answers[i] !== after.answers[i]) throw new Error(`${c.name}: the recall differs with the index`);
});

console.log(`the ticket recall (35 each way) over ${head} entries (${tickets} tickets), mean and p99 of ${READS} reads:`);
cases.forEach((c, i) => {
  const [bm = 0, bp = 0, am = 0, ap = 0] = [before.ms[2 * i], before.ms[2 * i + 1], after.ms[2 * i], after.ms[2 * i + 1]];
  console.log(`  ${c.name.padEnd(16)} before ${bm.toFixed(2)} ms (p99 ${bp.toFixed(2)}), after ${am.toFixed(2)} ms (p99 ${ap.toFixed(2)})`);
});
console.log(`  the index made in ${(made / 1000).toFixed(1)} s, ${(bytes / 1e6).toFixed(1)} MB of the file`);
figure({
  name: 'ticket recall, quiet station, mean',
  unit: 'ms',
  value: after.ms[0] ?? 0,
  better: 'lower',
  baseline: { name: 'without journal_ticket_station (before migration 12)', value: before.ms[0] ?? 0 },
  note: `${head} entries, ${tickets} tickets`,
});
ledger.close();
if (dir) rmSync(dir, { recursive: true, force: true });
