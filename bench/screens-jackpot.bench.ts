// The progressive jackpot on the table display (Portugal rules 38–50; rule 41 a's display): how
// soon after the host's pools change the table display draws them, in Chromium (software WebGL on
// these machines). A Portugal blackjack host with the example program runs in this process with
// the simulated dealer; three stations bet a main bet and the jackpot chip every round, so every
// close of betting raises the pools (and a hit lowers one). For each change: the host's moment
// (its table's state changed), the moment the page drew the new pools (`?trace=1`:
// renderer/src/trace.ts), and the first animation frame after it; "within one frame" is that no
// animation frame passed between the page receiving the pools and drawing them.
//
// Baseline, in the same run: a bare pixi scene of the same size (1920×1080, WebGL, antialias, one
// text changed every frame), its frame time, in a browser of its own closed before the table's
// opens. Builds the renderer first (bench/build-pages.ts).
import { jsFlagsArgs, pageJsFlags } from './page-flags.js';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import pino from 'pino';
import { EXAMPLE_JACKPOT_PROGRAM } from '../engine/blackjack/jackpot/program.js';
import { simulatedTableConfig } from '../host/config/table-config.js';
import { startHost } from '../host/start-host.js';
import { figure, QUICK, times } from './report.js';
import { barePixiScript, type BareApplication } from './bare-pixi.js';
import { buildPages } from './build-pages.js';

buildPages('renderer');

const CHANGES = Number(process.env.BENCH_JACKPOT_CHANGES ?? (QUICK ? 3 : 12));
const BARE_SECONDS = Number(process.env.BENCH_BARE_SECONDS ?? (QUICK ? 3 : 8));
const root = path.resolve(import.meta.dirname, '..');

interface PageGlobals {
  __kiosk?: { events: string[]; jackpotTrace?: { pools: string; t: number }[] };
  __frames?: { at: Float64Array; n: number; on: boolean };
  performance: { timeOrigin: number };
  requestAnimationFrame(cb: (t: number) => void): number;
  document: { body: { appendChild(node: unknown): void } };
  PIXI?: {
    Application: BareApplication;
    Graphics: new () => { rect(x: number, y: number, w: number, h: number): { fill(c: number): unknown } };
    Text: new (o: { text: string; style: Record<string, unknown> }) => { text: string; x: number; y: number };
  };
}

const pct = (values: number[], p: number): number => {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const launch = () =>
  chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', ...jsFlagsArgs(pageJsFlags(process.env.BENCH_JS_FLAGS))],
  });
const VIEWPORT = { width: 1920, height: 1080 };

/** The baseline: a bare pixi scene whose one text changes every frame; its frame times. */
async function bareScene(): Promise<number[]> {
  const own = await launch();
  const page = await own.newPage({ viewport: VIEWPORT });
  await page.setContent('<!doctype html><html><body style="margin:0;overflow:hidden"></body></html>');
  await page.evaluate('globalThis.__name = (f) => f');
  await page.addScriptTag({ content: await barePixiScript() });
  const frames = await page.evaluate(async (seconds) => {
    const g = globalThis as unknown as PageGlobals;
    const PIXI = g.PIXI!;
    const app = new PIXI.Application();
    await app.init({ preference: 'webgl', background: 0x05140e, width: 1920, height: 1080, antialias: true, resolution: 1 });
    g.document.body.appendChild(app.canvas);
    app.stage.addChild(new PIXI.Graphics().rect(40, 40, 1840, 1000).fill(0x0b4d33));
    const text = new PIXI.Text({ text: '', style: { fontSize: 34, fill: '#f4ecd8' } });
    text.x = 40;
    text.y = 120;
    app.stage.addChild(text);
    let n = 0;
    app.ticker.add(() => {
      n++;
      text.text = `MAIN  MOP$${(10_000 + n / 100).toFixed(2)}`;
    });
    const at: number[] = [];
    return new Promise<number[]>((resolve) => {
      let warm = 5;
      let start = -1;
      const loop = (t: number) => {
        if (warm-- > 0) return void g.requestAnimationFrame(loop);
        if (start < 0) start = t;
        at.push(t);
        if (t - start < seconds * 1000 || (at.length < 6 && t - start < 60_000)) g.requestAnimationFrame(loop);
        else resolve(at);
      };
      g.requestAnimationFrame(loop);
    });
  }, BARE_SECONDS);
  await own.close();
  return frames.slice(1).map((t, i) => t - frames[i]!);
}

