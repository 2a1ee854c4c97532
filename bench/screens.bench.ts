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
// card's flight (FLIGHT_MS). Builds the renderer first (bench/build-pages.ts). Prints figures only.
//
// The baseline, in the same run, beside a station page of the same host, in a browser of its own
// closed before the measured pages open: a bare pixi scene of the same size (1920×1080, WebGL,
// antialias on, as renderer/src/boot/stage.ts asks) with a full-screen rectangle and BARE_CARDS
// card-sized rounded rectangles moving every frame, no text, no textures; its frame times over
// BENCH_BARE_SECONDS (default 10), after its first BARE_WARM_FRAMES, and its JS heap after GC. pixi.js is bundled for it by esbuild (bench/bare-pixi.ts).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from '@playwright/test';
import pino from 'pino';
import { cardCode, type Card } from '../engine/cards/card.js';
import { simulatedTableConfig } from '../host/config/table-config.js';
import { startHost } from '../host/start-host.js';
import { realTimers, type Timers } from '../host/table/timers.js';
import { figure, QUICK, times } from './report.js';
import { barePixiScript, mountBareScene } from './bare-pixi.js';
import { heapGrowth, heapKinds, type HeapKind } from './heap-summary.js';
import { selfTimes } from './trace-summary.js';
import { jsFlagsArgs, pageJsFlags } from './page-flags.js';
import { buildPages } from './build-pages.js';

buildPages('renderer');

/** A card's flight from the shoe (renderer/src/anim/motion.ts; the bench may not import the renderer). */
const FLIGHT_MS = 420;

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (QUICK ? 6 : 1000));
const FIRST = Number(process.env.BENCH_FIRST ?? (QUICK ? 4 : 100));
const MEASURE = Number(process.env.BENCH_MEASURE ?? (QUICK ? 4 : 10));
const BARE_SECONDS = Number(process.env.BENCH_BARE_SECONDS ?? (QUICK ? 3 : 10));
/** Cards moving in the bare scene: about what a baccarat coup puts on the table display. */
const BARE_CARDS = 6;
/** Frames the bare scene draws before its window opens (shader compilation, first uploads). */
const BARE_WARM_FRAMES = 5;
/** Frames the table and the bare scene each draw at least in their windows, which grow until they have (bounded). */
const MIN_FRAMES = 6;
/** How much faster than real time the host's timers run once the measured rounds are done. */
const FAST = Number(process.env.BENCH_SPEED ?? 25);
/** How long the still table is watched for frames drawn. */
const STILL_SECONDS = Number(process.env.BENCH_STILL_SECONDS ?? (QUICK ? 2 : 5));

let speed = 1;
/**
 * While the heaps are measured the host's play is held: a timer that comes due then runs when play
 * resumes. Measuring while the host plays at BENCH_SPEED× never finished on a loaded machine: the
 * pages kept drawing what it queued and the GC request waited behind SwiftShader.
 */
let held: Pending[] | null = null;
interface Pending {
  readonly fn: () => void;
  real: unknown;
  cancelled: boolean;
}
const isPending = (h: unknown): h is Pending => typeof h === 'object' && h !== null && 'cancelled' in h;
const timers: Timers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const p: Pending = { fn, real: null, cancelled: false };
    p.real = setTimeout(() => {
      if (p.cancelled) return;
      if (held) held.push(p);
      else fn();
    }, ms / speed);
    return p;
  },
  clearTimeout: (h) => {
    if (!isPending(h)) return;
    h.cancelled = true;
    realTimers.clearTimeout(h.real);
  },
};
const holdPlay = () => {
  held ??= [];
};
const resumePlay = () => {
  const due = held ?? [];
  held = null;
  for (const p of due) if (!p.cancelled) p.fn();
};

function pct(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}

const root = path.resolve(import.meta.dirname, '..');
const started = Date.now();
/** Where the bench is, on stderr: on a loaded machine a phase can take minutes. */
const progress = (what: string) => process.stderr.write(`  [screens ${((Date.now() - started) / 1000).toFixed(0)} s, round ${rounds}] ${what}\n`);
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
const onCard = host.table.shoe.onCard.bind(host.table.shoe);
/** The shoe's reads reach the table (off for the still table at the end). */
let feeding = true;
host.table.shoe.onCard = (card: Card) => {
  if (!feeding) return;
  if (measuring) reads.push({ code: cardCode(card), t: Date.now(), round: host.table.reads.view().roundId });
  onCard(card);
};

