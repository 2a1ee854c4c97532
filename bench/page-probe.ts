// A page's figures as the long-run bench samples them (issue 52 item 2), read over CDP alone, and
// what the bench needs to say why a read gave none: the step that did not answer (or the error it
// threw), whether the read answered after its bound and how late, what the page itself said (console
// errors and warnings, uncaught exceptions, a crash, a navigation, a close), and what each of its
// browser's processes and their busiest threads did with the CPU since the last look (/proc, Linux).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CDPSession, Page } from '@playwright/test';
import { z } from 'zod';
import { heapKinds, type HeapKind } from './heap-summary.js';

/** The `pixi()` hook's answer (renderer/src/test-hooks/pixi-counts.ts), as the inspector hands it back: parsed, not cast. */
const PixiCounts = z.object({
  textures: z.number(),
  renderTextures: z.number(),
  textureBytes: z.number(),
  graphicsContexts: z.number(),
  geometries: z.number(),
  buffers: z.number(),
  /** The pixi objects made since the page started, by kind (renderer/src/test-hooks/pixi-made.ts). */
  made: z.record(z.string(), z.number()).optional(),
});
export type PixiCounts = z.infer<typeof PixiCounts>;

/**
 * What Chromium itself keeps of the page's long animation frames (frames over 50 ms): it buffers
 * the first 200 entries, each with every script that ran in the frame, for `getEntriesByType`, and
 * no script can clear them. A heap snapshot diff of the station page over 900 rounds (640×360, load
 * average 15-34) found 2.73 MB of its 3.65 MB growth there: 57 entries more holding 10,847 script
 * timings. Counted here so that a page heap's slope can be read beside the buffer filling up.
 */
const LOAF_COUNTS = `(() => { const e = performance.getEntriesByType('long-animation-frame'); return { frames: e.length, scripts: e.reduce((n, f) => n + (f.scripts?.length ?? 0), 0) }; })()`;
const readLoaf = process.env.BENCH_LONG_LOAF !== '0';
const LoafCounts = z.object({ frames: z.number(), scripts: z.number() });
type LoafCounts = z.infer<typeof LoafCounts>;

/**
 * BENCH_LONG_GL=1: what a page asks of WebGL, counted in the page from its start (an init script
 * wrapping the context's methods before the page's own scripts run): draw calls into the canvas and
 * into render targets (a cached layer, a baked texture), clears, framebuffer binds, multisampled
 * resolves (`blitFramebuffer`, with the pixels they cover), texture uploads (`texImage2D`,
 * `texSubImage2D`, with their pixels) and multisampled render buffers made. Divided by the frames the
 * page drew, what one frame asks of a software GPU. The wrappers cost the page's script a little;
 * off by default.
 */
export const GL_COUNTER = `(() => {
  const c = { draws: 0, targetDraws: 0, clears: 0, targetClears: 0, binds: 0, blits: 0, blitPixels: 0, uploads: 0, uploadPixels: 0, msaaBuffers: 0 };
  globalThis.__glCounts = c;
  let target = false;
  const px = (w, h) => (Number(w) || 0) * (Number(h) || 0);
  const size = (src) => (src ? px(src.width ?? src.videoWidth ?? src.codedWidth, src.height ?? src.videoHeight ?? src.codedHeight) : 0);
  const wrap = (proto, name, count) => {
    const f = proto && proto[name];
    if (typeof f !== 'function') return;
    proto[name] = function (...args) { count(args); return f.apply(this, args); };
  };
  for (const proto of [globalThis.WebGLRenderingContext?.prototype, globalThis.WebGL2RenderingContext?.prototype]) {
    for (const name of ['drawElements', 'drawArrays', 'drawElementsInstanced', 'drawArraysInstanced', 'drawRangeElements'])
      wrap(proto, name, () => { c.draws++; if (target) c.targetDraws++; });
    wrap(proto, 'clear', () => { c.clears++; if (target) c.targetClears++; });
    wrap(proto, 'bindFramebuffer', (a) => { target = a[1] !== null; if (target) c.binds++; });
    wrap(proto, 'blitFramebuffer', (a) => { c.blits++; c.blitPixels += Math.abs(px(a[6] - a[4], a[7] - a[5])); });
    wrap(proto, 'texImage2D', (a) => { c.uploads++; c.uploadPixels += a.length >= 9 ? px(a[3], a[4]) : size(a[5]); });
    wrap(proto, 'texSubImage2D', (a) => { c.uploads++; c.uploadPixels += a.length >= 9 ? px(a[4], a[5]) : size(a[6]); });
    wrap(proto, 'renderbufferStorageMultisample', () => { c.msaaBuffers++; });
  }
})()`;
const GlCounts = z.object({
  draws: z.number(),
  targetDraws: z.number(),
  clears: z.number(),
  targetClears: z.number(),
  binds: z.number(),
  blits: z.number(),
  blitPixels: z.number(),
  uploads: z.number(),
  uploadPixels: z.number(),
  msaaBuffers: z.number(),
});
export type GlCounts = z.infer<typeof GlCounts>;
const readGl = process.env.BENCH_LONG_GL === '1';