const bareFrames = await bareScene();

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-jackpot-'));
const pt = simulatedTableConfig('blackjack', 'portugal-2001', EXAMPLE_JACKPOT_PROGRAM.reference);
const host = await startHost({
  dataDir,
  rendererDir: path.join(root, 'dist/renderer'),
  port: 0,
  config: {
    ...pt,
    profileOptions: { jackpot: true, jackpotProgram: EXAMPLE_JACKPOT_PROGRAM },
    timings: { bettingMs: 1500, decisionMs: 1000, resultsMs: 1000 },
  },
  logger: pino({ level: 'silent' }),
  simulatedDealer: { dealMs: 200 },
  seed: 5,
});
const url = host.screens.urls.find((s) => s.view === 'table')!.url;

// The host's changes of the pools, with when (wall clock: the page runs on this machine).
const changes: { pools: string; t: number }[] = [];
let last = '';
let betRound = '';
for (const station of [1, 2, 3]) for (let i = 0; i < 20; i++) host.devices.billAcceptors.simulator(station)?.insertNote(1000);
host.table.onChange(() => {
  const p = host.table.reads.progressive();
  const pools = p ? p.levels.map((l) => `${l.level}:${l.pool}`).join(',') : '';
  if (pools !== last) {
    last = pools;
    changes.push({ pools, t: Date.now() });
  }
  const v = host.table.reads.view();
  if (v.phase === 'betting' && v.roundId !== betRound && host.table.reads.station(1).betting.open) {
    betRound = v.roundId;
    for (const s of [1, 2, 3]) {
      host.table.commands.placeBet(s, { bet: 'main' }, 10_000);
      host.table.commands.placeBet(s, { bet: 'jackpot' }, EXAMPLE_JACKPOT_PROGRAM.stake);
    }
  }
});

const browser = await launch();
const table: Page = await browser.newPage({ viewport: VIEWPORT });
await table.addInitScript(() => {
  (globalThis as unknown as { __name: (f: unknown) => unknown }).__name = (f) => f;
});
await table.goto(`${url}&trace=1`, { timeout: 120_000 });
await table.waitForFunction(() => (globalThis as unknown as PageGlobals).__kiosk?.events.includes('snapshot:table') ?? false, null, { timeout: 120_000 });
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
const from = changes.length;
const deadline = Date.now() + 10 * 60_000;
while (changes.length - from < CHANGES && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
await new Promise((r) => setTimeout(r, 2000));
const page = await table.evaluate(() => {
  const g = globalThis as unknown as PageGlobals;
  const origin = g.performance.timeOrigin;
  const f = g.__frames!;
  f.on = false;
  return {
    frames: Array.from(f.at.subarray(0, f.n), (t) => origin + t),
    drawn: (g.__kiosk?.jackpotTrace ?? []).map((d) => ({ pools: d.pools, t: origin + d.t })),
  };
});
await browser.close();
await host.close();
rmSync(dataDir, { recursive: true, force: true });

// Each host change paired with the page's drawing of the same pools, then the first frame after.
const toDrawn: number[] = [];
const toFrame: number[] = [];
let paired = 0;
for (const c of changes.slice(from)) {
  const d = page.drawn.find((x) => x.pools === c.pools && x.t >= c.t - 50);
  if (!d) continue;
  paired++;
  toDrawn.push(d.t - c.t);
  const next = page.frames.find((t) => t >= d.t);
  if (next !== undefined) toFrame.push(next - c.t);
}
const frameTimes = page.frames.slice(1).map((t, i) => t - page.frames[i]!);
// Within one frame: shown no later than one of the page's own frame periods after the host's change.
const period = pct(frameTimes, 50);
const withinOne = toFrame.filter((x) => x <= period).length;
console.log(`screens, the jackpot display, Chromium with SwiftShader, ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)}`);
console.log(`  pool changes: ${changes.length - from} on the host, ${paired} paired with the page's drawing`);
console.log(`  host change → pools drawn      p50 ${pct(toDrawn, 50).toFixed(1)} ms   p99 ${pct(toDrawn, 99).toFixed(1)} ms`);
console.log(`  host change → frame showing it p50 ${pct(toFrame, 50).toFixed(1)} ms   p99 ${pct(toFrame, 99).toFixed(1)} ms`);
console.log(`  shown within one frame period (${period.toFixed(1)} ms) of the host's change: ${withinOne} of ${toFrame.length}`);
console.log(`  table page frame time p50 ${pct(frameTimes, 50).toFixed(1)} ms (${frameTimes.length} intervals)`);
console.log(`  baseline, a bare pixi scene changing one text every frame, frame p50 ${pct(bareFrames, 50).toFixed(1)} ms (${bareFrames.length} intervals)`);
if (toFrame.length > 0 && bareFrames.length > 1) {
  const r = figure({
    name: 'jackpot pools: host change → frame showing them, p50',
    unit: 'ms',
    value: pct(toFrame, 50),
    better: 'lower',
    baseline: { name: 'bare pixi scene changing one text every frame, frame time p50', value: pct(bareFrames, 50) },
  });
  console.log(`  ratio to the bare scene's frame: ${times(r)}`);
}