// Three players keep betting on banker and player so every coup is dealt.
for (const station of [1, 2, 3]) for (let i = 0; i < 40; i++) host.devices.billAcceptors.simulator(station)?.insertNote(1000);
let rounds = 0;
let betRound = '';
host.table.onChange(() => {
  const v = host.table.reads.view();
  if (v.phase === 'betting' && v.roundId !== betRound && host.table.reads.station(1).betting.open) {
    betRound = v.roundId;
    rounds++;
    host.table.commands.placeBet(1, { bet: 'banker' }, 10_000);
    host.table.commands.placeBet(2, { bet: 'player' }, 10_000);
    host.table.commands.placeBet(3, { bet: rounds % 2 ? 'tie' : 'banker' }, 10_000);
  }
});

// The V8 flags of every browser the bench opens, the bare scene's alike: the kiosk's pages' own
// (host/screens/page-v8-flags.ts) unless BENCH_JS_FLAGS says otherwise (`none`: V8's defaults, every
// tier; bench/page-flags.ts), to time and weigh a page with and without them (docs/benchmarks.md).
const JS_FLAGS = pageJsFlags(process.env.BENCH_JS_FLAGS);
const launch = () =>
  chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', ...jsFlagsArgs(JS_FLAGS)],
  });
// BENCH_HEAP_SNAPSHOT=1: a heap snapshot of each page at BENCH_FIRST and at BENCH_ROUNDS rounds,
// and what grew between them by kind (bench/heap-summary.ts): what a page keeps that it should not.
const SNAPSHOTS = process.env.BENCH_HEAP_SNAPSHOT === '1';
// BENCH_HEAP_SNAPSHOT_DIR=DIR: the snapshots are also written there (with BENCH_HEAP_SNAPSHOT=1; the
// bare scene's with or without it), to read in DevTools or with bench/heap-attribution.ts.
const SNAPSHOT_DIR = process.env.BENCH_HEAP_SNAPSHOT_DIR;
if (SNAPSHOT_DIR) mkdirSync(SNAPSHOT_DIR, { recursive: true });
// BENCH_VIEWPORT=960x540: smaller pages (and bare scene) where only the heap is wanted on a loaded machine.
const [vw, vh] = (process.env.BENCH_VIEWPORT ?? '1920x1080').split('x').map(Number);
const VIEWPORT = { width: vw && vw > 0 ? vw : 1920, height: vh && vh > 0 ? vh : 1080 };
const url = (view: string) => host.screens.urls.find((s) => s.view === view)!.url;

// The page's globals, typed here without the DOM library (this file runs in Node).
interface PageGlobals {
  __kiosk?: {
    events: string[];
    cardTrace?: { code: string; t: number }[];
    /** The frames the page drew (render on demand), by their animation-frame timestamps; absent before it. */
    frameTrace?: { at: Float64Array; n: number };
    framesDrawn?(): number;
  };
  __frames?: { at: Float64Array; n: number; on: boolean };
  performance: { timeOrigin: number };
  requestAnimationFrame(cb: (t: number) => void): number;
}

/**
 * A page in a window of its own. A context's second page opens as a tab of the first one's window,
 * in front of it, and the tab behind is never drawn: Chromium then sends that page about one
 * animation frame a second, whatever it draws (viz's throttling of a frame sink whose frames are
 * not drawn). The station, opened first and so behind the table, had its frame time read as the
 * intervals of that throttling: 433 ms p50 at 960×540 while its page was idle 97% of the time and
 * its snapshots took 4–20 ms of JS (BENCH_TRACE_VIEW=station, 2026-11-25); a WebGL page that only
 * clears its canvas, behind another tab, got its frames 1,033 ms apart; in its own window, 67 ms
 * (at 15 frames a second, as asked).
 */
