// The table host's JS heap alone, for issue 52's host growth (the long-run bench read the host's heap
// after GC rising 66.0 → 67.6 MB over 1,250 rounds, then +0.155 MB a 1,000 rounds with a sawtooth).
// Starts `etg start --headless --autoplay --test-timing` (baccarat, three stations, seed 52, as
// bench/long-run.bench.ts does) with its inspector open and no browser: with `--screens`, Node
// clients of the screen protocol in their stead (hello and subscribe, each message read and
// dropped), and every N rounds reads the host's heap after GC the bench's way (bench/node-probe.ts);
// at the rounds of `--snapshot-at` it writes a heap snapshot of the host (V8's
// `writeHeapSnapshot`, in the host, through its inspector) for `tsx bench/heap-retained.ts A B`:
// the object ids of one process's snapshots match.
// Usage (under nice, beside other work):
//   npx tsx bench/host-heap.ts [--rounds 2000] [--every 100] [--screens table,station/1]
//     [--snapshots DIR --snapshot-at 500,1000,2000] [--out samples.json]
// An analysis, not a bench with a budget: docs/benchmarks.md, the long-run section.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { z } from 'zod';
import { PROTOCOL_VERSION } from '../protocol/index.js';
import { LedgerWatch } from '../cli/soak/child.js';
import { InspectorSession, inspectorUrl } from './node-probe.js';
import { trend } from './trend.js';

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
const args = ['--inspect=127.0.0.1:0', path.join(root, 'bin/etg.js'), 'start', '--headless', '--json', '--autoplay', '--test-timing'];
args.push(`--data-dir=${dataDir}`, `--game=${values.game}`, `--stations=${values.stations}`, `--seed=${values.seed}`);
const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
let err = '';
let out = '';
child.stdout.on('data', (b: Buffer) => (out = (out + b.toString()).slice(-20_000)));
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
  const line = out.split('\n').find((l) => l.startsWith('{"origin"'));
  if (line) started = Started.parse(JSON.parse(line));
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
const samples: { rounds: number; heap: number; seconds: number }[] = [];
const snapAt = [...SNAP_AT];
try {
  for (let next = EVERY; next <= ROUNDS; next += EVERY) {
    while (watch.closedRounds() < next) {
      if (child.exitCode !== null) throw new Error(`the host exited: ${err.slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const rounds = watch.closedRounds();
    const heap = await inspector.heapAfterGc();
    samples.push({ rounds, heap, seconds: (Date.now() - t0) / 1000 });
    const msgs = screens.map((s) => s.messages()).join('/');
    let snap = '';
    if (values.snapshots && snapAt.length > 0 && rounds >= snapAt[0]!) {
      snapAt.shift();
      const file = path.join(values.snapshots, `host-${String(rounds).padStart(5, '0')}.heapsnapshot`);
      await evaluate(inspector, `process.getBuiltinModule('v8').writeHeapSnapshot(${JSON.stringify(file)})`);
      snap = ` snapshot ${file}`;
    }
    console.log(
      `${rounds} rounds ${((Date.now() - t0) / 1000).toFixed(0)} s: heap after GC ${(heap / MB).toFixed(3)} MB${msgs ? `, screen messages ${msgs}` : ''}, load ${os.loadavg()[0]!.toFixed(1)}${snap}`,
    );
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
  const t = trend(
    tail.map((s) => s.rounds),
    tail.map((s) => s.heap / MB),
  );
  console.log(`heap after GC from round ${from}: ${(t.slope * 1000).toFixed(3)} ± ${(t.halfWidth * 1000).toFixed(3)} MB per 1,000 rounds`);
}
