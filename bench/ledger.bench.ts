// Durable journal commits on this machine's disk: WAL + synchronous=FULL, as the kiosk runs, each
// beside bare one-row SQLite commits on the same disk in the same run (WAL + FULL, no ledger code).
//   npm run bench -- ledger
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { durability, Ledger, ledgerFile, verifyLedger } from '../ledger/index.js';
import { billCredit, settledRound } from '../ledger/fixtures.js';
import { bareCommits, bareScanRowsPerSecond } from '../ledger/testing/bare-commits.js';
import { figure, QUICK, times } from './report.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'ledger-bench-'));
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
try {
  const ledger = Ledger.open({ dataDir: dir, terminalId: 'BENCH' });
  const d = durability(ledger);
  console.log(`journal_mode=${d.journalMode} synchronous=${d.synchronous} (2 = FULL) in ${dir}`);

  // 1. One entry per durable transaction (a bill credit: postings, meters, outbox, fsync).
  const N = QUICK ? 200 : 2000;
  let t = performance.now();
  for (let i = 0; i < N; i++) ledger.append(billCredit(1 + (i % 7), 100_000, `bill-${i}`));
  let ms = performance.now() - t;
  console.log(`durable commits, 1 bill.credit each: ${N} in ${ms.toFixed(0)} ms = ${Math.round((N / ms) * 1000)} commits/s`);

  // 2. A settled 7-seat round: 7 bets and the settlement (with recall and meters) in one transaction.
  const seats = [1, 2, 3, 4, 5, 6, 7];
  const R = QUICK ? 50 : 500;
  const whole: number[] = [];
  for (let i = 0; i < R; i++) {
    const { bets, settle } = settledRound(`w${i}`, seats, 1000, i);
    t = performance.now();
    ledger.appendMany([...bets, settle]);
    whole.push(performance.now() - t);
  }
  console.log(`7-seat round, 7 bets + settlement in one transaction: p50 ${pct(whole, 50).toFixed(2)} ms, p99 ${pct(whole, 99).toFixed(2)} ms (n=${R})`);

  // 3. The settlement alone (bets committed earlier, as during play).
  const settleOnly: number[] = [];
  for (let i = 0; i < R; i++) {
    const { bets, settle } = settledRound(`s${i}`, seats, 1000, i);
    ledger.appendMany(bets);
    t = performance.now();
    ledger.append(settle);
    settleOnly.push(performance.now() - t);
  }
  console.log(
    `7-seat settlement entry alone (7 lines, recall row, meters): p50 ${pct(settleOnly, 50).toFixed(2)} ms, p99 ${pct(settleOnly, 99).toFixed(2)} ms (n=${R})`,
  );

  // Baseline on the same disk: a bare one-row insert per transaction, WAL + FULL, no ledger code.
  const bare = bareCommits(path.join(dir, 'raw.sqlite'), N);
  const bareP50 = pct(bare.times, 50);
  const bareP99 = pct(bare.times, 99);
  console.log(
    `baseline: bare 1-row inserts, WAL+FULL, same disk: ${Math.round(bare.perSecond)} commits/s, p50 ${bareP50.toFixed(2)} ms, p99 ${bareP99.toFixed(2)} ms`,
  );
  const bareName = 'bare 1-row SQLite commit, WAL+FULL, same disk';
  const note = 'baseline: one-row INSERT per transaction into a fresh file beside the ledger, WAL and synchronous=FULL, none of the ledger code';
  const figures = [
    figure({
      name: 'journal commit, 1 bill.credit each',
      unit: 'commits/s',
      value: (N / ms) * 1000,
      better: 'higher',
      baseline: { name: bareName, value: bare.perSecond },
      note,
    }),
    figure({
      name: '7-seat round (7 bets + settlement) in one transaction, p50',
      unit: 'ms',
      value: pct(whole, 50),
      better: 'lower',
      baseline: { name: `${bareName}, p50`, value: bareP50 },
      note,
    }),
    figure({
      name: '7-seat round (7 bets + settlement) in one transaction, p99',
      unit: 'ms',
      value: pct(whole, 99),
      better: 'lower',
      baseline: { name: `${bareName}, p99`, value: bareP99 },
      note,
    }),
    figure({
      name: '7-seat settlement entry alone, p50',
      unit: 'ms',
      value: pct(settleOnly, 50),
      better: 'lower',
      baseline: { name: `${bareName}, p50`, value: bareP50 },
      note,
    }),
  ];
  for (const f of figures) console.log(`ratio to the bare commit: ${f.name}: ${times(f)}`);

  t = performance.now();
  const report = verifyLedger(ledger);
  ms = performance.now() - t;
  ledger.close();
  // The floor under anything that reads the journal: the same rows read bare, right after.
  const scan = bareScanRowsPerSecond(ledgerFile(dir));
  const v = figure({
    name: `verify --full (chain + full replay) of ${report.entries} entries`,
    unit: 'entries/s',
    value: (report.entries / ms) * 1000,
    better: 'higher',
    baseline: { name: 'bare SQLite scan of the same rows', value: scan.perSecond },
  });
  console.log(
    `verify (chain + full replay) of ${report.entries} entries: ${ms.toFixed(0)} ms = ${Math.round(v.value).toLocaleString('en')} entries/s, ok=${report.ok}; a bare scan of the same rows: ${Math.round(scan.perSecond).toLocaleString('en')} entries/s (${times(v)})`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