async function ownWindow(context: BrowserContext): Promise<Page> {
  const first = context.pages()[0];
  if (!first) return context.newPage();
  const session = await context.newCDPSession(first);
  const { targetInfo } = await session.send('Target.getTargetInfo');
  await session.detach();
  const browserSession = await context.browser()!.newBrowserCDPSession();
  const [page] = await Promise.all([
    context.waitForEvent('page'),
    browserSession.send('Target.createTarget', { url: 'about:blank', browserContextId: targetInfo.browserContextId, newWindow: true }),
  ]);
  await browserSession.detach();
  return page;
}

async function open(context: BrowserContext, view: string, query: string): Promise<Page> {
  const page = await ownWindow(context);
  // tsx keeps function names with an `__name` helper that does not exist in the page.
  await page.addInitScript(() => {
    (globalThis as unknown as { __name: (f: unknown) => unknown }).__name = (f) => f;
  });
  // Generous, and polled by the clock: playwright polls on requestAnimationFrame by default, and a
  // starved software renderer runs those seconds apart (2 in 287 s at load 17), so at load 11-20
  // the table page was not seen to show its first snapshot within 120 s, then 300 s.
  await page.goto(`${url(view)}${query}`, { timeout: 300_000 });
  await page.waitForFunction((v) => (globalThis as unknown as PageGlobals).__kiosk?.events.includes(`snapshot:${v}`) ?? false, view, {
    timeout: 300_000,
    polling: 500,
  });
  return page;
}
/**
 * The baseline: a bare pixi scene of the table's size beside a station page at 15 frames a second,
 * its frames and heap, in a browser of its own, closed before the measured one starts (after a bare
 * page in the same browser, the table page did not load within 120 s at load average 10).
 */
async function bareScene(): Promise<{ frames: number[]; heap: number }> {
  const own = await launch();
  const context = await own.newContext({ viewport: VIEWPORT });
  await open(context, 'station/1', '&fps=15');
  // In a window of its own, as the measured pages are (`ownWindow`): the station beside it draws.
  const page = await ownWindow(context);
  await page.setContent('<!doctype html><html><body style="margin:0;overflow:hidden"></body></html>');
  // tsx's `__name` helper, as in `open` (a string, so that nothing of it is transformed).
  await page.evaluate('globalThis.__name = (f) => f');
  await page.addScriptTag({ content: await barePixiScript() });
  await page.evaluate(mountBareScene, { ...VIEWPORT, cards: BARE_CARDS, autoStart: true });
  const frames = await page.evaluate(
    async ({ seconds, warmFrames, minFrames }) => {
      const g = globalThis as unknown as PageGlobals;
      const rec = { at: new Float64Array(1 << 16), n: 0 };
      return new Promise<number[]>((resolve) => {
        // The first frames compile SwiftShader's shaders (seconds on a loaded machine: a 7.5 s
        // first frame was read as the bare scene's p50); the window opens after them, as the
        // table page's measured frames come long after its own first ones.
        let warm = warmFrames;
        let start = -1;
        const loop = (t: number) => {
          if (warm > 0) {
            warm--;
            g.requestAnimationFrame(loop);
            return;
          }
          if (start < 0) start = t;
          if (rec.n < rec.at.length) rec.at[rec.n++] = t;
          // The window stays open past `seconds` until minFrames are drawn (at most a minute).
          if (t - start < seconds * 1000 || (rec.n < minFrames && t - start < 60_000)) g.requestAnimationFrame(loop);
          else resolve(Array.from(rec.at.subarray(0, rec.n)));
        };
        g.requestAnimationFrame(loop);
      });
    },
    { seconds: BARE_SECONDS, warmFrames: BARE_WARM_FRAMES, minFrames: MIN_FRAMES },
  );
  const heap = await heapMb(page);
  if (SNAPSHOT_DIR) await heapSnapshot(page, 'bare');
  await own.close();
  return { frames, heap };
}
progress('the bare pixi scene, in its own browser beside a station page');
const bare = await bareScene();
const bareFrameTimes = bare.frames.slice(1).map((t, i) => t - bare.frames[i]!);

const browser = await launch();
// One context for both pages: a page in a second context never finished loading beside a table
// already drawing with software WebGL (seen with Debian's Chromium 156 on 2 cores).
const context = await browser.newContext({ viewport: VIEWPORT });
// The station first, at 15 frames a second (its heap is measured, not its frames), so that the
// table's frames get most of the one software renderer.
progress('opening the station page');
const station = await open(context, 'station/1', '&fps=15&trace=1');
progress('opening the table page');
const table = await open(context, 'table', '&trace=1');
progress('pages open; measuring');

