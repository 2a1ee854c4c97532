// The table host's memory alone, for issue 52's resident-set growth (the long-run bench saw the
// host's RSS grow ~9 MB over 5,000 rounds with its JS heap flat). Starts `etg start --headless
// --autoplay --test-timing` (baccarat, three stations, seed 52, as bench/long-run.bench.ts does)
// with no browser pages, and every N rounds prints:
//   - the resident set split as the kernel counts it (/proc/PID/status: anonymous, file-backed,
//     shared memory) and the largest anonymous regions' growth (/proc/PID/smaps);
//   - process.memoryUsage() after two full GCs (heap used and total, external, array buffers), read
//     over the host's inspector, and V8's heap spaces;
//   - each SQLite connection the host holds (ledger/testing/connections-preload.mjs): cache_size, page count
//     and size, and the data folder's database, WAL and -shm files.
// Usage (under nice, beside other work):
//   npx tsx bench/host-memory.ts [--rounds 2000] [--every 250] [--out samples.json] [--keep]
// (--keep leaves the host's data folder, its ledger included, where it was; it is removed otherwise)
//   MALLOC_ARENA_MAX=2 npx tsx bench/host-memory.ts ...     # the host inherits the environment
//   HOST_MEM_CACHE_KIB=2000 npx tsx bench/host-memory.ts ... # every connection's page cache 2 MB
// An analysis, not a bench with a budget: docs/benchmarks.md, "The host's resident set".
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { LedgerWatch } from '../cli/soak/child.js';
import { InspectorSession, inspectorUrl } from './node-probe.js';
import { trend } from './trend.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '2000' },
    every: { type: 'string', default: '250' },
    out: { type: 'string' },
    keep: { type: 'boolean', default: false },
    game: { type: 'string', default: 'baccarat' },
    stations: { type: 'string', default: '3' },
    seed: { type: 'string', default: '52' },
  },
});
const ROUNDS = Number(values.rounds);
const EVERY = Number(values.every);
const MB = 1024 * 1024;

/** The kernel's split of a process's resident set, bytes. */
export function residentSplit(status: string): { rss: number; anon: number; file: number; shmem: number } {
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), anon: kb('RssAnon'), file: kb('RssFile'), shmem: kb('RssShmem') };
}

/**
 * Resident bytes of each mapping in /proc/PID/smaps, keyed by its start address (a malloc arena or
 * the brk heap grows in place; its end moves), with a class: glibc's brk heap, a thread arena (an
 * anonymous mapping on a 64 MiB boundary), a file, or another anonymous mapping (V8's pages, stacks).
 */
export function mappings(smaps: string): Map<string, { name: string; rss: number }> {
  const out = new Map<string, { name: string; rss: number }>();
  let key = '';
  for (const line of smaps.split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      key = head[1]!;
      const start = BigInt(`0x${head[1]}`);
      const name = head[3] || (start % (64n << 20n) === 0n ? '[malloc arena?]' : '[anon]');
      out.set(key, { name, rss: 0 });
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && key) out.get(key)!.rss = Number(rss[1]) * 1024;
  }
  return out;
}

/** Resident bytes by class of mapping: [heap], [malloc arena?], [anon], files (by name) summed. */
export function byClass(m: Map<string, { name: string; rss: number }>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const { name, rss } of m.values()) {
    const k = name.startsWith('/') ? (/\.(db|sqlite)(-shm)?$/.test(name) ? 'sqlite files' : 'other files') : name;
    out[k] = (out[k] ?? 0) + rss;
  }
  return out;
}

interface Sample {
  rounds: number;
  seconds: number;
  rss: number;
  anon: number;
  file: number;
  shmem: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  /** RSS less V8's heap (committed) and what V8 counts as external: the native part. */
  native: number;
  spaces: Record<string, number>;
  sqlite: { file: string; cacheSize: number; pages: number; pageSize: number; closed?: boolean; error?: string }[];
  files: Record<string, number>;
  mappings: Map<string, { name: string; rss: number }>;
}

const PROBE = `(() => {
  const v8 = process.getBuiltinModule('v8');
  const m = process.memoryUsage();
  const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, s.space_used_size]));
  // Every connection the host opened, closed ones too (a closed one's cache is freed, but not
  // necessarily given back by malloc): read by the preload, which alone touches SQLite.
  const sqlite = globalThis.__benchSqliteFigures?.() ?? [];
  return JSON.stringify({ m, spaces, sqlite });
})()`;

async function sample(inspector: InspectorSession, pid: number, dataDir: string, rounds: number, started: number): Promise<Sample> {
  await inspector.heapAfterGc();
  const r = (await inspector.send('Runtime.evaluate', { expression: PROBE, returnByValue: true })) as {
    result: { value?: string };
    exceptionDetails?: { exception?: { description?: string } };
  };
  if (r.result.value === undefined) throw new Error(`the probe failed in the host: ${r.exceptionDetails?.exception?.description ?? 'no value'}`);
  const { m, spaces, sqlite } = JSON.parse(r.result.value) as {
    m: NodeJS.MemoryUsage;
    spaces: Record<string, number>;
    sqlite: Sample['sqlite'];
  };
  const split = residentSplit(readFileSync(`/proc/${pid}/status`, 'utf8'));
  const files: Record<string, number> = {};
  for (const f of readdirSync(dataDir)) if (/\.(db|sqlite)(-wal|-shm)?$/.test(f)) files[f] = statSync(path.join(dataDir, f)).size;
  return {
    rounds,
    seconds: (Date.now() - started) / 1000,
    ...split,
    heapUsed: m.heapUsed,
    heapTotal: m.heapTotal,
    external: m.external,
    arrayBuffers: m.arrayBuffers,
    native: split.rss - m.heapTotal - m.external,
    spaces,
    sqlite,
    files,
    mappings: mappings(readFileSync(`/proc/${pid}/smaps`, 'utf8')),
  };
}

