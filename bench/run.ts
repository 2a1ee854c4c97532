// `npm run bench`: runs every `bench/*.bench.ts` (or those whose name contains an argument) one
// after another in its own process, so one benchmark's heap and JIT state do not colour the next.
// Benchmarks print their own figures; nothing here asserts a timing.
//
//   npm run bench -- --json [FILE.json]   also writes one JSON report (bench/report.ts, `BenchReport`):
//                                         every headline figure beside its same-run baseline and
//                                         their ratio, with the machine's facts; default
//                                         bench-report.json. `--json=FILE` works too.
//   npm run bench -- --quick              BENCH_QUICK=1: a few seconds per bench, figures meaningless
//   npm run bench -- table-host ledger    only those benches (a whole name picks that bench; a part, every bench containing it)
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BenchRecord, BenchReport, type ReportRecord } from './report.js';

const dir = path.dirname(fileURLToPath(import.meta.url));

let json: string | null = null;
let quick = false;
const filters: string[] = [];
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const a = args[i] as string;
  if (a === '--json') {
    const next = args[i + 1];
    json = next !== undefined && next.endsWith('.json') ? next : 'bench-report.json';
    if (json === next) i++;
  } else if (a.startsWith('--json=')) json = a.slice('--json='.length);
  else if (a === '--quick') quick = true;
  else if (a.startsWith('--')) {
    console.error(`unknown option ${a} (--json [FILE.json], --quick, or parts of bench file names)`);
    process.exit(2);
  } else filters.push(a);
}

// A filter that is a bench's whole name picks that bench alone (`ledger` is not also
// `ledger-checkpoint`); any other filter picks every bench whose name contains it.
const all = readdirSync(dir).filter((f) => f.endsWith('.bench.ts'));
const picks = (f: string, p: string) => (all.includes(`${p}.bench.ts`) ? f === `${p}.bench.ts` : f.includes(p));
const files = all.filter((f) => filters.length === 0 || filters.some((p) => picks(f, p))).sort();
if (files.length === 0) {
  console.log('No benchmarks match.');
  process.exit(filters.length ? 1 : 0);
}

const git = (...a: string[]): string | null => {
  try {
    return execFileSync('git', a, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
};
// The commit and whether the tree differs from it, as the benches start (a commit made during a long run is not theirs).
const status = git('status', '--porcelain', '--untracked-files=no');
const commit = git('rev-parse', 'HEAD');
const loadavg = () => os.loadavg().map((l) => Math.round(l * 100) / 100);
const started = { date: new Date().toISOString(), loadavg: loadavg() };
const scratch = json ? mkdtempSync(path.join(os.tmpdir(), 'bench-records-')) : null;
const benches: BenchReport['benches'] = [];
const records: ReportRecord[] = [];
let failed = 0;
for (const f of files) {
  console.log(`\n── ${f} ──`);
  const env = { ...process.env };
  if (quick) env.BENCH_QUICK = '1';
  const recordsFile = scratch ? path.join(scratch, `${f}.jsonl`) : null;
  if (recordsFile) {
    writeFileSync(recordsFile, '');
    env.BENCH_RECORDS = recordsFile;
  } else delete env.BENCH_RECORDS;
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, f)], { stdio: 'inherit', env });
  let ok = r.status === 0;
  let count = 0;
  if (recordsFile) {
    const bench = f.replace(/\.bench\.ts$/, '');
    for (const line of readFileSync(recordsFile, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const parsed = BenchRecord.safeParse(JSON.parse(line));
      if (!parsed.success) {
        console.error(`${f}: a record that does not fit the schema: ${parsed.error.message}\n${line}`);
        ok = false;
        continue;
      }
      records.push({ bench, ...parsed.data });
      count++;
    }
    if (r.status === 0 && count === 0) {
      console.error(`${f}: wrote no records`);
      ok = false;
    }
  }
  benches.push({ file: f, exitCode: r.status, seconds: Math.round((performance.now() - t0) / 100) / 10, records: count });
  if (!ok) failed++;
}

if (json && scratch) {
  const cpus = os.cpus();
  const report = BenchReport.parse({
    format: 1,
    date: started.date,
    git: { commit, dirty: status === null ? null : status.length > 0 },
    machine: {
      node: process.version,
      platform: process.platform,
      arch: process.arch,
      cpus: cpus.length,
      cpuModel: cpus[0]?.model.trim() ?? '',
      memoryMb: Math.round(os.totalmem() / 1024 / 1024),
      loadavg: { start: started.loadavg, end: loadavg() },
    },
    quick,
    filters,
    benches,
    records,
  });
  writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`);
  rmSync(scratch, { recursive: true, force: true });
  console.log(`\n${markdownTable(report)}`);
  console.log(`\nreport: ${path.resolve(json)} (${records.length} figures from ${benches.length} benches)`);
}
process.exit(failed ? 1 : 0);

/** The report's figures as the markdown table docs/benchmarks.md keeps. */
function markdownTable(report: BenchReport): string {
  const n = (x: number) => (x >= 100 ? Math.round(x).toLocaleString('en') : x >= 10 ? x.toFixed(1) : x.toPrecision(3));
  const lines = ['| bench | figure | value | baseline (same run) | value | ratio |', '|---|---|---|---|---|---|'];
  for (const r of report.records) {
    const value = `${n(r.value)} ${r.unit}`;
    lines.push(
      r.baseline && r.ratio !== null
        ? `| ${r.bench} | ${r.name} | ${value} | ${r.baseline.name} | ${n(r.baseline.value)} ${r.unit} | ${r.ratio.toFixed(2)}× |`
        : `| ${r.bench} | ${r.name} | ${value} | none: ${r.note ?? ''} | | |`,
    );
  }
  return lines.join('\n');
}