// In the table and station pages: each display frame's rAF timestamp into a preallocated array,
// nothing else. A page that renders on demand notes the frames it drew (`frameTrace`); a frame's
// time is from its rAF to the next one (SwiftShader's work on it delays that one), as the bare
// scene's, which draws every frame. A page without `frameTrace` (before render on demand) drew
// every display frame.
const recordFrames = (p: Page) =>
  p.evaluate(() => {
    const g = globalThis as unknown as PageGlobals;
    const rec = { at: new Float64Array(1 << 16), n: 0, on: true };
    g.__frames = rec;
    const trace = g.__kiosk?.frameTrace;
    if (trace) trace.n = 0;
    const loop = (t: number) => {
      if (!rec.on) return;
      if (rec.n < rec.at.length) rec.at[rec.n++] = t;
      g.requestAnimationFrame(loop);
    };
    g.requestAnimationFrame(loop);
  });
await recordFrames(table);
await recordFrames(station);
/** Stops the recording; the display frames, the frames drawn and the cards shown, in wall-clock ms. */
const takeFrames = (p: Page) =>
  p.evaluate(() => {
    const g = globalThis as unknown as PageGlobals;
    const f = g.__frames!;
    f.on = false;
    const origin = g.performance.timeOrigin;
    const frames = Array.from(f.at.subarray(0, f.n), (t) => origin + t);
    const trace = g.__kiosk?.frameTrace;
    const drawn = trace ? Array.from(trace.at.subarray(0, trace.n), (t) => origin + t) : null;
    const shown = (g.__kiosk?.cardTrace ?? []).map((c) => ({ code: c.code, t: origin + c.t }));
    // The recording stops here: nothing of it stays in the heap measured next.
    delete g.__kiosk?.cardTrace;
    if (trace) trace.n = 0;
    g.__frames = undefined;
    return { frames, drawn, shown };
  });
/**
 * Each drawn frame's time: the display frame it was drawn in, to the next one. A frame drawn at
 * once on a snapshot or a press (not in an animation frame) counts in the display frame it fell in.
 */
const drawnFrameTimes = (rec: { frames: number[]; drawn: number[] | null }): { t: number; dt: number }[] => {
  const out: { t: number; dt: number }[] = [];
  const drawn = rec.drawn;
  let k = 0;
  for (let i = 1; i < rec.frames.length; i++) {
    const t0 = rec.frames[i - 1]!;
    const t1 = rec.frames[i]!;
    let hit = drawn === null;
    if (drawn) {
      while (k < drawn.length && drawn[k]! < t0) k++;
      hit = k < drawn.length && drawn[k]! < t1;
    }
    if (hit) out.push({ t: t0, dt: t1 - t0 });
  }
  return out;
};

