// The table display under load, in Chromium (software WebGL on these machines): frame time p50/p99
// while cards are being dealt, time from a card read by the shoe to the first frame that shows it
// (p50/p99), and the page's JS heap after 100 and after 1,000 rounds (after a forced GC).
// A baccarat host runs in this process with its timers sped up 25× and the simulated dealer
// dealing every 8 ms of real time, so rounds follow each other as fast as the table allows.
// Needs `npm run build:renderer` first. Prints figures only; nothing asserts a timing.
// BENCH_ROUNDS (default 1000) and BENCH_FIRST (default 100) change the round counts. At 25× a
// software-rendered page cannot keep up with the snapshots: measure frames and latency with
// BENCH_SPEED=1 (real time, a card every 200 ms) and the heap at 25×.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import pino from 'pino';
import { cardCode, type Card } from '../engine/cards/card.js';
import { simulatedTableConfig } from '../host/config/table-config.js';
import { startHost } from '../host/start-host.js';
import type { Timers } from '../host/table/round-controller.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1000);
const FIRST = Number(process.env.BENCH_FIRST ?? 100);
/** How much faster than real time the host's timers run (BENCH_SPEED; 1 = real time). */
const SPEED = Number(process.env.BENCH_SPEED ?? 25);

const fastTimers: Timers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms / SPEED),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
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
  // The shortest windows the config allows (1 s betting, 1 s results), then sped up.
  config: { ...simulatedTableConfig('baccarat'), timings: { bettingMs: 1000, decisionMs: 1000, resultsMs: 1000 } },
  logger: pino({ level: 'silent' }),
  timers: fastTimers,
  simulatedDealer: { dealMs: 200 },
  seed: 3,
});

// Every card the shoe reads, with when (host wall clock; the page runs on the same machine).
const reads: { code: string; t: number }[] = [];
let recording = true;
const onCard = host.rounds.onCard.bind(host.rounds);
host.rounds.onCard = (card: Card) => {
  if (recording) reads.push({ code: cardCode(card), t: Date.now() });
  onCard(card);
};

// Three players keep betting on banker and player so every coup is dealt.
for (const station of [1, 2, 3]) for (let i = 0; i < 40; i++) host.billAcceptors.simulator(station)?.insertNote(1000);
let rounds = 0;
let betRound = '';
host.rounds.onChange(() => {
  const v = host.rounds.view();
  if (v.phase === 'betting' && v.roundId !== betRound && host.rounds.betting(1).open) {
    betRound = v.roundId;
    rounds++;
    host.rounds.placeBet(1, 'banker', 10_000);
    host.rounds.placeBet(2, 'player', 10_000);
    host.rounds.placeBet(3, rounds % 2 ? 'tie' : 'banker', 10_000);
  }
});

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
});
const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
const url = host.screens.find((s) => s.view === 'table')!.url;
// tsx keeps function names with an `__name` helper that does not exist in the page.
await page.addInitScript(() => {
  (globalThis as unknown as { __name: (f: unknown) => unknown }).__name = (f) => f;
});
await page.goto(url);
// The page's globals, typed here without the DOM library (this file runs in Node).
interface PageGlobals {
  __kiosk?: { events: string[]; cards(): string[] };
  __bench?: { frames: number[]; seen: { code: string; t: number }[]; on: boolean; last: number; prev: Map<string, number> };
  requestAnimationFrame(cb: (t: number) => void): number;
}
// (Functions run in the page: they may use nothing from this file but types.)
await page.waitForFunction(() => (globalThis as unknown as PageGlobals).__kiosk?.events.includes('snapshot:table') ?? false);

// In the page: every animation frame, its duration and the cards newly in play.
await page.evaluate(() => {
  const g = globalThis as unknown as PageGlobals;
  const rec = { frames: [] as number[], seen: [] as { code: string; t: number }[], on: true, last: 0, prev: new Map<string, number>() };
  g.__bench = rec;
  const loop = (t: number) => {
    if (!rec.on) return;
    if (rec.last) rec.frames.push(t - rec.last);
    rec.last = t;
    const now = Date.now();
    const counts = new Map<string, number>();
    for (const c of g.__kiosk?.cards() ?? []) counts.set(c, (counts.get(c) ?? 0) + 1);
    for (const [c, n] of counts) for (let i = rec.prev.get(c) ?? 0; i < n; i++) rec.seen.push({ code: c, t: now });
    rec.prev = counts;
    g.requestAnimationFrame(loop);
  };
  g.requestAnimationFrame(loop);
});

const cdp = await page.context().newCDPSession(page);
async function heapMb(): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
  return usedSize / 1024 / 1024;
}
const until = async (n: number) => {
  while (rounds < n) await new Promise((r) => setTimeout(r, 200));
};

const t0 = Date.now();
await until(FIRST);
recording = false;
const rec = await page.evaluate(() => {
  const r = (globalThis as unknown as PageGlobals).__bench!;
  r.on = false;
  const out = { frames: r.frames, seen: r.seen };
  r.frames = [];
  r.seen = [];
  return out;
});
const heapFirst = await heapMb();
const tFirst = Date.now();
await until(ROUNDS);
const heapLast = await heapMb();
const tLast = Date.now();

// Pair each read with the first frame at or after it that shows one more card of that code.
const latencies: number[] = [];
const used = new Set<number>();
for (const r of reads) {
  const i = rec.seen.findIndex((s, k) => !used.has(k) && s.code === r.code && s.t >= r.t);
  if (i >= 0) {
    used.add(i);
    latencies.push(rec.seen[i]!.t - r.t);
  }
}
const f = rec.frames;
console.log(`table display, baccarat, ${FIRST} rounds dealt at ${SPEED}× speed (${((tFirst - t0) / 1000).toFixed(0)} s), Chromium ${browser.version()} with SwiftShader, load average ${os.loadavg()[0]!.toFixed(1)}`);
console.log(`  frame time            p50 ${pct(f, 50).toFixed(1)} ms   p99 ${pct(f, 99).toFixed(1)} ms   (${f.length} frames)`);
console.log(`  card read → on screen p50 ${pct(latencies, 50).toFixed(0)} ms   p99 ${pct(latencies, 99).toFixed(0)} ms   (${latencies.length} of ${reads.length} reads shown; burns never are)`);
console.log(`  JS heap after GC      ${FIRST} rounds ${heapFirst.toFixed(1)} MB   ${ROUNDS} rounds ${heapLast.toFixed(1)} MB   (${((tLast - tFirst) / 1000).toFixed(0)} s for the rest)`);

await browser.close();
await host.close();
rmSync(dataDir, { recursive: true, force: true });
