// One station floods the table host: its screen's WebSocket sends 100,000 bet messages in 10 s
// (10,000 in 2 s under --quick) from a process of its own, reconnecting whenever it is dropped,
// while the table deals. Measured during the flood, beside the same measures on an idle table
// (no flooder) in the same run, and their ratio (issue 20's target: within 2×):
// - `/healthz` latency, p99, polled every 20 ms;
// - card read → all 8 screens (table + 7 stations) have the new state, p99.
// The host logs as it does in production (host/logger.ts: synchronous, to its data dir's
// `logs/`), so the cost of logging the refusals is part of what is measured; the log's size
// after each run is printed.
// Prints figures only; nothing here asserts a timing.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import { simulatedTableConfig } from '../host/config/table-config.js';
import { createLogger } from '../host/logger.js';
import { startHost, type RunningHost } from '../host/start-host.js';
import { PROTOCOL_VERSION, type ViewName } from '../protocol/index.js';
import { figure, QUICK, times } from './report.js';

const MESSAGES = QUICK ? 10_000 : 100_000;
const SECONDS = QUICK ? 2 : 10;
const dir = path.dirname(fileURLToPath(import.meta.url));
const q = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN;
};
const ms = (x: number) => x.toFixed(2);

async function screen(url: string, origin: string, token: string, view: ViewName, arrived: (view: ViewName) => void): Promise<WebSocket> {
  const ws = new WebSocket(url, { origin });
  await new Promise((r, j) => {
    ws.once('open', r);
    ws.once('error', j);
  });
  ws.on('message', (d: Buffer) => {
    if (d.includes('"snapshot"') || d.includes('"public"')) arrived(view);
  });
  ws.send(JSON.stringify({ type: 'hello', id: 'h', protocol: PROTOCOL_VERSION, token }));
  ws.send(JSON.stringify({ type: 'subscribe', id: 's', view }));
  return ws;
}

function healthz(origin: string): Promise<number> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(`${origin}/healthz`, (res) => {
        res.resume();
        res.on('end', () => resolve(performance.now() - t0));
      })
      .on('error', reject);
  });
}

interface Flooded {
  sent: number;
  seconds: number;
  connections: number;
  dropped: number;
  told: number;
}

/** Runs the table for `SECONDS`, with or without the flooder: `/healthz` and card → screens latencies. */
async function measure(flood: boolean): Promise<{ health: number[]; cards: number[]; flooded: Flooded | null; log: { lines: number; bytes: number } }> {
  const data = mkdtempSync(path.join(os.tmpdir(), 'bench-flood-'));
  const logDir = path.join(data, 'bench-logs');
  mkdirSync(logDir);
  const config = simulatedTableConfig('blackjack');
  const running: RunningHost = await startHost({
    dataDir: data,
    rendererDir: path.join(data, 'none'),
    logger: createLogger(logDir, { console: null }),
    config,
    seed: 7,
    autoplay: true,
    timings: { bettingMs: 60, decisionMs: 200, resultsMs: 5 },
    simulatedDealer: false,
  });
  const url = `${running.origin.replace('http', 'ws')}/ws`;
  const tokenOf = (view: ViewName) => running.screens.urls.find((s) => s.view === view)?.token ?? '';
  const views: ViewName[] = ['table', ...config.stations.map((s) => `station/${s.station}` as const)];
  const lastAt = new Map<ViewName, number>();
  const sockets = await Promise.all(views.map((view) => screen(url, running.origin, tokenOf(view), view, (v) => lastAt.set(v, performance.now()))));
  await sleep(200);

  // The flooder: station 1's own launch token, a second connection beside its real screen.
  let flooded: Promise<Flooded> | null = null;
  if (flood) {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(dir, 'flood', 'flooder.ts'), url, running.origin, tokenOf('station/1'), 'station/1', String(MESSAGES), String(SECONDS)],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    flooded = new Promise((resolve, reject) =>
      child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as Flooded) : reject(new Error(`flooder exited ${code}`)))),
    );
    // Its process starts (tsx) before the window opens.
    await sleep(1500);
  }

  const until = performance.now() + SECONDS * 1000;
  const health: number[] = [];
  const polling = (async () => {
    while (performance.now() < until) {
      health.push(await healthz(running.origin));
      await sleep(20);
    }
  })();

  let handed = 0;
  const onCard = running.table.shoe.onCard.bind(running.table.shoe);
  running.table.shoe.onCard = (card, sequence) => {
    handed = performance.now();
    onCard(card, sequence);
  };
  const sim = running.devices.shoe.simulator();
  if (!sim) throw new Error('the bench needs the simulated shoe');
  const cards: number[] = [];
  while (performance.now() < until) {
    const cue = running.table.reads.cue();
    if (cue?.kind === 'shuffle') {
      sim.loadShoe();
      await sleep(20);
      continue;
    }
    if (cue?.kind !== 'card' || !running.devices.shoe.gateOpen()) {
      await sleep(1);
      continue;
    }
    const before = running.devices.shoe.cardsHandled;
    if (sim.drawCard() === null) {
      sim.loadShoe();
      await sleep(20);
      continue;
    }
    const t0 = performance.now();
    while ((running.devices.shoe.cardsHandled === before || views.some((v) => (lastAt.get(v) ?? 0) < handed)) && performance.now() - t0 < 5000)
      await new Promise((r) => setImmediate(r));
    if (views.some((v) => (lastAt.get(v) ?? 0) < handed)) continue;
    cards.push(Math.max(...views.map((v) => lastAt.get(v) ?? 0)) - handed);
  }
  await polling;
  const result = flooded ? await flooded : null;
  for (const ws of sockets) ws.close();
  await running.close();
  const log = { lines: 0, bytes: 0 };
  for (const f of readdirSync(logDir)) {
    const text = readFileSync(path.join(logDir, f), 'utf8');
    log.bytes += Buffer.byteLength(text);
    log.lines += text.split('\n').filter(Boolean).length;
  }
  rmSync(data, { recursive: true, force: true });
  return { health, cards, flooded: result, log };
}

const idle = await measure(false);
const flood = await measure(true);
const f = flood.flooded;
if (!f) throw new Error('the flooder reported nothing');
console.log(
  `flood: ${f.sent} bet messages in ${f.seconds.toFixed(1)} s from one station (${f.connections} connections, told ${f.told}×, dropped ${f.dropped}×); ` +
    `${flood.cards.length} card reads and ${flood.health.length} /healthz during it, ${idle.cards.length} and ${idle.health.length} idle; ` +
    `host log ${flood.log.lines} lines (${(flood.log.bytes / 1024).toFixed(0)} KiB) flooded, ${idle.log.lines} lines (${(idle.log.bytes / 1024).toFixed(0)} KiB) idle`,
);
for (const [what, during, base] of [
  ['/healthz latency p99', flood.health, idle.health],
  ['card read → 8 screens p99', flood.cards, idle.cards],
] as const) {
  const r = figure({
    name: `${what} while one station floods (${MESSAGES} messages in ${SECONDS} s)`,
    unit: 'ms',
    value: q(during, 0.99),
    better: 'lower',
    baseline: { name: `${what}, idle table, same run`, value: q(base, 0.99) },
    note: `p50 ${ms(q(during, 0.5))} ms flooded, ${ms(q(base, 0.5))} ms idle; target within 2×`,
  });
  console.log(`${what}: ${ms(r.value)} ms flooded vs ${ms(q(base, 0.99))} ms idle (p50 ${ms(q(during, 0.5))} vs ${ms(q(base, 0.5))}) = ${times(r)}`);
}
