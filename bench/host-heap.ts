// The table host's JS heap alone, for issue 52's host growth (the long-run bench read the host's heap
// after GC rising 66.0 → 67.6 MB over 1,250 rounds, then +0.155 MB a 1,000 rounds with a sawtooth).
// Starts `etg start --headless --autoplay --test-timing` (baccarat, three stations, seed 52, as
// bench/long-run.bench.ts does) with its inspector open and no browser: with `--screens`, Node
// clients of the screen protocol in their stead (hello and subscribe, each message read and
// dropped), and every N rounds reads the host's heap after GC the bench's way (bench/node-probe.ts);
// at the rounds of `--snapshot-at` it writes a heap snapshot of the host (V8's
// `writeHeapSnapshot`, in the host, through its inspector) for `tsx bench/heap-retained.ts A B`:
// the object ids of one process's snapshots match. Each sample also splits the heap in two: V8's code
// (its code and trusted spaces: machine code, code headers, bytecode, deoptimization data) and the
// rest (the program's objects), with V8's code statistics beside them. `--host-flags` passes V8 flags
// to the host; with `--trace-opt --trace-deopt` among them each sample counts the optimizations and
// deopts of its window by function, and the end names the deopts that come back window after window
// (bench/v8-trace.ts); with `--print-opt-source` too, the functions TurboFan compiles more than once
// a window are named by their source; `--host-log FILE` keeps the host's output with a line at each sample.
// Usage (under nice, beside other work):
//   npx tsx bench/host-heap.ts [--rounds 2000] [--every 100] [--screens table,station/1]
//     [--snapshots DIR --snapshot-at 500,1000,2000] [--out samples.json]
//     [--host-flags='--trace-opt --trace-deopt'] [--host-log host.log]
// An analysis, not a bench with a budget: docs/benchmarks.md, the long-run section.
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { z } from 'zod';
import { PROTOCOL_VERSION } from '../protocol/index.js';
import { LedgerWatch } from '../cli/soak/child.js';
import { CODE_SPACES, InspectorSession, inspectorUrl, type HeapSpaces } from './node-probe.js';
import { trend } from './trend.js';
import { recompiled, recurring, TraceCounter, type TraceWindow } from './v8-trace.js';

const root = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '2000' },
    every: { type: 'string', default: '100' },
    screens: { type: 'string', default: '' },
    snapshots: { type: 'string' },
    'snapshot-at': { type: 'string', default: '' },
    out: { type: 'string' },
    game: { type: 'string', default: 'baccarat' },
    stations: { type: 'string', default: '3' },
    seed: { type: 'string', default: '52' },
    'host-flags': { type: 'string', default: '' },
    'host-log': { type: 'string' },
  },
});
const ROUNDS = Number(values.rounds);
const EVERY = Number(values.every);
const SNAP_AT = values['snapshot-at'] ? values['snapshot-at'].split(',').map(Number) : [];
const MB = 1024 * 1024;

/** A screen of `view` over the protocol: it says hello, subscribes, and counts what it is sent. */
function screenClient(origin: string, view: string, token: string): { messages: () => number; close: () => void } {
  const ws = new WebSocket(`${origin.replace('http', 'ws')}/ws`, { origin });
  let n = 0;
  ws.on('message', () => n++);
  ws.once('open', () => {
    ws.send(JSON.stringify({ type: 'hello', id: 'h', protocol: PROTOCOL_VERSION, token }));
    ws.send(JSON.stringify({ type: 'subscribe', id: 's', view }));
  });
  ws.on('error', (e) => console.error(`screen ${view}: ${e.message}`));
  return { messages: () => n, close: () => ws.close() };
}

