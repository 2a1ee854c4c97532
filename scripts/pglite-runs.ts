// Runs every test file that opens PGlite N times over, K files at a time, each file in its own
// process as `npm test` does (issue 52 item 5: one V8 fatal error in a whole CI run, never in six
// runs of the file alone). Usage:
//   npx tsx scripts/pglite-runs.ts [--runs N] [--parallel K] [files...]
// Prints one line per run (files passed, failed, and any that died on a signal or a V8 CHECK) and
// exits 1 if any run failed. docs/toolchain.md, "PGlite and V8's wasm code GC".
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

/**
 * The test files whose processes (or the `etg upstream` they start) make a PGlite database: those
 * that open the upstream's database or start it without PostgreSQL (`openPglite`, `openUpstreamDb({})`,
 * `startUpstream` without `pg`), use the back office's kit or a floor on PGlite, or spawn `etg upstream`.
 * Found by a search of the tests on 28 November 2026 (29 files; the list of 26 November had 14).
 */
export const PGLITE_TEST_FILES = [
  'deploy/deploy.test.ts',
  'tests/sas/two-authorities.e2e.test.ts',
  'tests/security/backoffice-config.test.ts',
  'tests/security/backoffice-profile.test.ts',
  'tests/security/backoffice-sign-in.test.ts',
  'tests/security/ticket-authority-hostile.test.ts',
  'tests/security/ticket-printer-lies.test.ts',
  'tests/security/transfer-alarm-flood.test.ts',
  'tests/security/transfer-recall-trick.test.ts',
  'tests/sync/backoffice-alarms.test.ts',
  'tests/sync/backoffice-config.test.ts',
  'tests/sync/backoffice-currency.test.ts',
  'tests/sync/backoffice-evidence.test.ts',
  'tests/sync/backoffice-floor.test.ts',
  'tests/sync/backoffice-profile.test.ts',
  'tests/sync/backoffice-report.test.ts',
  'tests/sync/floor-entries.test.ts',
  'tests/sync/pglite.test.ts',
  'tests/sync/round-evidence.test.ts',
  'tests/sync/upstream-attacks.test.ts',
  'tests/sync/upstream-kill.test.ts',
  'tests/sync/upstream-ops.test.ts',
  'tests/sync/upstream-receipts.test.ts',
  'tests/sync/upstream-transfers.test.ts',
  'tests/tickets/concurrent-redemptions.test.ts',
  'tests/tickets/upstream-register.test.ts',
  'tests/transfers/floor-upstream.test.ts',
  'upstream/backoffice/config-profile-migration.test.ts',
  'upstream/backoffice/schema.test.ts',
];

interface RunResult {
  passed: number;
  failed: number;
  /** Lines that say a process died natively: V8's CHECK, a fatal error, a signal. */
  crashes: string[];
  seconds: number;
  output: string;
}

/** One run of the files under `npm run test:node`, as the suite runs them. */
function runOnce(files: string[], parallel: number): Promise<RunResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', 'test:node', '--', ...files], {
      env: { ...process.env, TEST_CONCURRENCY: String(parallel) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (b: Buffer) => (output += b.toString()));
    child.stderr.on('data', (b: Buffer) => (output += b.toString()));
    child.on('close', () => {
      const count = (label: string) => Number(new RegExp(`^ℹ ${label} (\\d+)$`, 'm').exec(output)?.[1] ?? NaN);
      const crashes = output.split('\n').filter((l) => /Check failed|Fatal error|SIGTRAP|SIGILL|SIGSEGV|SIGABRT|core dumped/.test(l));
      resolve({ passed: count('pass'), failed: count('fail'), crashes, seconds: (Date.now() - started) / 1000, output });
    });
  });
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: { runs: { type: 'string', default: '10' }, parallel: { type: 'string', default: '3' } },
    allowPositionals: true,
  });
  const runs = Number(values.runs);
  const parallel = Number(values.parallel);
  const files = positionals.length > 0 ? positionals : PGLITE_TEST_FILES;
  console.log(`${files.length} files, ${runs} runs, ${parallel} at a time, node ${process.version}`);
  const logs = mkdtempSync(path.join(os.tmpdir(), 'pglite-runs-'));
  let bad = 0;
  for (let i = 1; i <= runs; i++) {
    const r = await runOnce(files, parallel);
    const ok = r.failed === 0 && r.crashes.length === 0 && Number.isFinite(r.passed);
    if (!ok) bad++;
    console.log(
      `run ${i}: ${ok ? 'ok' : 'FAILED'} pass ${r.passed} fail ${r.failed} in ${r.seconds.toFixed(0)} s${r.crashes.length ? ` crash: ${r.crashes.join(' | ')}` : ''}`,
    );
    if (!ok) {
      const file = path.join(logs, `run-${i}.log`);
      writeFileSync(file, r.output);
      console.log(
        `  ${r.output
          .split('\n')
          .filter((l) => /^test at |Check failed|AssertionError/.test(l))
          .slice(0, 20)
          .join('\n  ')}\n  the whole output: ${file}`,
      );
    }
  }
  console.log(`${runs - bad} of ${runs} runs passed`);
  process.exitCode = bad === 0 ? 0 : 1;
}

await main();