/** One read of a page: its figures, or NaN/null ones and `failure` saying why. */
export interface PageRead {
  heap: number;
  nodes: number;
  listeners: number;
  pixi: PixiCounts | null;
  loaf: LoafCounts | null;
  /** Frames the page has drawn since it opened (`__kiosk.framesDrawn()`), NaN without the hook. */
  frames: number;
  /** What the page asked of WebGL since it opened (BENCH_LONG_GL=1, `GL_COUNTER`), else null. */
  gl: GlCounts | null;
  /** Null when every figure was read; else the step that failed and how. */
  failure: string | null;
}

/** `work`, or `timedOut()` after `ms` (a page that does not answer is a gap in the plot, not a hang). */
export function bounded<T>(work: Promise<T>, ms: number, timedOut: () => T): Promise<T> {
  return Promise.race([work, new Promise<T>((resolve) => setTimeout(() => resolve(timedOut()), ms).unref())]);
}

const TICK_MS = 10; // /proc's clock ticks: USER_HZ is 100 on Linux

/** utime + stime of a process or thread, ms; NaN when it is gone. */
function cpuMs(statPath: string): number {
  try {
    // The command name (field 2) may hold spaces: the fields after its closing parenthesis are fixed.
    const rest = readFileSync(statPath, 'utf8').split(') ').at(-1)!.split(' ');
    return (Number(rest[11]) + Number(rest[12])) * TICK_MS;
  } catch {
    return NaN;
  }
}

function stateOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1)!.split(' ')[0]!;
  } catch {
    return 'gone';
  }
}

function wchanOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/wchan`, 'utf8') || 'running';
  } catch {
    return '?';
  }
}

/** Every process's parent, from /proc. */
function parents(): Map<number, number> {
  const m = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${d}/stat`, 'utf8').split(') ').at(-1)!.split(' ')[1]);
      m.set(Number(d), ppid);
    } catch {
      // gone between the listing and the read
    }
  }
  return m;
}

/**
 * One browser's processes (the one launched with `marker` among its arguments, and its descendants),
 * and the CPU each and its busiest threads took since the last `report()`.
 */
export class BrowserProcesses {
  private last = new Map<string, number>();
  private lastAt = Date.now();
  constructor(private readonly marker: string) {}

