// One screen's frame, measured alone (issue 31): `npm run bench -- screen-frame` (it builds the renderer first, bench/build-pages.ts).
//
// The screens bench times frames by their animation-frame timestamps, with the table and a
// station page sharing the one SwiftShader process, so its frame figures move 2× between runs
// minutes apart. This probe asks a narrower question: what one frame of one page costs. Each page
// is opened alone in its own browser context with `?clock=stepped`; in one synchronous loop in the
// page the probe steps the clock by STEP_MS (which draws a frame, the test hook `step`) and finishes
// the frame with a 1-pixel `readPixels`, which waits until SwiftShader has executed every command
// of it. The bare pixi scene of the screens bench (full-screen rectangle, six moving card-sized
// rectangles, same size and options as renderer/src/boot/stage.ts) is measured the same way in
// the same run, before and after the pages, and each page's figure is given beside it.
//
// Pages: `station/1` (its seat betting: spots, chips, the countdown bar draining), `table`, and the
// service screen's busiest page: signed in, every page is opened and the one that puts the most
// things on the stage (texts, buttons, panels: the test hook `boxes`) is measured.
//
// A/B builds in one session: PROBE_RENDERERS=DIR_A,DIR_B (built `dist/renderer` folders; default
// dist/renderer) starts a host per build and measures the pages of each in turn, PROBE_ROUNDS times.
// PROBE_TRACE=1 adds a Chromium trace of the station's frames (the first build) with the events of
// the most self time per frame (bench/trace-summary.ts). PROBE_VIEWS=station/1,table,service picks pages.
import { jsFlagsArgs, pageJsFlags } from './page-flags.js';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import pino from 'pino';
import { SERVICE_PAGES } from '../protocol/service.js';
import { simulatedTableConfig } from '../host/config/table-config.js';
import { AccountStore } from '../host/service/accounts.js';
import { startHost } from '../host/start-host.js';
import { QUICK } from './report.js';
import { barePixiScript, mountBareScene } from './bare-pixi.js';
import { selfTimes } from './trace-summary.js';
import { buildPages } from './build-pages.js';

buildPages('renderer');

const FRAMES = Number(process.env.PROBE_FRAMES ?? (QUICK ? 10 : 40));
const WARM = 5;
const ROUNDS = Number(process.env.PROBE_ROUNDS ?? (QUICK ? 1 : 2));
/** The clock's step per frame: the station's bar drains in 250 ms steps, so each frame moves it. */
const STEP_MS = 250;
const VIEWS = (process.env.PROBE_VIEWS ?? 'station/1,table,service').split(',');
const root = path.resolve(import.meta.dirname, '..');
const RENDERERS = (process.env.PROBE_RENDERERS ?? path.join(root, 'dist/renderer')).split(',');
const VIEWPORT = { width: 1920, height: 1080 };
const STAFF = { staff: '3001', pin: '482915', name: 'Ana Lei' };

interface Frames {
  /** Step (the screen's tick and pixi's render, the commands issued) to readPixels' return, ms. */
  total: number[];
  /** The step alone: the page's JS (the GPU process may still be working). */
  js: number[];
}
const pct = (v: number[], p: number) => [...v].sort((a, b) => a - b)[Math.min(v.length - 1, Math.floor((p / 100) * v.length))] ?? NaN;
const fmt = (f: Frames) => `p50 ${pct(f.total, 50).toFixed(1)} ms (JS ${pct(f.js, 50).toFixed(1)}), p90 ${pct(f.total, 90).toFixed(1)} ms`;
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

// The page's globals, typed here without the DOM library (this file runs in Node).
interface G {
  __kiosk?: {
    events: string[];
    step(ms: number): void;
    boxes(): unknown[];
    bounds(id: string): { x: number; y: number; width: number; height: number } | null;
  };
  __frameOf?: (draw: () => void) => { total: number; js: number };
  document: { querySelector(s: string): { getContext(k: string): Gl | null } | null };
  performance: { now(): number };
}
interface Gl {
  readPixels(x: number, y: number, w: number, h: number, format: number, type: number, out: Uint8Array): void;
  RGBA: number;
  UNSIGNED_BYTE: number;
}
/** In the page: a frame timer that finishes each frame with a 1-pixel readPixels of the page's canvas. */
const installFrameTimer = (page: Page) =>
  page.evaluate(() => {
    const g = globalThis as unknown as G;
    const canvas = g.document.querySelector('canvas');
    // The context pixi made: asking for the same kind returns it (pixi prefers WebGL 2).
    const gl = canvas?.getContext('webgl2') ?? canvas?.getContext('webgl') ?? null;
    if (!gl) throw new Error('no WebGL canvas on the page');
    const px = new Uint8Array(4);
    g.__frameOf = (draw) => {
      const t0 = g.performance.now();
      draw();
      const t1 = g.performance.now();
      gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
      return { total: g.performance.now() - t0, js: t1 - t0 };
    };
  });

