// Start-up and verification cost on a long journal, with checkpoints (docs/ledger.md, "Checkpoints").
//   npm run bench -- ledger-checkpoint
//   LEDGER_BENCH_ENTRIES=200000 LEDGER_BENCH_FULL=20000 npm run bench -- ledger-checkpoint   (smaller, faster)
// Prints, each beside a baseline measured in the same run:
//   1. `verify --full` in entries/s, beside the previous verify and a bare SQLite scan of the same rows;
//   2. verify from a checkpoint after 1,000 new entries on the long ledger, beside a bare scan of its whole journal;
//   3. the host's start on the long ledger after 1,000 new entries, beside the previous start's
//      two journal-long steps (full verify, fold from the first entry) measured or projected here.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
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

function build(at: string, entries: number, from = 0): number {
  const l = Ledger.open({ dataDir: at, terminalId: TERMINAL });
  const t = performance.now();
  appendSynthetic(l, entries, { batch: 20_000, from });
  const ms = performance.now() - t;
  l.close();
  return ms;
}

async function startOnce(at: string): Promise<{ ms: number; verifyMs: number; replayMs: number; verified: number; foldedFrom: number; ok: boolean }> {
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
  return { ms, verifyMs: r.verifyMs, replayMs: r.replayMs, verified: r.verifiedEntries, foldedFrom: r.foldedFrom, ok: r.ledgerVerified };
}

try {
  // 1. verify --full, the new path beside the previous one, on the same ledger.
  const small = path.join(dir, 'full');
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

  // 2. Verify from a checkpoint after 1,000 new entries.
  {
    const l = Ledger.open({ dataDir: big, terminalId: TERMINAL });
    l.checkpoint();
    appendSynthetic(l, NEW, { from: 10_000_000, batch: 100 });
    let t = performance.now();
    const r = verifyLedger(l, { from: 'checkpoint' });
    const ms = performance.now() - t;
    console.log(`\nverify from the checkpoint after ${r.entries.toLocaleString('en')} new entries (ok=${r.ok}): ${ms.toFixed(0)} ms`);
    console.log(`  baseline: bare scan of the whole journal ${s(scan.ms)}: verify is ${x(ms, scan.ms)} of it`);
    figure({
      name: `verify from the checkpoint after ${NEW.toLocaleString('en')} new entries on ${ENTRIES.toLocaleString('en')}`,
      unit: 'ms',
      value: ms,
      better: 'lower',
      baseline: { name: 'bare SQLite scan of the whole journal', value: scan.ms },
    });
    t = performance.now();
    const opened = Ledger.open({ dataDir: big, terminalId: TERMINAL });
    const openMs = performance.now() - t;
    opened.close();
    console.log(`  opening the ledger (integrity_check, migrations, tail re-hash): ${openMs.toFixed(0)} ms`);
    l.close();
  }

  // 3. The host's start. The first start on this ledger has no checkpoint holding the table's
  // state: it folds the table from the first entry, as every start did before (measured here).
  const first = await startOnce(big);
  console.log(
    `\nhost start, first on this ledger (fold from the first entry): ${s(first.ms)} (verify ${first.verifyMs.toFixed(0)} ms, fold ${s(first.replayMs)})`,
  );
  const l = Ledger.open({ dataDir: big, terminalId: TERMINAL });
  appendSynthetic(l, NEW, { from: 20_000_000, batch: 100 });
  l.close();
  const again = await startOnce(big);
  console.log(
    `host start after ${NEW.toLocaleString('en')} new entries (ok=${again.ok}): ${s(again.ms)} (verified ${again.verified} entries in ${again.verifyMs.toFixed(0)} ms, fold from checkpoint ${again.foldedFrom} in ${again.replayMs.toFixed(0)} ms)`,
  );
  // The previous start verified the whole journal and folded it from the first entry.
  const smallVerify = (() => {
    const v = Ledger.open({ dataDir: small, terminalId: TERMINAL });
    const t = performance.now();
    const r = verifyLedgerBefore(v);
    const ms = performance.now() - t;
    v.close();
    return (ms / r.entries) * scan.rows;
  })();
  const previous = again.ms - again.verifyMs - again.replayMs + smallVerify + first.replayMs;
  console.log(
    `  baseline: the previous start on this ledger ≈ ${s(previous)} (full verify projected ${s(smallVerify)} + fold from the first entry ${s(first.replayMs)}) → ${x(previous, again.ms)}`,
  );
  const start = figure({
    name: `host start after ${NEW.toLocaleString('en')} new entries on ${ENTRIES.toLocaleString('en')}`,
    unit: 'ms',
    value: again.ms,
    better: 'lower',
    baseline: { name: 'bare SQLite scan of the whole journal', value: scan.ms },
  });
  console.log(`  baseline: bare scan of the journal ${s(scan.ms)}: the start is ${times(start)} of it`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
