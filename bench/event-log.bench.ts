// The service screen's event log asked for a window of time (ledger/event-log.ts). In seq order and
// with no index on `ts`, SQLite read every entry newer than the window, or the whole journal when
// fewer than a page matched (a quiet last hour), on the host's one thread; and the service view is
// built again at every change of the table while the page is open. Migration 13 indexes `ts`, and a
// window is read newest by time from it. On one journal of a busy table's days (synthetic rounds,
// notes, doors and service sessions, ledger/testing/synthetic.ts, spread evenly over the days, then
// a quiet hour of a few entries), in the same run: each window read as before (seq order, the index
// dropped: the baseline), then as now (the index made again: its time and size are the migration's).
//
//   BENCH_EVENT_LOG_DAYS (30), BENCH_EVENT_LOG_PER_DAY (40000): the journal's size.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { eventLog, type EventLogFilter } from '../ledger/event-log.js';
import { Ledger } from '../ledger/ledger.js';
import { appendSynthetic } from '../ledger/testing/synthetic.js';
import { dropTsIndex, eventLogInSeqOrder, makeTsIndex } from '../ledger/testing/ts-index.js';
import { figure, loadAverage, QUICK } from './report.js';

const DAYS = QUICK ? 1 : Number(process.env.BENCH_EVENT_LOG_DAYS ?? 30);
const PER_DAY = QUICK ? 5_000 : Number(process.env.BENCH_EVENT_LOG_PER_DAY ?? 40_000);
const READS = QUICK ? 3 : 20;
const DAY = 86_400_000;
const START = Date.UTC(2026, 10, 1);

const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-event-log-'));
// Each entry one step after the last: PER_DAY entries a day.
let now = START;
let step = DAY / PER_DAY;
const ledger = Ledger.open({ file: path.join(dir, 'ledger.db'), terminalId: 'T-BENCH', clock: () => new Date((now += step)), checkpointKey: null });

const t0 = performance.now();
const cycle = appendSynthetic(ledger, DAYS * PER_DAY);
// Three quiet hours, then a few entries in the last of them.
now += 3 * 3_600_000;
step = 1_000;
appendSynthetic(ledger, 10, { from: cycle });
const head = ledger.headOf().seq;
console.log(`load average ${loadAverage()}`);
console.log(`journal: ${head} entries (${DAYS} days of ${PER_DAY}) made in ${((performance.now() - t0) / 1000).toFixed(0)} s`);

const iso = (ms: number) => new Date(ms).toISOString();
const cases: { name: string; filter: EventLogFilter }[] = [
  { name: 'the last hour, a quiet table', filter: { from: iso(now - 3_600_000) } },
  { name: 'a day a week back', filter: { from: iso(START + (DAYS - 7) * DAY), to: iso(START + (DAYS - 6) * DAY) } },
  { name: 'an hour of the first day', filter: { from: iso(START + 3_600_000), to: iso(START + 2 * 3_600_000) } },
  { name: 'the last day', filter: { from: iso(now - DAY) } },
];
const page = { offset: 0, limit: 50 };
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

function run(read: (f: EventLogFilter) => { seq: number }[]): { ms: number[]; answers: string[] } {
  const ms: number[] = [];
  const answers: string[] = [];
  for (const c of cases) {
    const each: number[] = [];
    for (let i = 0; i < READS; i++) {
      const t = performance.now();
      const seqs = read(c.filter).map((e) => e.seq);
      each.push(performance.now() - t);
      if (i === 0) answers.push(JSON.stringify(seqs.toSorted((a, b) => a - b)));
    }
    ms.push(mean(each));
  }
  return { ms, answers };
}

dropTsIndex(ledger);
const before = run((f) => eventLogInSeqOrder(ledger, f, page));
const t1 = performance.now();
const bytes = makeTsIndex(ledger);
const made = performance.now() - t1;
const after = run((f) => eventLog(ledger, f, page).entries);

console.log(`the event log's first page (${page.limit}) of a window, over ${head} entries, mean of ${READS} reads:`);
cases.forEach((c, i) => {
  // The same entries where a window holds no more than a page: beyond, each order keeps its own newest page.
  const same = before.answers[i] === after.answers[i] ? 'the same entries' : 'its own newest page of the window';
  const [b = 0, a = 0] = [before.ms[i], after.ms[i]];
  console.log(`  ${c.name.padEnd(30)} before ${b.toFixed(2)} ms, after ${a.toFixed(2)} ms, ${(a / b).toFixed(4)} of before (${same})`);
});
console.log(`  the index made in ${(made / 1000).toFixed(1)} s, ${(bytes / 1e6).toFixed(1)} MB of the file`);
figure({
  name: 'event log, a day a week back, first page, mean',
  unit: 'ms',
  value: after.ms[1] ?? 0,
  better: 'lower',
  baseline: { name: 'in seq order without journal_ts (before migration 13)', value: before.ms[1] ?? 0 },
  note: `${head} entries`,
});
ledger.close();
rmSync(dir, { recursive: true, force: true });
