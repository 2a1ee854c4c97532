// Start-up and verification cost on a long journal, with checkpoints (docs/ledger.md, "Checkpoints").
//   npm run bench -- ledger-checkpoint                         (a 1,000,000-entry ledger: about 3 minutes to build)
//   LEDGER_BENCH_ENTRIES=200000 LEDGER_BENCH_FULL=20000 npm run bench -- ledger-checkpoint   (smaller, faster)
// Prints, each beside a baseline measured in the same run:
//   1. `verify --full` in entries/s, beside the previous verify and a bare SQLite scan of the same rows;
//   2. the first start of this version on the long ledger, written without the table's inputs as a
//      ledger from before checkpoints holds none of its state: it folds from the first entry, once,
//      and writes a checkpoint with the table's state;
//   3. the table then plays (simulated players) until 1,000 entries more are journalled, as a cabinet
//      written by this version always stands: a checkpoint with the table's state behind it;
//   4. verify from that checkpoint, and the host's start, on the long ledger;
//   each start beside the previous start on the same ledger (full verify, projected from part 1's
//   previous verify, plus the fold from the first entry, measured in 2) and a bare scan of the journal.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { simulatedTableConfig } from '../host/config/table-config.js';
import { startHost } from '../host/start-host.js';
import { ledgerFile, Ledger, verifyLedger } from '../ledger/index.js';
import { bareScanRowsPerSecond } from '../ledger/testing/bare-commits.js';
import { appendSynthetic } from '../ledger/testing/synthetic.js';
import { verifyLedgerBefore } from '../ledger/testing/verify-before.js';
import { figure, QUICK, times } from './report.js';

// Under --quick (the report's own test) the ledgers are small: the path runs end to end in seconds.
const ENTRIES = Number(process.env.LEDGER_BENCH_ENTRIES ?? (QUICK ? 5_000 : 1_000_000));
const FULL = Number(process.env.LEDGER_BENCH_FULL ?? (QUICK ? 2_000 : 50_000));
const NEW = QUICK ? 100 : 1_000;
const TERMINAL = 'BENCH';
const dir = mkdtempSync(path.join(os.tmpdir(), 'ledger-ckpt-bench-'));
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const rate = (n: number, ms: number) => `${Math.round((n / ms) * 1000).toLocaleString('en')} entries/s`;
const x = (a: number, b: number) => (a >= b ? `${(a / b).toFixed(1)}×` : `${((100 * a) / b).toFixed(1)}%`);

/** A ledger as the version before checkpoints wrote it: its entries, no checkpoint. */
function build(at: string, entries: number, from = 0): number {
  const l = Ledger.open({ dataDir: at, terminalId: TERMINAL, checkpointEvery: 0 });
  const t = performance.now();
  appendSynthetic(l, entries, { batch: 20_000, from });
  const ms = performance.now() - t;
  l.close();
  return ms;
}

async function startOnce(
  at: string,
): Promise<{ ms: number; verifyMs: number; replayMs: number; verified: number; foldedFrom: number; checkpointed: number | null; ok: boolean }> {
  const t = performance.now();
  const running = await startHost({
    dataDir: at,
    rendererDir: path.join(at, 'none'),
    config: simulatedTableConfig('blackjack'),
    terminalId: TERMINAL,
    logger: pino({ level: 'silent' }),
    simulatedDealer: false,
  });
  const ms = performance.now() - t;
  const r = running.recovery;
  await running.close();
  return {
    ms,
    verifyMs: r.verifyMs,
    replayMs: r.replayMs,
    verified: r.verifiedEntries,
    foldedFrom: r.foldedFrom,
    checkpointed: r.checkpointed,
    ok: r.ledgerVerified,
  };
}

/**
 * The host with simulated players at every station (notes, bets, basic strategy) and a dealer
 * who deals at once, until `entries` more entries are journalled and the round in play is over;
 * then a clean stop.
 */
