// Runs every Node test (`*.test.ts` anywhere but node_modules and the browser tests) with Node's
// own test runner through tsx. Arguments narrow the set: `npm run test:unit -- protocol` runs the
// files whose path contains "protocol".
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const SKIP = new Set(['node_modules', 'dist', '.git', 'test-results', 'playwright-report', 'artifacts']);

function collect(dir: string, out: string[]): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (full === path.join('tests', 'browser')) continue;
      collect(full, out);
    } else if (entry.name.endsWith('.test.ts')) {
      out.push(full);
    }
  }
  return out;
}

const filters = process.argv.slice(2);
const files = collect('.', [])
  .filter((f) => filters.length === 0 || filters.some((p) => f.includes(p)))
  .sort();
if (files.length === 0) {
  console.error(`No test files match ${filters.join(' ') || '*.test.ts'}`);
  process.exit(1);
}
// A test that hangs fails after ten minutes (a kill-and-restart test takes two or three on a loaded machine) instead of stalling the run (and CI) indefinitely.
// Two files at a time even on two cores (Node's default there is one): the longest files (kill and
// restart at every step, the CLIs) spend much of their time starting child processes and waiting
// on them, so a second file fills the gaps. TEST_CONCURRENCY overrides it.
const concurrency = Number(process.env.TEST_CONCURRENCY ?? 2);
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-timeout=600000', `--test-concurrency=${concurrency}`, ...files], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
