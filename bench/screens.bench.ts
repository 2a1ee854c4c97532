// The screens under load, in Chromium (software WebGL on these machines): the table display's
// frame time (p50/p99) during dealing bursts, the time from a card read by the shoe to the first
// frame after its sprite went on the stage (p50/p99), and the JS heap of the table display and of
// a player station after 100 and after 1,000 rounds (after a forced GC).
//
// A baccarat host runs in this process with the simulated dealer. The first BENCH_MEASURE rounds
// (default 10) run in real time (a card every 200 ms) and are the ones measured for frames and
// latency; then the host's timers run BENCH_SPEED× faster (default 25) up to BENCH_FIRST (100)
// and BENCH_ROUNDS (1000) rounds for the heap.
//
// Nothing in the pages is sampled per frame but a requestAnimationFrame timestamp into a
// preallocated array; the table page is opened with `?trace=1`, so the renderer itself notes
// when each card sprite goes on the stage (renderer/src/trace.ts) instead of the benchmark
// walking the stage. A "dealing burst" is a round's first card read to its last read plus the
// card's flight (FLIGHT_MS). Needs `npm run build:renderer` first. Prints figures only.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import pino from 'pino';
import { cardCode, type Card } from '../engine/cards/card.js';
import { simulatedTableConfig } from '../host/config/table-config.js';
import { startHost } from '../host/start-host.js';
import { realTimers, type Timers } from '../host/table/timers.js';

/** A card's flight from the shoe (renderer/src/anim/motion.ts; the bench may not import the renderer). */
const FLIGHT_MS = 420;

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1000);
const FIRST = Number(process.env.BENCH_FIRST ?? 100);
const MEASURE = Number(process.env.BENCH_MEASURE ?? 10);
/** How much faster than real time the host's timers run once the measured rounds are done. */
const FAST = Number(process.env.BENCH_SPEED ?? 25);

let speed = 1;
const timers: Timers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms / speed),
  clearTimeout: (h) => realTimers.clearTimeout(h),
};

function pct(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}

const root = path.resolve(import.meta.dirname, '..');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-screens-'));
const host = await startHost({
  dataDir,
  rendererDir: path.join(root, 'dist/renderer'),
  port: 0,
  // The shortest windows the config allows (1 s betting, 1 s results), sped up after the measured rounds.
  config: { ...simulatedTableConfig('baccarat'), timings: { bettingMs: 1000, decisionMs: 1000, resultsMs: 1000 } },
  logger: pino({ level: 'silent' }),
  timers,
  simulatedDealer: { dealMs: 200 },
  seed: 3,
});

// Every card the shoe reads while measuring, with when (wall clock; the pages run on this machine),
// and which round it belongs to, for the bursts.
const reads: { code: string; t: number; round: string }[] = [];
let measuring = true;
const onCard = host.table.onCard.bind(host.table);
host.table.onCard = (card: Card) => {
  if (measuring) reads.push({ code: cardCode(card), t: Date.now(), round: host.table.view().roundId });
  onCard(card);
};

// Three players keep betting on banker and player so every coup is dealt.
for (const station of [1, 2, 3]) for (let i = 0; i < 40; i++) host.billAcceptors.simulator(station)?.insertNote(1000);
let rounds = 0;
let betRound = '';
host.table.onChange(() => {
  const v = host.table.view();
  if (v.phase === 'betting' && v.roundId !== betRound && host.table.station(1).betting.open) {
    betRound = v.roundId;
    rounds++;
    host.table.placeBet(1, { bet: 'banker' }, 10_000);
    host.table.placeBet(2, { bet: 'player' }, 10_000);
    host.table.placeBet(3, { bet: rounds % 2 ? 'tie' : 'banker' }, 10_000);
  }
});

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
});
// One context for both pages: a page in a second context never finished loading beside a table
// already drawing with software WebGL (seen with Debian's Chromium 156 on 2 cores).
const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
const url = (view: string) => host.screens.find((s) => s.view === view)!.url;

// The page's globals, typed here without the DOM library (this file runs in Node).
interface PageGlobals {
  __kiosk?: { events: string[]; cardTrace?: { code: string; t: number }[] };
  __frames?: { at: Float64Array; n: number; on: boolean };
  performance: { timeOrigin: number };
  requestAnimationFrame(cb: (t: number) => void): number;
}

async function open(view: string, query: string): Promise<Page> {
  const page = await context.newPage();
  // tsx keeps function names with an `__name` helper that does not exist in the page.
  await page.addInitScript(() => {
    (globalThis as unknown as { __name: (f: unknown) => unknown }).__name = (f) => f;
  });
  await page.goto(`${url(view)}${query}`, { timeout: 120_000 });
  await page.waitForFunction((v) => (globalThis as unknown as PageGlobals).__kiosk?.events.includes(`snapshot:${v}`) ?? false, view, { timeout: 120_000 });
  return page;
}
// The station first, at 15 frames a second (its heap is measured, not its frames), so that the
// table's frames get most of the one software renderer.
const station = await open('station/1', '&fps=15');
const table = await open('table', '&trace=1');