async function play(at: string, entries: number): Promise<{ entries: number; rounds: number; stations: number; ms: number }> {
  const config = simulatedTableConfig('blackjack');
  const t = performance.now();
  const running = await startHost({
    dataDir: at,
    rendererDir: path.join(at, 'none'),
    config,
    terminalId: TERMINAL,
    logger: pino({ level: 'silent' }),
    seed: 5,
    autoplay: true,
    timings: { bettingMs: 30, decisionMs: 100, resultsMs: 0 },
    simulatedDealer: { dealMs: 0 },
  });
  const from = running.ledger.headOf().seq;
  let rounds = 0;
  let last = '';
  running.table.onChange(() => {
    const v = running.table.reads.view();
    if (v.phase === 'results' && v.roundId !== last) {
      last = v.roundId;
      rounds++;
    }
  });
  while (running.ledger.headOf().seq - from < entries || running.table.reads.view().phase !== 'results') await sleep(20);
  const n = running.ledger.headOf().seq - from;
  await running.close();
  return { entries: n, rounds, stations: config.stations.length, ms: performance.now() - t };
}

try {
  // 1. verify --full, the new path beside the previous one, on the same ledger.
  const small = path.join(dir, 'full');
  let previous = { ms: 0, entries: 0 };
  build(small, FULL);
  const scanSmall = bareScanRowsPerSecond(ledgerFile(small));
  {
    const l = Ledger.open({ dataDir: small, terminalId: TERMINAL });
    let t = performance.now();
    const now = verifyLedger(l);
    const nowMs = performance.now() - t;
    t = performance.now();
    const before = verifyLedgerBefore(l);
    const beforeMs = performance.now() - t;
    previous = { ms: beforeMs, entries: before.entries };
    l.close();
    console.log(`verify --full of ${now.entries.toLocaleString('en')} entries (ok=${now.ok}): ${s(nowMs)} = ${rate(now.entries, nowMs)}`);
    console.log(`  previous verify, same ledger (ok=${before.ok}): ${s(beforeMs)} = ${rate(before.entries, beforeMs)} → ${x(beforeMs, nowMs)} faster`);
    console.log(`  baseline: bare SQLite scan of the same rows: ${rate(scanSmall.rows, scanSmall.ms)} (verify is ${x(nowMs, scanSmall.ms)} a scan)`);
    figure({
      name: 'ledger verify --full',
      unit: 'entries/s',
      value: (now.entries / nowMs) * 1000,
      better: 'higher',
      baseline: { name: 'bare SQLite scan of the same rows', value: (scanSmall.rows / scanSmall.ms) * 1000 },
    });
    console.log(
      `  projected for ${ENTRIES.toLocaleString('en')} entries: now ${s((ENTRIES / now.entries) * nowMs)}, previously ${s((ENTRIES / before.entries) * beforeMs)}`,
    );
  }

  // The long ledger, built fast (20,000 entries to a transaction) through the ledger's own append.
  const big = path.join(dir, 'big');
  const buildMs = build(big, ENTRIES);
  const scan = bareScanRowsPerSecond(ledgerFile(big));
  console.log(`\nlong ledger: ${scan.rows.toLocaleString('en')} entries built in ${s(buildMs)} (${rate(scan.rows, buildMs)})`);
  console.log(`  baseline: bare SQLite scan of its journal: ${s(scan.ms)} (${rate(scan.rows, scan.ms)})`);

  // 2. The first start of this version on the long ledger, which holds no checkpoint: it verifies
  // from genesis and folds the table from the first entry (as every start did before), once.
  const first = await startOnce(big);
  console.log(
    `\nfirst start on the long ledger (no checkpoint: verify from genesis, fold from the first entry, once): ${s(first.ms)} (verified ${first.verified.toLocaleString('en')} entries in ${s(first.verifyMs)}, fold ${s(first.replayMs)}, the rest ${s(first.ms - first.verifyMs - first.replayMs)}; checkpoint with the table written at ${first.checkpointed ?? 'none'})`,
  );

  // 3. The table plays until NEW entries more are journalled: a cabinet's ledger as this version writes it.
  const played = await play(big, NEW);
  console.log(
    `the table played ${played.rounds} rounds with ${played.stations} simulated players: ${played.entries.toLocaleString('en')} entries in ${s(played.ms)}`,
  );

  // 4a. Verify from the checkpoint (read before the next start writes another at the head).
  let verifyMs: number;
  let verified: number;
  {
    const l = Ledger.open({ dataDir: big, terminalId: TERMINAL });
    const t = performance.now();
    const r = verifyLedger(l, { from: 'checkpoint' });
    verifyMs = performance.now() - t;
    verified = r.entries;
    l.close();
    console.log(
      `\nverify from the checkpoint (entry ${r.fromSeq}) after ${r.entries.toLocaleString('en')} entries of play (ok=${r.ok}): ${verifyMs.toFixed(0)} ms`,
    );
    console.log(`  baseline: bare scan of the whole journal ${s(scan.ms)}: verify is ${x(verifyMs, scan.ms)} of it`);
    figure({
      name: `verify from the checkpoint after ${r.entries.toLocaleString('en')} entries of play on ${ENTRIES.toLocaleString('en')}`,
      unit: 'ms',
      value: verifyMs,
      better: 'lower',
      baseline: { name: 'bare SQLite scan of the whole journal', value: scan.ms },
    });
    const t2 = performance.now();
    const opened = Ledger.open({ dataDir: big, terminalId: TERMINAL });
    const openMs = performance.now() - t2;
    opened.close();
    console.log(`  opening the ledger (integrity_check of the state tables, migrations, tail re-hash): ${openMs.toFixed(0)} ms`);
  }

  // 4b. The host's start on it.
  const again = await startOnce(big);
  console.log(
    `host start after ${verified.toLocaleString('en')} entries of play (ok=${again.ok}): ${s(again.ms)} (verified ${again.verified} entries in ${again.verifyMs.toFixed(0)} ms, fold from checkpoint ${again.foldedFrom} in ${again.replayMs.toFixed(0)} ms, the rest — program hash, devices, server — ${s(again.ms - again.verifyMs - again.replayMs)})`,
  );

  // The previous start verified the whole journal with the previous verify and folded the table
  // from the first entry: its verify projected from part 1, its fold as measured in part 2.
  const previousVerify = (previous.ms / previous.entries) * scan.rows;
  const previousStart = again.ms - again.verifyMs - again.replayMs + previousVerify + first.replayMs;
  console.log(
    `  the previous start on this ledger ≈ ${s(previousStart)} (previous verify of the whole journal projected ${s(previousVerify)} + fold from the first entry ${s(first.replayMs)}) → ${x(previousStart, again.ms)}`,
  );
  const start = figure({
    name: `host start after ${verified.toLocaleString('en')} entries of play on ${ENTRIES.toLocaleString('en')} (checkpoint with the table's state)`,
    unit: 'ms',
    value: again.ms,
    better: 'lower',
    baseline: { name: 'bare SQLite scan of the whole journal', value: scan.ms },
    note: `the previous start on this ledger ≈ ${Math.round(previousStart)} ms`,
  });
  console.log(`  baseline: bare scan of the journal ${s(scan.ms)}: the start is ${times(start)} of it`);
  const once = figure({
    name: `first start on ${ENTRIES.toLocaleString('en')} entries written before checkpoints (verify from genesis, fold from the first entry, once)`,
    unit: 'ms',
    value: first.ms,
    better: 'lower',
    baseline: { name: 'bare SQLite scan of the whole journal', value: scan.ms },
    note: `the previous start on this ledger ≈ ${Math.round(previousStart)} ms`,
  });
  console.log(`  the first start is ${times(once)} the bare scan; the previous start took ${x(previousStart, first.ms)} as long`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