/** A CDP CPU profile, as far as jsSelf reads it. */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number }[];
  startTime: number;
  endTime: number;
  samples?: number[];
}
/** Self time per JS function (name, file and line), ms, largest first. */
function jsSelf(profile: CpuProfile): { name: string; ms: number }[] {
  const samples = profile.samples?.length ?? 0;
  const per = samples ? (profile.endTime - profile.startTime) / 1000 / samples : 0;
  const by = new Map<string, number>();
  for (const n of profile.nodes) {
    const f = n.callFrame;
    const name = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop() ?? ''}:${f.lineNumber + 1}`;
    by.set(name, (by.get(name) ?? 0) + (n.hitCount ?? 0) * per);
  }
  return [...by].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms);
}

/** A heap snapshot of `page` by kind; written to SNAPSHOT_DIR as `name-<ms>.heapsnapshot` when set. */
async function heapSnapshot(page: Page, name: 'table' | 'station' | 'bare'): Promise<Map<string, HeapKind>> {
  const cdp = await page.context().newCDPSession(page);
  const chunks: string[] = [];
  cdp.on('HeapProfiler.addHeapSnapshotChunk', (e: { chunk: string }) => void chunks.push(e.chunk));
  await cdp.send('HeapProfiler.enable');
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  await cdp.detach();
  const json = chunks.join('');
  if (SNAPSHOT_DIR) writeFileSync(path.join(SNAPSHOT_DIR, `${name}-${Date.now()}.heapsnapshot`), json);
  return heapKinds(json);
}

/**
 * Waits (bounded) until the page has drawn no frame for a second: play held, its last card landed.
 * A table held mid-deal never is: its marker pulses 20 times a second for the dealer's eye
 * (table-round.ts). 20 s lets a loaded machine land its cards without waiting on the pulse for
 * minutes; the heap is taken after forced GCs either way.
 */
async function still(page: Page, limitMs = 20_000): Promise<void> {
  const drawn = () => page.evaluate(() => (globalThis as unknown as PageGlobals).__kiosk?.framesDrawn?.() ?? 0);
  const until = Date.now() + limitMs;
  let last = await drawn();
  while (Date.now() < until) {
    await new Promise((r) => setTimeout(r, 1000));
    const n = await drawn();
    if (n === last) return;
    last = n;
  }
  progress(`the page still drew frames after ${limitMs / 1000} s; its heap is measured anyway`);
}

/** The heap of each page after GC, with the host's play held and the pages still. */
async function heaps(pages: { table: Page; station: Page }): Promise<{ table: number; station: number }> {
  holdPlay();
  await still(pages.table);
  await still(pages.station);
  const r = { table: await heapMb(pages.table), station: await heapMb(pages.station) };
  return r;
}

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

// BENCH_TRACE=FILE: a Chromium trace of the table page mid-deal (BENCH_TRACE_SECONDS, default 6)
// and a JS profile of it (FILE.cpuprofile), before the measured rounds, and the events and JS
// functions with the most self time per table frame printed. Tracing slows the page: read the
// figures of a traced run for where the time goes, not for the ratios.
// BENCH_TRACE_VIEW=station: the station page's JS profile instead, per frame the station drew
// (its render-on-demand trace, not the display's refreshes: a station at 15 frames a second sits
// out most of them), and the renderer processes named by the page they hold, so the station's
// own main thread is told from the table's.
const TRACE = process.env.BENCH_TRACE;
const TRACE_VIEW = process.env.BENCH_TRACE_VIEW === 'station' ? 'station' : 'table';
if (TRACE) {
  const seconds = Number(process.env.BENCH_TRACE_SECONDS ?? 6);
  const traced = TRACE_VIEW === 'station' ? station : table;
  // Mid-deal: from a round's first card read.
  const dealt = reads.length;
  while (reads.length === dealt) await new Promise((r) => setTimeout(r, 50));
  const cdp = await traced.context().newCDPSession(traced);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
  await cdp.send('Profiler.start');
  await browser.startTracing(traced, {
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink', 'cc', 'gpu', 'viz', 'toplevel', 'benchmark', 'webgl'],
  });
  // Frames drawn by the page (render on demand), else its display frames.
  const count = () =>
    traced.evaluate(() => {
      const g = globalThis as unknown as PageGlobals;
      return g.__kiosk?.frameTrace?.n ?? g.__frames?.n ?? 0;
    });
  const framesBefore = await count();
  const readsBefore = reads.length;
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const framesAfter = await count();
  const cardsRead = reads.length - readsBefore;
  const buffer = await browser.stopTracing();
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile };
  await cdp.detach();
  writeFileSync(TRACE, buffer);
  writeFileSync(`${TRACE}.cpuprofile`, JSON.stringify(profile));
  const frames = Math.max(1, framesAfter - framesBefore);
  console.log(
    `trace of the ${TRACE_VIEW} page mid-deal, ${seconds} s, ${frames} frames drawn, ${cardsRead} cards read, load average ${os.loadavg()[0]!.toFixed(1)}: ${TRACE}`,
  );
  console.log(`  self time per ${TRACE_VIEW} frame, by process / thread / event:`);
  for (const t of selfTimes(buffer.toString('utf8')).slice(0, 24))
    console.log(`    ${(t.ms / frames).toFixed(2).padStart(9)} ms  ${t.process} / ${t.thread} / ${t.name} (×${(t.count / frames).toFixed(1)})`);
  console.log(`  JS self time per frame in the ${TRACE_VIEW} page, by function:`);
  for (const f of jsSelf(profile).slice(0, 25)) console.log(`    ${(f.ms / frames).toFixed(2).padStart(9)} ms  ${f.name}`);
}

// The rounds dealt while the pages loaded are not measured: from here, with frames recorded.
reads.length = 0;
const t0 = Date.now();
await until(rounds + MEASURE + 1);
// On a loaded machine SwiftShader may draw one table frame in 15 s: the measured rounds go on, up
// to MEASURE more, until the table has drawn MIN_FRAMES frames to take the figures from.
const drawn = () =>
  table.evaluate(() => {
    const g = globalThis as unknown as PageGlobals;
    return g.__kiosk?.frameTrace?.n ?? g.__frames?.n ?? 0;
  });
for (let extra = 0; extra < MEASURE && (await drawn()) < MIN_FRAMES; extra++) await until(rounds + 1);
measuring = false;
// Frames and sprite times, in wall-clock ms (the page's timeOrigin plus its performance time).
const page = await takeFrames(table);
const stationPage = await takeFrames(station);
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
const allFrameTimes: number[] = [];
for (const { t, dt } of drawnFrameTimes(page)) {
  allFrameTimes.push(dt);
  if (inBurst(t + dt)) frameTimes.push(dt);
}
const stationFrameTimes = drawnFrameTimes(stationPage).map((f) => f.dt);
const drawnFrames = page.drawn ?? page.frames;

// Each read paired with the first sprite of that face put on the stage after it, then with the
// first frame after that sprite: the frame that shows it.
// The first half (read → sprite on the stage) is the host's push and the screen's handling of it.
const latencies: number[] = [];
const pushes: number[] = [];
const used = new Set<number>();
for (const r of reads) {
  const i = page.shown.findIndex((s, k) => !used.has(k) && s.code === r.code && s.t >= r.t);
  if (i < 0) continue;
  used.add(i);
  // The first frame drawn with the card, shown at the first display frame from then on.
  const drawnAt = drawnFrames.find((t) => t >= page.shown[i]!.t);
  const frame = drawnAt === undefined ? undefined : page.frames.find((t) => t >= drawnAt);
  if (frame !== undefined) {
    latencies.push(frame - r.t);
    pushes.push(page.shown[i]!.t - r.t);
  }
}

const bareName = `bare pixi scene, ${VIEWPORT.width}×${VIEWPORT.height}, antialias, ${BARE_CARDS} moving cards, beside the same station`;
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
// The frame figures are recorded now: the heap phases below can take long on a loaded machine.
console.log(
  `screens, baccarat, Chromium ${browser.version()} with SwiftShader${JS_FLAGS ? ` and V8 flags ${JS_FLAGS}` : " and V8's default flags"}, ${os.cpus().length} cores, load average ${load()}`,
);
console.log(`  measured: ${MEASURE} rounds in real time (${((tMeasured - t0) / 1000).toFixed(0)} s), ${bursts.size} dealing bursts`);
console.log(
  `  table frame time, all frames  p50 ${pct(allFrameTimes, 50).toFixed(1)} ms   p99 ${pct(allFrameTimes, 99).toFixed(1)} ms   (${allFrameTimes.length} intervals)`,
);
console.log(
  `  table frame time in bursts  p50 ${pct(frameTimes, 50).toFixed(1)} ms   p99 ${pct(frameTimes, 99).toFixed(1)} ms   (${frameTimes.length} frames of ${page.frames.length})`,
);
console.log(
  `  baseline, a bare pixi scene of the same size (${VIEWPORT.width}×${VIEWPORT.height}, antialias, ${BARE_CARDS} moving cards) beside the same station, ${BARE_SECONDS} s: ` +
    `frame p50 ${pct(bareFrameTimes, 50).toFixed(1)} ms, p99 ${pct(bareFrameTimes, 99).toFixed(1)} ms (${bare.frames.length} frames); JS heap after GC ${bare.heap.toFixed(1)} MB`,
);
console.log(
  `  card read → first frame     p50 ${pct(latencies, 50).toFixed(0)} ms   p99 ${pct(latencies, 99).toFixed(0)} ms   (${latencies.length} of ${reads.length} reads; burns are never shown)`,
);
console.log(
  `    of which read → card on the stage (the host's push and the page's handling)  p50 ${pct(pushes, 50).toFixed(0)} ms; ` +
    `target: within the bare frame p50 plus that, ${(pct(bareFrameTimes, 50) + pct(pushes, 50)).toFixed(0)} ms`,
);
console.log(
  `  station frame time (15 frames a second at most)  p50 ${pct(stationFrameTimes, 50).toFixed(1)} ms   p99 ${pct(stationFrameTimes, 99).toFixed(1)} ms   (${stationFrameTimes.length} frames drawn)`,
);
// SwiftShader on a loaded 2-core machine can draw a frame every 5–20 s: then a dealing burst
// (a second or two) may hold no frame, and there is nothing to take a percentile of. Each pair of
// figures is recorded only when it has frames: the frame time over the whole measured rounds
// (every frame the table drew, dealing or not) beside the bare scene always needs just two frames
// of each; the frames in bursts and the read-to-frame latency need frames inside the bursts.
const frameRatio = (name: string, values: number[]) => {
  for (const label of ['p50', 'p99'] as const) {
    const p = label === 'p50' ? 50 : 99;
    const r = figure({
      name: `${name}, ${label}`,
      unit: 'ms',
      value: pct(values, p),
      better: 'lower',
      baseline: { name: `${bareName}, frame ${label}`, value: pct(bareFrameTimes, p) },
    });
    console.log(`  ratio to the bare scene, ${name}, ${label}: ${times(r)}`);
  }
};
if (allFrameTimes.length < 2 || bareFrameTimes.length < 2) {
  console.log(
    `  too few frames to measure (${allFrameTimes.length} table frame times, ${bareFrameTimes.length} bare): the machine is too loaded; no frame figures recorded`,
  );
} else {
  frameRatio(`table frame time over ${MEASURE} rounds`, allFrameTimes);
  if (frameTimes.length < 2) console.log(`  too few frames in dealing bursts (${frameTimes.length}): the machine is too loaded; no burst figures recorded`);
  else frameRatio('table frame time in dealing bursts', frameTimes);
  if (stationFrameTimes.length < 2) console.log(`  too few station frames (${stationFrameTimes.length}); no station figures recorded`);
  else frameRatio('station frame time', stationFrameTimes);
}
if (latencies.length > 0)
  figure({
    name: 'card read → first frame that shows it, p50',
    unit: 'ms',
    value: pct(latencies, 50),
    better: 'lower',
    baseline: null,
    note: "no single bare counterpart: it is the host's push (bench table-host, beside a bare ws broadcast) plus the wait for the next frame (beside the bare scene)",
  });

progress(`measured; on to ${FIRST} rounds at ${FAST}×`);
await until(FIRST);
progress('the heaps after GC');
const heapFirst = await heaps({ table, station });
if (SNAPSHOTS) progress('the heap snapshots');
const kindsFirst = SNAPSHOTS ? { table: await heapSnapshot(table, 'table'), station: await heapSnapshot(station, 'station') } : null;
resumePlay();
const tFirst = Date.now();
progress(`heap at ${FIRST} rounds taken; on to ${ROUNDS}`);
await until(ROUNDS);
progress(`${ROUNDS} rounds; the heaps`);
const heapLast = await heaps({ table, station });
if (kindsFirst) {
  // What each page holds at all (the largest kinds at the first snapshot): beside the bare scene's heap, where a page's extra megabytes are.
  for (const view of ['table', 'station'] as const) {
    console.log(`  the largest kinds in the ${view}'s heap at ${FIRST} rounds (count, self size):`);
    for (const g of heapGrowth(new Map(), kindsFirst[view]))
      console.log(`    ${g.kind.slice(0, 60).padEnd(60)} ${String(g.count).padStart(7)}  ${(g.bytes / 1024).toFixed(1).padStart(9)} KiB`);
  }
  for (const view of ['table', 'station'] as const) {
    console.log(`  what grew in the ${view}'s heap from ${FIRST} to ${ROUNDS} rounds (count, self size):`);
    for (const g of heapGrowth(kindsFirst[view], await heapSnapshot(view === 'table' ? table : station, view)))
      console.log(`    ${g.kind.slice(0, 60).padEnd(60)} ${String(g.count).padStart(7)}  ${(g.bytes / 1024).toFixed(1).padStart(9)} KiB`);
  }
}
const tLast = Date.now();