/** WARM frames, then FRAMES timed, in one synchronous loop (no snapshot's frame lands between them). */
const stepFrames = (page: Page) =>
  page.evaluate(
    ({ warm, frames, step }) => {
      const g = globalThis as unknown as G;
      const out = { total: [] as number[], js: [] as number[] };
      for (let i = 0; i < warm + frames; i++) {
        const f = g.__frameOf!(() => g.__kiosk!.step(step));
        if (i < warm) continue;
        out.total.push(f.total);
        out.js.push(f.js);
      }
      return out;
    },
    { warm: WARM, frames: FRAMES, step: STEP_MS },
  );

/** tsx keeps function names with an `__name` helper that does not exist in the page (a string, so nothing of it is transformed). */
const NAME_HELPER = 'globalThis.__name = (f) => f';

async function bare(browser: Browser): Promise<Frames> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  await page.setContent('<!doctype html><html><body style="margin:0;overflow:hidden"></body></html>');
  await page.evaluate(NAME_HELPER);
  await page.addScriptTag({ content: await barePixiScript() });
  await page.evaluate(mountBareScene, { ...VIEWPORT, cards: 6, autoStart: false });
  await installFrameTimer(page);
  const frames = await page.evaluate(
    ({ warm, frames }) => {
      const g = globalThis as unknown as G & { __bareStep: () => void };
      const out = { total: [] as number[], js: [] as number[] };
      for (let i = 0; i < warm + frames; i++) {
        const f = g.__frameOf!(g.__bareStep);
        if (i < warm) continue;
        out.total.push(f.total);
        out.js.push(f.js);
      }
      return out;
    },
    { warm: WARM, frames: FRAMES },
  );
  await context.close();
  return frames;
}

type Host = Awaited<ReturnType<typeof startHost>> & { dataDir: string };
async function host(rendererDir: string): Promise<Host> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-screen-frame-'));
  await new AccountStore(dataDir).add({ name: STAFF.name, role: 'supervisor', pin: STAFF.pin, staff: STAFF.staff }, null);
  const h = await startHost({
    dataDir,
    rendererDir,
    port: 0,
    config: simulatedTableConfig('baccarat'),
    logger: pino({ level: 'silent' }),
    simulatedDealer: { dealMs: 200 },
    seed: 3,
  });
  // Station 1 with credit and bets each betting window, so its spots hold chips; the others play too.
  for (const s of [1, 2, 3]) for (let i = 0; i < 10; i++) h.devices.billAcceptors.simulator(s)?.insertNote(1000);
  let betRound = '';
  h.table.onChange(() => {
    const v = h.table.reads.view();
    if (v.phase !== 'betting' || v.roundId === betRound || !h.table.reads.station(1).betting.open) return;
    betRound = v.roundId;
    h.table.commands.placeBet(1, { bet: 'banker' }, 1_000);
    h.table.commands.placeBet(2, { bet: 'player' }, 1_000);
  });
  return { ...h, dataDir };
}

const press = async (page: Page, id: string) => {
  const b = await page.evaluate((i) => (globalThis as unknown as G).__kiosk?.bounds(i) ?? null, id);
  if (!b) throw new Error(`no button ${id}`);
  await page.mouse.click(b.x + b.width / 2, b.y + b.height / 2);
  await new Promise((r) => setTimeout(r, 150));
};
const boxes = (page: Page) => page.evaluate(() => (globalThis as unknown as G).__kiosk?.boxes().length ?? 0);