function line(s: Sample): string {
  const f = (v: number) => (v / MB).toFixed(2);
  const cache = s.sqlite
    .map((c) => `${path.basename(c.file)} ${c.closed ? 'closed' : c.error ? `(${c.error})` : `${c.cacheSize}/${((c.pages * c.pageSize) / MB).toFixed(1)}MB`}`)
    .join(', ');
  return (
    `${s.rounds} rounds ${s.seconds.toFixed(0)} s: rss ${f(s.rss)} (anon ${f(s.anon)}, file ${f(s.file)}, shmem ${f(s.shmem)}) ` +
    `heap ${f(s.heapUsed)}/${f(s.heapTotal)} external ${f(s.external)} arrayBuffers ${f(s.arrayBuffers)} native ${f(s.native)} ` +
    `code ${f(s.spaces.code_space ?? NaN)} | ${Object.entries(byClass(s.mappings))
      .map(([k, v]) => `${k} ${f(v)}`)
      .join(', ')} | sqlite ${cache}`
  );
}

/** The mappings whose resident bytes changed most between two samples. */
function grewMost(a: Sample, b: Sample, n = 8): string[] {
  const rows: { key: string; name: string; d: number; rss: number }[] = [];
  for (const [key, v] of b.mappings) rows.push({ key, name: v.name, d: v.rss - (a.mappings.get(key)?.rss ?? 0), rss: v.rss });
  for (const [key, v] of a.mappings) if (!b.mappings.has(key)) rows.push({ key, name: `${v.name} (gone)`, d: -v.rss, rss: 0 });
  return rows
    .sort((x, y) => Math.abs(y.d) - Math.abs(x.d))
    .slice(0, n)
    .map((r) => `  ${(r.d / MB).toFixed(2).padStart(7)} MB  ${r.key} ${r.name} (now ${(r.rss / MB).toFixed(2)} MB)`);
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-host-memory-'));
  const args = ['--inspect=127.0.0.1:0', '--import', path.join(root, 'ledger/testing/connections-preload.mjs'), path.join(root, 'bin/etg.js')];
  args.push('start', '--headless', '--json', '--autoplay', '--test-timing', `--data-dir=${dataDir}`);
  args.push(`--game=${values.game}`, `--stations=${values.stations}`, `--seed=${values.seed}`);
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (b: Buffer) => {
      err += b.toString();
      const u = inspectorUrl(err);
      if (u) resolve(u);
    });
    child.once('exit', (code) => reject(new Error(`the host exited ${code}: ${err}`)));
  });
  const inspector = await InspectorSession.open(url);
  console.log(
    `host ${child.pid}, ${values.game}, ${values.stations} stations, seed ${values.seed}; MALLOC_ARENA_MAX=${process.env.MALLOC_ARENA_MAX ?? '(unset)'} HOST_MEM_CACHE_KIB=${process.env.HOST_MEM_CACHE_KIB ?? '(unset)'}; load ${os.loadavg()[0]!.toFixed(1)}`,
  );
  const watch = new LedgerWatch(dataDir);
  const started = Date.now();
  const samples: Sample[] = [];
  try {
    for (let next = 0; next <= ROUNDS; next += EVERY) {
      while (watch.closedRounds() < next) {
        if (child.exitCode !== null) throw new Error(`the host exited: ${err.slice(-2000)}`);
        await new Promise((r) => setTimeout(r, 1000));
      }
      const s = await sample(inspector, child.pid!, dataDir, watch.closedRounds(), started);
      console.log(`${line(s)} | load ${os.loadavg()[0]!.toFixed(1)}`);
      if (samples.length > 0) console.log(grewMost(samples.at(-1)!, s, 4).join('\n'));
      samples.push(s);
    }
  } finally {
    inspector.close();
    child.kill('SIGTERM');
    watch.close();
    await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(null) : child.once('exit', r)));
    if (values.keep) console.log(`the host's data folder: ${dataDir}`);
    else rmSync(dataDir, { recursive: true, force: true });
  }
  const from = samples.findIndex((s) => s.rounds >= EVERY);
  const tail = samples.slice(from);
  const xs = tail.map((s) => s.rounds);
  for (const key of ['rss', 'anon', 'file', 'shmem', 'heapUsed', 'heapTotal', 'external', 'native'] as const) {
    const t = trend(
      xs,
      tail.map((s) => s[key] / MB),
    );
    console.log(`${key}: ${(t.slope * 1000).toFixed(3)} ± ${(t.halfWidth * 1000).toFixed(3)} MB per 1,000 rounds`);
  }
  console.log('mappings that grew most, first sample to last:');
  console.log(grewMost(samples[0]!, samples.at(-1)!, 12).join('\n'));
  if (values.out)
    writeFileSync(
      values.out,
      JSON.stringify(
        samples.map(({ mappings: _, ...s }) => s),
        null,
        1,
      ),
    );
}

await main();