console.log(`  JS heap after GC, table     ${FIRST} rounds ${heapFirst.table.toFixed(1)} MB   ${ROUNDS} rounds ${heapLast.table.toFixed(1)} MB`);
console.log(`  JS heap after GC, station   ${FIRST} rounds ${heapFirst.station.toFixed(1)} MB   ${ROUNDS} rounds ${heapLast.station.toFixed(1)} MB`);
console.log(
  `  (${FIRST} rounds after ${((tFirst - t0) / 1000).toFixed(0)} s, ${ROUNDS} after ${((tLast - t0) / 1000).toFixed(0)} s, at ${FAST}× after the measured rounds; load average ${load()})`,
);
for (const view of ['table', 'station'] as const) {
  const r = figure({
    name: `JS heap after GC, ${view}, ${ROUNDS} rounds`,
    unit: 'MB',
    value: heapLast[view],
    better: 'lower',
    baseline: { name: `${bareName}, JS heap after GC`, value: bare.heap },
  });
  console.log(`  ratio to the bare scene, ${view} heap: ${times(r)}`);
}

// A still table: the round held (an unreadable card), nothing moving; the frames it draws in
// STILL_SECONDS after a second to settle. The shoe's reads stop first (a read during a hold is
// not taken).
resumePlay();
feeding = false;
while (host.table.reads.view().phase !== 'dealing') await new Promise((r) => setTimeout(r, 20));
host.table.shoe.onAnomaly('unreadable', null);
await new Promise((r) => setTimeout(r, 1000));
// A page that does not count its frames (before render on demand) drew one every display frame:
// those are counted instead.
const counts = await table.evaluate(() => {
  const g = globalThis as unknown as PageGlobals & { __displayFrames?: number };
  if (g.__kiosk?.framesDrawn) return true;
  g.__displayFrames = 0;
  const loop = () => {
    g.__displayFrames!++;
    g.requestAnimationFrame(loop);
  };
  g.requestAnimationFrame(loop);
  return false;
});
const framesOf = (p: Page) =>
  p.evaluate(() => {
    const g = globalThis as unknown as PageGlobals & { __displayFrames?: number };
    return g.__kiosk?.framesDrawn?.() ?? g.__displayFrames ?? 0;
  });