/** Signed in on the service page, every page opened; the page with the most boxes stays open. */
async function busiestServicePage(page: Page): Promise<string> {
  for (const part of [STAFF.staff, STAFF.pin]) {
    for (const k of part) await press(page, `signin-${k}`);
    await press(page, 'signin-ok');
  }
  await page.waitForFunction(() => (globalThis as unknown as G).__kiosk?.bounds('sign-out') != null, null, { timeout: 60_000, polling: 250 });
  let best = { name: '', boxes: -1 };
  const counts: string[] = [];
  for (const name of SERVICE_PAGES) {
    await press(page, `page-${name}`);
    await new Promise((r) => setTimeout(r, 1000));
    const n = await boxes(page);
    counts.push(`${name} ${n}`);
    if (n > best.boxes) best = { name, boxes: n };
  }
  await press(page, `page-${best.name}`);
  await new Promise((r) => setTimeout(r, 1000));
  console.log(`  service pages by things on the stage: ${counts.join(', ')}; measured: ${best.name}`);
  return best.name;
}

async function measure(browser: Browser, h: Host, view: string, trace: boolean): Promise<{ frames: Frames; note: string }> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  await page.addInitScript(NAME_HELPER);
  const url = h.screens.urls.find((s) => s.view === view)!.url;
  await page.goto(`${url}&clock=stepped`, { timeout: 120_000 });
  await page.waitForFunction((v) => (globalThis as unknown as G).__kiosk?.events.includes(`snapshot:${v}`) ?? false, view, { timeout: 120_000, polling: 250 });
  let note = '';
  if (view === 'service') note = await busiestServicePage(page);
  // The station while its seat can bet (spots, chips, the bar): the state the bench's station frames are drawn in.
  if (view.startsWith('station/')) {
    const station = Number(view.split('/')[1]);
    while (!h.table.reads.station(station).betting.open) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300));
    note = 'betting';
  }
  await installFrameTimer(page);
  if (trace)
    await browser.startTracing(page, {
      categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink', 'cc', 'gpu', 'viz', 'toplevel', 'webgl'],
    });
  const frames = await stepFrames(page);
  if (trace) {
    const buffer = await browser.stopTracing();
    console.log(`  trace of ${view}'s ${FRAMES + WARM} frames: self time per frame, by process / thread / event:`);
    for (const t of selfTimes(buffer.toString('utf8')).slice(0, 12))
      console.log(
        `    ${(t.ms / (FRAMES + WARM)).toFixed(2).padStart(8)} ms  ${t.process} / ${t.thread} / ${t.name} (×${(t.count / (FRAMES + WARM)).toFixed(1)})`,
      );
  }
  await context.close();
  return { frames, note };
}

const hosts: Host[] = [];
for (const dir of RENDERERS) hosts.push(await host(dir));
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', ...jsFlagsArgs(pageJsFlags(process.env.BENCH_JS_FLAGS))],
});
console.log(
  `screen frame probe: ${VIEWPORT.width}×${VIEWPORT.height}, Chromium ${browser.version()} with SwiftShader, ${os.cpus().length} cores, ${FRAMES} frames each after ${WARM}, each finished by a 1-pixel readPixels`,
);
console.log(`  started ${new Date().toISOString()}, load average ${load()}`);
let traced = process.env.PROBE_TRACE !== '1';
for (let round = 1; round <= ROUNDS; round++) {
  const before = await bare(browser);
  console.log(`  round ${round}: bare pixi scene ${fmt(before)}`);
  const rows: { label: string; frames: Frames }[] = [];
  for (const view of VIEWS)
    for (let i = 0; i < hosts.length; i++) {
      const { frames, note } = await measure(browser, hosts[i]!, view, !traced);
      traced = true;
      const label = `${view}${note && note !== 'betting' ? ` (${note})` : ''}${hosts.length > 1 ? ` [${path.basename(RENDERERS[i]!)}]` : ''}`;
      rows.push({ label, frames });
      console.log(`  round ${round}: ${label.padEnd(28)} ${fmt(frames)}`);
    }
  const after = await bare(browser);
  const bareP50 = (pct(before.total, 50) + pct(after.total, 50)) / 2;
  console.log(`  round ${round}: bare pixi scene ${fmt(after)}; bare p50 of both ${bareP50.toFixed(1)} ms`);
  for (const r of rows) console.log(`  round ${round}: ratio ${r.label.padEnd(28)} ${(pct(r.frames.total, 50) / bareP50).toFixed(2)}×`);
  console.log(`  load average ${load()}`);
}
await browser.close();
for (const h of hosts) {
  await h.close();
  rmSync(h.dataDir, { recursive: true, force: true });
}