/** Runs `expression` in the host and returns its value (a string or number). */
async function evaluate(inspector: InspectorSession, expression: string): Promise<unknown> {
  const r = await inspector.send('Runtime.evaluate', { expression, returnByValue: true });
  const result: unknown = typeof r === 'object' && r !== null && 'result' in r ? r.result : null;
  return typeof result === 'object' && result !== null && 'value' in result ? result.value : undefined;
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-host-heap-'));
const hostFlags = values['host-flags'].split(' ').filter(Boolean);
const TRACING = hostFlags.includes('--trace-opt') || hostFlags.includes('--trace-deopt');
const trace = new TraceCounter();
const hostLog = values['host-log'];
if (hostLog) writeFileSync(hostLog, '');
const args = [...hostFlags, '--inspect=127.0.0.1:0', path.join(root, 'bin/etg.js'), 'start', '--headless', '--json', '--autoplay', '--test-timing'];
args.push(`--data-dir=${dataDir}`, `--game=${values.game}`, `--stations=${values.stations}`, `--seed=${values.seed}`);
const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
let err = '';
// The line the host prints on start (`--json`), found as the output comes: V8's trace flags print on
// the same stdout, a flood at start-up, and its lines (written by V8 a buffer at a time) can take the
// host's line into the middle of one of theirs.
let startLine: string | null = null;
let head = '';
child.stdout.on('data', (b: Buffer) => {
  const text = b.toString();
  if (startLine === null) {
    head += text;
    const at = head.indexOf('{"origin"');
    if (at < 0) head = head.slice(-16);
    else {
      const end = head.indexOf('\n', at);
      if (end >= 0) startLine = head.slice(at, end);
      else head = head.slice(at);
    }
  }
  if (TRACING) trace.push(text);
  if (hostLog) appendFileSync(hostLog, text);
});
const url = await new Promise<string>((resolve, reject) => {
  child.stderr.on('data', (b: Buffer) => {
    err = (err + b.toString()).slice(-20_000);
    const u = inspectorUrl(err);
    if (u) resolve(u);
  });
  child.once('exit', (code) => reject(new Error(`the host exited ${code}: ${err}`)));
});
const inspector = await InspectorSession.open(url);
/** What the host prints on start (`--json`): its origin and each screen's URL with its launch token. */
const Started = z.object({ origin: z.string(), screens: z.record(z.string(), z.string()) });
let started: z.infer<typeof Started> | null = null;
while (!started) {
  if (child.exitCode !== null) throw new Error(`the host exited: ${err.slice(-2000)}`);
  if (startLine) started = Started.parse(JSON.parse(startLine));
  else await new Promise((r) => setTimeout(r, 200));
}
const screens = values.screens
  .split(',')
  .filter(Boolean)
  .map((view) => {
    const u = started.screens[view];
    const token = u ? new URL(u).searchParams.get('token') : null;
    if (!token) throw new Error(`the host serves no ${view} screen`);
    return screenClient(started.origin, view, token);
  });
if (values.snapshots) mkdirSync(values.snapshots, { recursive: true });
console.log(
  `host ${child.pid}, ${values.game}, ${values.stations} stations, seed ${values.seed}, screens: ${values.screens || 'none'}; load ${os.loadavg()[0]!.toFixed(1)}`,
);
const watch = new LedgerWatch(dataDir);
const t0 = Date.now();
/** A sample: the heap after GC, V8's code in it (code and trusted spaces) and the rest, bytes; the trace's window. */
interface Sample {
  rounds: number;
  heap: number;
  code: number;
  rest: number;
  seconds: number;
  spaces: HeapSpaces;
  trace?: TraceWindow;
}
const samples: Sample[] = [];
const KiB = 1024;
/** The window's optimizations and deopts in a line: by tier, and the functions with most deopts. */
function traceLine(w: TraceWindow): string {
  const tiers = Object.entries(w.optimized)
    .map(([t, n]) => `${t} ${n}`)
    .join(', ');
  const top = Object.entries(w.deoptFns)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 4)
    .map(([k, n]) => `${k} ×${n}`)
    .join('; ');
  return `optimized ${tiers || 'none'}; deopts ${w.deopts}${top ? `: ${top}` : ''}`;
}
const snapAt = [...SNAP_AT];
// SIGINT or SIGTERM ends the run at the next sample's wait: the host is stopped and the figures so far printed.
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => (stopping = true));
try {
  for (let next = EVERY; next <= ROUNDS && !stopping; next += EVERY) {
    while (watch.closedRounds() < next && !stopping) {
      if (child.exitCode !== null) throw new Error(`the host exited: ${err.slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    if (stopping) break;
    const rounds = watch.closedRounds();
    const heap = await inspector.heapAfterGc();
    const spaces = await inspector.heapSpaces();
    const code = CODE_SPACES.reduce((sum, name) => sum + (spaces.spaces[name] ?? 0), 0);
    const window = TRACING ? trace.cut() : undefined;
    // On a line of its own: the host's output may have stopped mid-line.
    if (hostLog) appendFileSync(hostLog, `\n=== sample at ${rounds} rounds\n`);
    samples.push({ rounds, heap, code, rest: heap - code, seconds: (Date.now() - t0) / 1000, spaces, ...(window ? { trace: window } : {}) });
    const msgs = screens.map((s) => s.messages()).join('/');
    let snap = '';
    if (values.snapshots && snapAt.length > 0 && rounds >= snapAt[0]!) {
      snapAt.shift();
      const file = path.join(values.snapshots, `host-${String(rounds).padStart(5, '0')}.heapsnapshot`);
      await evaluate(inspector, `process.getBuiltinModule('v8').writeHeapSnapshot(${JSON.stringify(file)})`);
      snap = ` snapshot ${file}`;
    }
    console.log(
      `${rounds} rounds ${((Date.now() - t0) / 1000).toFixed(0)} s: heap after GC ${(heap / MB).toFixed(3)} MB` +
        ` (V8 code ${(code / KiB).toFixed(0)} KiB: code space ${((spaces.spaces.code_space ?? 0) / KiB).toFixed(0)}, trusted ${((spaces.spaces.trusted_space ?? 0) / KiB).toFixed(0)};` +
        ` the rest ${(heap / MB - code / MB).toFixed(3)} MB; V8's code statistics: machine code ${(spaces.code.code_and_metadata_size / KiB).toFixed(0)} KiB, bytecode ${(spaces.code.bytecode_and_metadata_size / KiB).toFixed(0)} KiB)` +
        `${msgs ? `, screen messages ${msgs}` : ''}, load ${os.loadavg()[0]!.toFixed(1)}${snap}`,
    );
    if (window) console.log(`  ${traceLine(window)}`);
    if (values.out) writeFileSync(values.out, JSON.stringify(samples, null, 1));
  }
} finally {
  for (const s of screens) s.close();
  inspector.close();
  child.kill('SIGTERM');
  watch.close();
  await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(null) : child.once('exit', r)));
  rmSync(dataDir, { recursive: true, force: true });
}
for (const from of [0, 250, 1250]) {
  const tail = samples.filter((s) => s.rounds >= from);
  if (tail.length < 3) continue;
  for (const [name, of] of [
    ['heap after GC', (s: Sample) => s.heap],
    ["V8's code", (s: Sample) => s.code],
    ['the rest', (s: Sample) => s.rest],
  ] as const) {
    const t = trend(
      tail.map((s) => s.rounds),
      tail.map((s) => of(s) / MB),
    );
    console.log(`${name} from round ${from}: ${(t.slope * 1000).toFixed(3)} ± ${(t.halfWidth * 1000).toFixed(3)} MB per 1,000 rounds`);
  }
}
if (TRACING) {
  // The deopts seen in half or more of the windows past the first 1,000 rounds: a steady rate is a loop.
  const from = samples.findIndex((s) => s.rounds >= 1000);
  const steady = from < 0 ? [] : recurring(trace.windows, from);
  console.log(steady.length === 0 ? 'no deopt comes back in half the windows past round 1,000' : 'deopts that come back past round 1,000 (per window):');
  for (const r of steady.slice(0, 20)) console.log(`  ${r.key}: ${r.perWindow.join(' ')}`);
  const made = trace.windows.map((w) => Object.values(w.optimized).reduce((a, b) => a + b, 0));
  console.log(`optimizations per window: ${made.join(' ')}`);
  console.log(`deopts per window: ${trace.windows.map((w) => w.deopts).join(' ')}`);
  const turbofan = trace.windows.map((w) => Object.entries(w.optimized).reduce((a, [tier, n]) => a + (tier.startsWith('TURBOFAN') ? n : 0), 0));
  console.log(`TurboFan compiles per window: ${turbofan.join(' ')}`);
  if (hostFlags.includes('--print-opt-source')) {
    // Named by their source: an anonymous closure compiled again and again is one made anew per call.
    const again = trace.windows.map((w) => Object.values(w.compiledSources).reduce((a, n) => a + (n > 1 ? n : 0), 0));
    console.log(`TurboFan compiles of functions compiled more than once in the window: ${again.join(' ')}`);
    const steady = recompiled(trace.windows, 1);
    console.log(
      steady.length === 0
        ? 'no function is compiled twice in half the windows past the first'
        : 'compiled more than once a window in half the windows past the first (compiles per window):',
    );
    for (const r of steady.slice(0, 30)) console.log(`  ${r.key}: ${r.perWindow.join(' ')}`);
  }
}
