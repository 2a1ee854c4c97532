// Durable journal commits on this machine's disk: WAL + synchronous=FULL, as the kiosk runs, each
// beside bare one-row SQLite commits on the same disk in the same run (WAL + FULL, no ledger code).
//   npm run bench -- ledger
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { durability, Ledger, ledgerFile, verifyLedger, WitnessClient, WitnessLink } from '../ledger/index.js';
import { writeNewKeyFile } from '../witness/index.js';
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

  await witnessCost(bare.perSecond);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * 4. What the ledger witness adds to a journal commit (docs/ledger.md, "The witness"). The witness
 * runs as on a cabinet, in its own process (`etg witness serve`, a key file, fsync of its head per
 * answer). Each loop commits one bill.credit at a time and lets the event loop turn between commits,
 * as the host does (a commit per table input), so the link's requests and answers are served
 * between them; the same loop runs without a witness. Seven pairs (without, with) run back to back,
 * the order flipped every pair; the medians are compared, and each pair's own ratio. Also: every
 * commit waiting for the witness's signed head, the design not taken (the host never waits for it).
 */
async function witnessCost(bareCommitsPerSecond: number): Promise<void> {
  const root = path.join(dir, 'witness-bench');
  const wdir = path.join(root, 'witness');
  mkdirSync(wdir, { recursive: true });
  writeNewKeyFile(path.join(wdir, 'witness.key'));
  const socket = path.join(wdir, 'witness.sock');
  const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const child = spawn(
    process.execPath,
    ['bin/etg.js', 'witness', 'serve', '--dir', wdir, '--key-file', path.join(wdir, 'witness.key'), '--socket', socket, '--json'],
    {
      cwd: repo,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the witness exited (${code})`)));
  });
  const W = QUICK ? 100 : 1000;
  const PAIRS = QUICK ? 1 : 7;
  let run = 0;
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
  // CPU, beside the wall clock: on a shared machine the fsync's wait swings with other work, while the
  // CPU each process spends per commit does not. The host's from process.cpuUsage(); the witness's
  // (another process) from /proc/PID/stat, utime + stime in clock ticks (Linux; null elsewhere).
  const tick = (() => {
    try {
      return 1e6 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    } catch {
      return 1e4;
    }
  })();
  const witnessCpuUs = (): number | null => {
    try {
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      // After the name: state is field 3, utime field 14 and stime field 15 of the whole line.
      return (Number(fields[11]) + Number(fields[12])) * tick;
    } catch {
      return null;
    }
  };
  const hostCpuUs = () => {
    const u = process.cpuUsage();
    return u.user + u.system;
  };
  async function commits(
    mode: 'without' | 'with' | 'strict',
  ): Promise<{ perSecond: number; witnessed: boolean; hostUsPerCommit: number; witnessUsPerCommit: number | null }> {
    const d = path.join(root, `ledger-${++run}`);
    const ledger = Ledger.open({ dataDir: d, terminalId: `WB-${run}`, witnessed: mode !== 'without' });
    const link = mode === 'without' ? null : await WitnessLink.attach(ledger, new WitnessClient(socket), mode === 'strict' ? { batchMs: 0 } : {});
    link?.start();
    const w0 = witnessCpuUs();
    const c0 = hostCpuUs();
    const t = performance.now();
    for (let i = 0; i < W; i++) {
      ledger.append(billCredit(1 + (i % 7), 100_000, `w-${i}`));
      if (mode === 'strict') await link?.flush();
      else await turn();
    }
    const ms = performance.now() - t;
    let witnessed = true;
    if (link) {
      await link.flush(30_000);
      witnessed = link.status().witnessedSeq === ledger.headOf().seq;
      await link.stop();
    }
    // Up to the last head witnessed: the link's whole work for these commits, and the witness's.
    const hostUsPerCommit = (hostCpuUs() - c0) / W;
    const w1 = witnessCpuUs();
    ledger.close();
    return { perSecond: (W / ms) * 1000, witnessed, hostUsPerCommit, witnessUsPerCommit: w0 === null || w1 === null ? null : (w1 - w0) / W };
  }
  try {
    const without: number[] = [];
    const withWitness: number[] = [];
    // Each pair's own ratio (without ÷ with, measured back to back), so that the load of other work,
    // which moves the fsync's cost by ±50% from one second to the next on a shared machine, colours
    // both halves of a pair alike; the order flips every pair, so a drift favours neither.
    const pairRatios: number[] = [];
    const cpuWithout: number[] = [];
    const cpuWith: number[] = [];
    const cpuWitness: number[] = [];
    let allWitnessed = true;
    for (let r = 0; r < PAIRS; r++) {
      const withFirst = r % 2 === 1;
      const w0 = withFirst ? await commits('with') : null;
      const plain = await commits('without');
      const bare = plain.perSecond;
      const w = w0 ?? (await commits('with'));
      cpuWithout.push(plain.hostUsPerCommit);
      cpuWith.push(w.hostUsPerCommit);
      if (w.witnessUsPerCommit !== null) cpuWitness.push(w.witnessUsPerCommit);
      without.push(bare);
      withWitness.push(w.perSecond);
      pairRatios.push(bare / w.perSecond);
      allWitnessed &&= w.witnessed;
    }
    const strict = await commits('strict');
    const median = (xs: number[]) => pct(xs, 50);
    const a = median(without);
    const b = median(withWitness);
    const load = os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    const pct1 = (x: number) => `${((x - 1) * 100).toFixed(1)}%`;
    const sortedRatios = [...pairRatios].sort((x, y) => x - y);
    console.log(
      `journal commits with the event loop turning between them (${W} each, median of ${PAIRS} back-to-back pairs): without the witness ${Math.round(a)} commits/s ` +
        `[${without.map(Math.round).join(', ')}], with it ${Math.round(b)} commits/s [${withWitness.map(Math.round).join(', ')}]; every head witnessed: ${allWitnessed}`,
    );
    console.log(
      `the witness adds ${pct1(a / b)} to a journal commit by the medians, ${pct1(median(pairRatios))} by the median pair (pairs from ${pct1(sortedRatios[0] ?? NaN)} to ${pct1(sortedRatios[sortedRatios.length - 1] ?? NaN)}; goal: under 20%); ` +
        `each commit waiting for its signed head instead: ${Math.round(strict.perSecond)} commits/s (${(a / strict.perSecond).toFixed(2)}× the cost); load average ${load}`,
    );
    const withName = 'journal commit with the ledger witness, event loop turning';
    const notes = `the witness in its own process (etg witness serve, key file); one bill.credit per transaction; medians of ${PAIRS} back-to-back pairs, order flipped every pair; median pair ratio ${median(pairRatios).toFixed(3)}`;
    const figures = [
      figure({
        name: withName,
        unit: 'commits/s',
        value: b,
        better: 'higher',
        baseline: { name: 'the same loop without the witness', value: a },
        note: notes,
      }),
      figure({
        name: `${withName}, against the bare commit`,
        unit: 'commits/s',
        value: b,
        better: 'higher',
        baseline: { name: 'bare 1-row SQLite commit, WAL+FULL, same disk', value: bareCommitsPerSecond },
        note: notes,
      }),
      figure({
        name: "journal commit waiting for the witness's signed head (not how the host runs)",
        unit: 'commits/s',
        value: strict.perSecond,
        better: 'higher',
        baseline: { name: 'the same loop without the witness', value: a },
        note: notes,
      }),
    ];
    const ca = median(cpuWithout);
    const cb = median(cpuWith);
    const cw = cpuWitness.length === PAIRS ? median(cpuWitness) : null;
    console.log(
      `CPU per journal commit (median of ${PAIRS} pairs): the host without the witness ${ca.toFixed(0)} µs [${cpuWithout.map(Math.round).join(', ')}], ` +
        `with it ${cb.toFixed(0)} µs [${cpuWith.map(Math.round).join(', ')}] (${pct1(cb / ca)}); the witness's process ` +
        (cw === null
          ? 'not measured (no /proc)'
          : `${cw.toFixed(0)} µs [${cpuWitness.map(Math.round).join(', ')}], so the machine's CPU per commit ${pct1((cb + cw) / ca)}`),
    );
    const cpuNote = 'CPU time (user + system) per commit, medians of the same pairs: the host from process.cpuUsage(), the witness from /proc/PID/stat';
    figures.push(
      figure({
        name: 'host CPU per journal commit with the ledger witness',
        unit: 'µs',
        value: cb,
        better: 'lower',
        baseline: { name: 'host CPU per journal commit without the witness, same pairs', value: ca },
        note: cpuNote,
      }),
    );
    if (cw !== null)
      figures.push(
        figure({
          name: "CPU per journal commit with the ledger witness, the host's and the witness's",
          unit: 'µs',
          value: cb + cw,
          better: 'lower',
          baseline: { name: 'host CPU per journal commit without the witness, same pairs', value: ca },
          note: cpuNote,
        }),
      );
    for (const f of figures) console.log(`ratio: ${f.name}: ${times(f)}`);
  } finally {
    child.kill('SIGTERM');
  }
}