  private pids(): number[] {
    const ppid = parents();
    const root = [...ppid.keys()].find((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(this.marker);
      } catch {
        return false;
      }
    });
    if (root === undefined) return [];
    const out = [root];
    for (let i = 0; i < out.length; i++) for (const [pid, parent] of ppid) if (parent === out[i]) out.push(pid);
    return out;
  }

  /**
   * The CPU (ms, user and system, every thread: a process's own /proc stat counts all its threads)
   * the browser's processes of `type` have used since they started, summed: `gpu-process` is where
   * SwiftShader draws a page's WebGL frames and the compositor puts them on the glass. A process that
   * went away takes its share with it (NaN when none is found).
   */
  cpuMsOf(type: string): number {
    let sum = 0;
    let found = false;
    for (const pid of this.pids()) {
      let t: string;
      try {
        t = /--type=(\S+)/.exec(readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' '))?.[1] ?? 'browser';
      } catch {
        continue;
      }
      if (t !== type) continue;
      const ms = cpuMs(`/proc/${pid}/stat`);
      if (Number.isFinite(ms)) {
        sum += ms;
        found = true;
      }
    }
    return found ? sum : NaN;
  }

  /** `type pid state:wchan cpu% (thread cpu%, …)` for each process, the CPU since the last report. */
  report(): string {
    const now = Date.now();
    const wall = Math.max(1, now - this.lastAt);
    const seen = new Map<string, number>();
    const pct = (key: string, ms: number) => {
      seen.set(key, ms);
      const before = this.last.get(key);
      return before === undefined ? '?' : `${Math.round(((ms - before) / wall) * 100)}%`;
    };
    const parts: string[] = [];
    for (const pid of this.pids()) {
      let type: string;
      try {
        type = /--type=(\S+)/.exec(readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' '))?.[1] ?? 'browser';
      } catch {
        continue;
      }
      const threads: { name: string; pct: string; delta: number }[] = [];
      try {
        for (const tid of readdirSync(`/proc/${pid}/task`)) {
          const ms = cpuMs(`/proc/${pid}/task/${tid}/stat`);
          const before = this.last.get(`${pid}/${tid}`);
          const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
          threads.push({ name: tid === String(pid) ? `main:${name}` : name, pct: pct(`${pid}/${tid}`, ms), delta: before === undefined ? 0 : ms - before });
        }
      } catch {
        // the process went away while it was read
      }
      const busy = threads
        .filter((t) => t.delta > 0)
        .sort((a, b) => b.delta - a.delta)
        .slice(0, 3)
        .map((t) => `${t.name} ${t.pct}`);
      // Where its main thread sleeps in the kernel (futex: a lock or an event; epoll: its message loop idle).
      parts.push(`${type} ${pid} ${stateOf(pid)}:${wchanOf(pid)} ${pct(String(pid), cpuMs(`/proc/${pid}/stat`))}${busy.length ? ` (${busy.join(', ')})` : ''}`);
    }
    this.last = seen;
    this.lastAt = now;
    return parts.length ? parts.join('; ') : 'no processes found';
  }
}

/**
 * A page the bench samples: what it said since it opened (kept, the newest 20 lines, and passed to
 * `say` as it comes), and its figures read over CDP alone with the reason of any gap.
 */
export class PageProbe {
  private readonly said: string[] = [];
  private readonly t0 = Date.now();

