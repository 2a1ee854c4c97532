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

/**
 * The longest files, longest first (seconds of one full run at a load average of 11–27: the
 * order matters, the figures only rank them). They start first: sorted by name they came last
 * ("tests/…"), and two runners spent the run's last five to six minutes on them alone while the
 * short files had long finished. Started first, the short files fill the other runner meanwhile.
 */
const LONGEST_FIRST = [
  'tests/host/kill-restart-blackjack.test.ts', // 185
  'tests/host/kill-restart-war.test.ts', // 132
  'tests/sync/pg.test.ts', // 105
  'tests/host/kill-restart-baccarat.test.ts', // 98
  'engine/blackjack/exact/expectation.test.ts', // 118 (two suites)
  'tests/sync/pglite.test.ts', // 62
  'cli/ledger/cli.test.ts', // 55
  'tests/sync/floor-entries.test.ts', // 50
];
const rank = (f: string) => {
  const i = LONGEST_FIRST.indexOf(f.split(path.sep).join('/'));
  return i < 0 ? LONGEST_FIRST.length : i;
};

const filters = process.argv.slice(2);
const files = collect('.', [])
  .filter((f) => filters.length === 0 || filters.some((p) => f.includes(p)))
  .sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
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
