// What the witness's own fold of the entries' effects (issue 50 item 1) costs a witnessed host's start.
//   npm run bench -- witness-start                        (a 200,000-entry journal)
//   WITNESS_BENCH_ENTRIES=1000000 npm run bench -- witness-start
// On one journal, with the witness in this process (its key file, its folder):
//   1. the first witnessed start of a journal the witness never folded: the start (verify from
//      genesis, the chain from genesis), then the checkpoint signed (the bodies from genesis folded);
//   2. a start after 1,000 entries more: the start, then its checkpoint (those 1,000 bodies folded);
//   3. the start right after (nothing new): the steady state a cabinet restarts in.
// Beside each, a bare SQLite scan of the whole journal measured in the same run. The same script
// runs on the code before the fold (`WITNESS_BENCH_CODE=/path/to/checkout`) for the before/after.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import type * as HostModule from '../host/start-host.js';
import type * as LedgerModule from '../ledger/index.js';
import type * as BareModule from '../ledger/testing/bare-commits.js';
import type * as SyntheticModule from '../ledger/testing/synthetic.js';
import type * as WitnessModule from '../witness/index.js';
import { figure, QUICK, times } from './report.js';

const code = process.env.WITNESS_BENCH_CODE ?? path.resolve(import.meta.dirname, '..');
// The modules of the checkout measured (this one, or the one named): the same API on both sides.
const { startHost } = (await import(path.join(code, 'host/start-host.ts'))) as typeof HostModule;
const { Ledger, ledgerFile } = (await import(path.join(code, 'ledger/index.ts'))) as typeof LedgerModule;
const { appendSynthetic } = (await import(path.join(code, 'ledger/testing/synthetic.ts'))) as typeof SyntheticModule;
const { bareScanRowsPerSecond } = (await import(path.join(code, 'ledger/testing/bare-commits.ts'))) as typeof BareModule;
const { startWitness, writeNewKeyFile } = (await import(path.join(code, 'witness/index.ts'))) as typeof WitnessModule;

const ENTRIES = Number(process.env.WITNESS_BENCH_ENTRIES ?? (QUICK ? 3_000 : 200_000));
const MORE = QUICK ? 100 : 1_000;
const TERMINAL = 'BENCH';
const root = mkdtempSync(path.join(os.tmpdir(), 'witness-start-bench-'));
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

try {
  const data = path.join(root, 'data');
  const wdir = path.join(root, 'witness');
  mkdirSync(wdir, { mode: 0o700 });
  writeNewKeyFile(path.join(wdir, 'witness.key'));
  const socket = path.join(wdir, 'witness.sock');
  const witness = await startWitness({ dir: wdir, key: { kind: 'file', file: path.join(wdir, 'witness.key') }, listen: { socket } });
  {
    const l = Ledger.open({ dataDir: data, terminalId: TERMINAL, checkpointEvery: 0 });
    appendSynthetic(l, ENTRIES, { batch: 20_000 });
    l.close();
  }
  const scanMs = bareScanRowsPerSecond(ledgerFile(data)).ms;
  const start = async (what: string) => {
    const t = performance.now();
    const running = await startHost({
      dataDir: data,
      terminalId: TERMINAL,
      rendererDir: path.join(root, 'none'),
      logger: pino({ level: 'silent' }),
      simulatedDealer: false,
      witness: { socket, waitMs: 10_000 },
    });
    const startMs = performance.now() - t;
    await running.ledger.checkpoints.signed();
    const signedMs = performance.now() - t;
    const r = running.recovery;
    if (!r.ledgerVerified) throw new Error(`${what}: the start did not verify: ${r.problems.join('; ')}`);
    const head = running.ledger.headOf().seq;
    await running.close();
    for (const [label, ms] of [
      [`${what}: the start`, startMs],
      [`${what}: the start and its checkpoint signed`, signedMs],
    ] as const) {
      const rec = figure({
        name: `${label} (${head.toLocaleString('en')} entries, verified from ${r.verifiedFrom.toLocaleString('en')})`,
        unit: 'ms',
        better: 'lower',
        value: ms,
        baseline: { name: 'bare SQLite scan of the whole journal', value: scanMs },
      });
      console.log(`${rec.name}\t${s(ms)}\tbare scan ${s(scanMs)}\t${times(rec)}`);
    }
  };
  await start('first witnessed start');
  {
    const l = Ledger.open({ dataDir: data, terminalId: TERMINAL, witnessed: true, checkpointEvery: 0 });
    appendSynthetic(l, MORE, { batch: MORE, from: ENTRIES });
    l.close();
  }
  await start(`after ${MORE.toLocaleString('en')} entries more`);
  await start('again, nothing new');
  await witness.close();
} finally {
  rmSync(root, { recursive: true, force: true });
}