  constructor(
    readonly view: string,
    readonly page: Page,
    readonly processes: BrowserProcesses | null,
    private readonly say: (line: string) => void,
  ) {
    const note = (what: string) => {
      const line = `${view} page +${((Date.now() - this.t0) / 1000).toFixed(0)} s: ${what}`;
      this.said.push(line);
      if (this.said.length > 20) this.said.shift();
      say(line);
    };
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') note(`console ${m.type()}: ${m.text().slice(0, 300)}`);
    });
    page.on('pageerror', (e) => note(`uncaught ${e.name}: ${e.message.slice(0, 300)}`));
    page.on('crash', () => note('renderer crashed'));
    page.on('close', () => note('closed'));
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame()) note(`navigated to ${f.url()}`);
    });
    page
      .context()
      .browser()
      ?.on('disconnected', () => note('browser disconnected'));
  }

  /** What the page said, the newest 20 lines. */
  log(): readonly string[] {
    return this.said;
  }

  /**
   * The page's heap after two full GCs, its DOM counters, and pixi's counts (the `pixi()` hook, a read
   * of pixi's registries evaluated by the inspector). Nothing waits on the page's own frames; a read
   * that does not answer within `ms` leaves its figures gaps and says which step it was at, and the
   * step's late answer (or error) is said when it comes.
   */
  async read(ms: number): Promise<PageRead> {
    const { page } = this;
    // The session's opening and its closing are bounded too: at 1920×1080 at load 19 a sample once
    // waited past its bound with the host paused (the bound had covered only the reads).
    const session: { cdp?: CDPSession } = {};
    const at = { step: 'opening a CDP session', since: Date.now() };
    const step = <T>(name: string, p: () => Promise<T>): Promise<T> => {
      at.step = name;
      at.since = Date.now();
      return p();
    };
    const gap = (failure: string): PageRead => ({ heap: NaN, nodes: NaN, listeners: NaN, pixi: null, loaf: null, frames: NaN, gl: null, failure });
    const started = Date.now();
    const work = (async (): Promise<PageRead> => {
      const cdp = (session.cdp = await page.context().newCDPSession(page));
      await step('HeapProfiler.collectGarbage', () => cdp.send('HeapProfiler.collectGarbage'));
      await step('HeapProfiler.collectGarbage (second)', () => cdp.send('HeapProfiler.collectGarbage'));
      const { usedSize } = await step('Runtime.getHeapUsage', () => cdp.send('Runtime.getHeapUsage'));
      const dom = await step('Memory.getDOMCounters', () => cdp.send('Memory.getDOMCounters'));
      const counted = await step('Runtime.evaluate pixi()', () =>
        cdp.send('Runtime.evaluate', { expression: 'globalThis.__kiosk?.pixi?.() ?? null', returnByValue: true }),
      );
      // A page without the hook, or one whose answer is not the counts, leaves the pixi figures gaps.
      const read = PixiCounts.safeParse(counted.result.value);
      // Reading the entries makes a JS object of each entry and each script timing, which then live
      // in the page's heap as long as Chromium keeps the entry: `BENCH_LONG_LOAF=0` leaves them unread.
      const buffered = readLoaf
        ? await step('Runtime.evaluate long-animation-frame counts', () => cdp.send('Runtime.evaluate', { expression: LOAF_COUNTS, returnByValue: true }))
        : null;
      const loafRead = LoafCounts.safeParse(buffered?.result.value);
      const drawn = await step('Runtime.evaluate framesDrawn()', () =>
        cdp.send('Runtime.evaluate', { expression: 'globalThis.__kiosk?.framesDrawn?.() ?? null', returnByValue: true }),
      );
      const gl = readGl
        ? await step('Runtime.evaluate WebGL counts', () => cdp.send('Runtime.evaluate', { expression: 'globalThis.__glCounts ?? null', returnByValue: true }))
        : null;
      const glRead = GlCounts.safeParse(gl?.result.value);
      const failure = read.success ? null : `pixi() answered no counts: ${JSON.stringify(counted.result.value ?? counted.exceptionDetails?.text ?? null)}`;
      return {
        heap: usedSize,
        nodes: dom.nodes,
        listeners: dom.jsEventListeners,
        pixi: read.success ? read.data : null,
        loaf: loafRead.success ? loafRead.data : null,
        frames: typeof drawn.result.value === 'number' ? drawn.result.value : NaN,
        gl: glRead.success ? glRead.data : null,
        failure,
      };
    })().catch((e: unknown) => gap(`${at.step} failed: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`));
    let timedOut = false;
    try {
      return await bounded(work, ms, () => {
        timedOut = true;
        return gap(`no answer within ${ms / 1000} s, waiting on ${at.step} for ${((Date.now() - at.since) / 1000).toFixed(0)} s`);
      });
    } finally {
      const detach = () => session.cdp?.detach().catch(() => undefined) ?? Promise.resolve();
      if (timedOut)
        void work.then((r) => {
          this.say(
            `${this.view} page: the read that ran out of time ${r.failure ? `ended: ${r.failure}` : 'answered'} ${((Date.now() - started) / 1000).toFixed(0)} s after it began`,
          );
          return detach();
        });
      else await bounded(detach(), 10_000, () => undefined);
    }
  }
}

/**
 * A heap snapshot of `page` after a full GC, by kind (bench/heap-summary.ts), bounded by `ms` (null
 * past it); written to `dir` as `<name>-<ms>.heapsnapshot` when one is given.
 */
export async function heapSnapshot(page: Page, name: string, ms: number, dir?: string): Promise<Map<string, HeapKind> | null> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const chunks: string[] = [];
    cdp.on('HeapProfiler.addHeapSnapshotChunk', (e: { chunk: string }) => void chunks.push(e.chunk));
    const taken = await bounded(
      (async () => {
        await cdp.send('HeapProfiler.enable');
        await cdp.send('HeapProfiler.collectGarbage');
        await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
        return true;
      })(),
      ms,
      () => false,
    );
    if (!taken) return null;
    const json = chunks.join('');
    if (dir) writeFileSync(path.join(dir, `${name}-${Date.now()}.heapsnapshot`), json);
    return heapKinds(json);
  } finally {
    await bounded(
      cdp.detach().catch(() => undefined),
      10_000,
      () => undefined,
    );
  }
}

/** `kinds` lines: the kind, count and self size (KiB), `top` of them by size. */
export function kindLines(kinds: HeapKind[]): string[] {
  return kinds.map((g) => `${g.kind.slice(0, 60).padEnd(60)} ${String(g.count).padStart(7)}  ${(g.bytes / 1024).toFixed(1).padStart(9)} KiB`);
}
