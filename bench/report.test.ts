// The bench report: its schema refuses a ratio that is not the figure over its baseline, and
// `npm run bench -- --quick --json FILE ledger` runs the report path end to end (a few seconds)
// and writes a report that fits the schema. No timing is asserted: only the report's shape and
// that its ratios are the figures over their baselines.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { BenchRecord, BenchReport, ratioOf } from './report.js';

const dir = path.dirname(fileURLToPath(import.meta.url));

function runBench(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, 'run.ts'), ...args], {
    encoding: 'utf8',
    env: { ...process.env, BENCH_RECORDS: '' },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('a record whose ratio is not its figure over its baseline is refused', () => {
  const base = { name: 'x', unit: 'ms', value: 6, better: 'lower' as const, baseline: { name: 'bare x', value: 2 } };
  assert.equal(BenchRecord.safeParse({ ...base, ratio: 3 }).success, true);
  assert.equal(BenchRecord.safeParse({ ...base, ratio: 1 / 3 }).success, false);
  // A rate: the ratio is the baseline over the figure, so above 1 still means "costs more than bare".
  assert.equal(ratioOf('higher', 500, 2000), 4);
  assert.equal(
    BenchRecord.safeParse({ ...base, unit: 'commits/s', better: 'higher', value: 500, baseline: { name: 'bare', value: 2000 }, ratio: 4 }).success,
    true,
  );
  // No baseline: no ratio, and a note saying why.
  assert.equal(BenchRecord.safeParse({ ...base, baseline: null, ratio: null, note: 'the timers set it' }).success, true);
  assert.equal(BenchRecord.safeParse({ ...base, baseline: null, ratio: null }).success, false);
  assert.equal(BenchRecord.safeParse({ ...base, ratio: 3, value: Number.NaN }).success, false);
  // Zero is a measurement (a still table drawing no frames, the target), not a broken one.
  assert.equal(BenchRecord.safeParse({ ...base, unit: 'frames/s', value: 0, baseline: null, ratio: null, note: 'target zero' }).success, true);
  assert.equal(BenchRecord.safeParse({ ...base, value: -1, baseline: null, ratio: null, note: 'x' }).success, false);
});

test('npm run bench -- --quick --json FILE ledger writes one report that fits the schema', () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-report-test-'));
  try {
    const file = path.join(tmp, 'report.json');
    const r = runBench(['--quick', '--json', file, 'ledger']);
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    // The bench's own lines are still printed for people.
    assert.match(r.stdout, /durable commits, 1 bill\.credit each/);
    const report = BenchReport.parse(JSON.parse(readFileSync(file, 'utf8')));
    assert.equal(report.quick, true);
    assert.deepEqual(report.filters, ['ledger']);
    assert.deepEqual(
      report.benches.map((b) => [b.file, b.exitCode]),
      [['ledger.bench.ts', 0]],
    );
    assert.ok(report.records.length >= 2);
    assert.ok(report.records.every((x) => x.bench === 'ledger'));
    const commit = report.records.find((x) => x.name.startsWith('journal commit'));
    assert.ok(commit?.baseline, 'the journal commit figure has its bare SQLite baseline');
    assert.match(commit.baseline.name, /bare .*SQLite commit/);
    assert.equal(commit.ratio, ratioOf(commit.better, commit.value, commit.baseline.value));
    assert.equal(report.machine.cpus, os.cpus().length);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('a filter that matches no bench fails, with or without --json', () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-report-test-'));
  try {
    assert.equal(runBench(['--json', path.join(tmp, 'r.json'), 'no-such-bench']).status, 1);
    assert.equal(runBench(['--frobnicate']).status, 2);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