// Settled: the last card's flight and the hold's notice drawn. On a loaded machine a SwiftShader
// frame takes seconds, so a fixed second was not enough and the flight's last frames fell in the
// window (0.2 frames a second at load 27): wait until no frame was drawn for SETTLE_QUIET_MS,
// for at most SETTLE_MAX_MS, and say how long it took.
const SETTLE_QUIET_MS = 3000;
const SETTLE_MAX_MS = 120_000;
const settleFrom = Date.now();
for (let last = await framesOf(table), quietFrom = Date.now(); Date.now() - quietFrom < SETTLE_QUIET_MS && Date.now() - settleFrom < SETTLE_MAX_MS;) {
  await new Promise((r) => setTimeout(r, 250));
  const now = await framesOf(table);
  if (now !== last) [last, quietFrom] = [now, Date.now()];
}
const settledIn = Date.now() - settleFrom;
const before = await framesOf(table);
await new Promise((r) => setTimeout(r, STILL_SECONDS * 1000));
const after = await framesOf(table);
const phase = host.table.reads.view().phase;
{
  const rate = (after - before) / STILL_SECONDS;
  console.log(
    `  still table (phase ${phase}, ${STILL_SECONDS} s, after ${(settledIn / 1000).toFixed(1)} s to settle): ${rate.toFixed(2)} frames a second drawn${counts ? '' : ' (display frames: this page draws every one)'}`,
  );
  figure({
    name: 'still table (held round), frames drawn a second',
    unit: 'frames/s',
    value: rate,
    better: 'lower',
    baseline: null,
    note: 'a still scene should draw nothing: zero is the target, no bare work compares',
  });
}

await browser.close();
await host.close();
rmSync(dataDir, { recursive: true, force: true });