// In the table page: each frame's rAF timestamp into a preallocated array, nothing else.
await table.evaluate(() => {
  const g = globalThis as unknown as PageGlobals;
  const rec = { at: new Float64Array(1 << 16), n: 0, on: true };
  g.__frames = rec;
  const loop = (t: number) => {
    if (!rec.on) return;
    if (rec.n < rec.at.length) rec.at[rec.n++] = t;
    g.requestAnimationFrame(loop);
  };
  g.requestAnimationFrame(loop);
});

async function heapMb(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
  await cdp.detach();
  return usedSize / 1024 / 1024;
}
const until = async (n: number) => {
  while (rounds < n) await new Promise((r) => setTimeout(r, 200));
};

// The rounds dealt while the pages loaded are not measured: from here, with frames recorded.
reads.length = 0;
const t0 = Date.now();
await until(rounds + MEASURE + 1);
measuring = false;
// Frames and sprite times, in wall-clock ms (the page's timeOrigin plus its performance time).
const page = await table.evaluate(() => {
  const g = globalThis as unknown as PageGlobals;
  const f = g.__frames!;
  f.on = false;
  const origin = g.performance.timeOrigin;
  const frames = Array.from(f.at.subarray(0, f.n), (t) => origin + t);
  const shown = (g.__kiosk?.cardTrace ?? []).map((c) => ({ code: c.code, t: origin + c.t }));
  // The recording stops here: nothing of it stays in the heap measured next.
  delete g.__kiosk?.cardTrace;
  g.__frames = undefined;
  return { frames, shown };
});
speed = FAST;
const tMeasured = Date.now();

// Dealing bursts: from a round's first read to its last read plus the card's flight.
const bursts = new Map<string, { from: number; to: number }>();
for (const r of reads) {
  const b = bursts.get(r.round) ?? { from: r.t, to: r.t };
  b.to = Math.max(b.to, r.t + FLIGHT_MS);
  bursts.set(r.round, b);
}
const inBurst = (t: number) => [...bursts.values()].some((b) => t >= b.from && t <= b.to);
const frameTimes: number[] = [];
for (let i = 1; i < page.frames.length; i++) if (inBurst(page.frames[i]!)) frameTimes.push(page.frames[i]! - page.frames[i - 1]!);

// Each read paired with the first sprite of that face put on the stage after it, then with the
// first frame after that sprite: the frame that shows it.
const latencies: number[] = [];
const used = new Set<number>();
for (const r of reads) {
  const i = page.shown.findIndex((s, k) => !used.has(k) && s.code === r.code && s.t >= r.t);
  if (i < 0) continue;
  used.add(i);
  const frame = page.frames.find((t) => t >= page.shown[i]!.t);
  if (frame !== undefined) latencies.push(frame - r.t);
}

await until(FIRST);
const heapFirst = { table: await heapMb(table), station: await heapMb(station) };
const tFirst = Date.now();
await until(ROUNDS);
const heapLast = { table: await heapMb(table), station: await heapMb(station) };
const tLast = Date.now();

const load = os
  .loadavg()
  .map((l) => l.toFixed(1))
  .join(' ');
console.log(`screens, baccarat, Chromium ${browser.version()} with SwiftShader, ${os.cpus().length} cores, load average ${load}`);
console.log(`  measured: ${MEASURE} rounds in real time (${((tMeasured - t0) / 1000).toFixed(0)} s), ${bursts.size} dealing bursts`);
console.log(
  `  table frame time in bursts  p50 ${pct(frameTimes, 50).toFixed(1)} ms   p99 ${pct(frameTimes, 99).toFixed(1)} ms   (${frameTimes.length} frames of ${page.frames.length})`,
);
console.log(
  `  card read → first frame     p50 ${pct(latencies, 50).toFixed(0)} ms   p99 ${pct(latencies, 99).toFixed(0)} ms   (${latencies.length} of ${reads.length} reads; burns are never shown)`,
);
console.log(`  JS heap after GC, table     ${FIRST} rounds ${heapFirst.table.toFixed(1)} MB   ${ROUNDS} rounds ${heapLast.table.toFixed(1)} MB`);
console.log(`  JS heap after GC, station   ${FIRST} rounds ${heapFirst.station.toFixed(1)} MB   ${ROUNDS} rounds ${heapLast.station.toFixed(1)} MB`);
console.log(
  `  (${FIRST} rounds after ${((tFirst - t0) / 1000).toFixed(0)} s, ${ROUNDS} after ${((tLast - t0) / 1000).toFixed(0)} s, at ${FAST}× after the measured rounds)`,
);

await browser.close();
await host.close();
rmSync(dataDir, { recursive: true, force: true });
