// Screen protocol round trip over a real WebSocket on loopback: a command from a station to the
// host, until its ack (the new snapshot arrives just before the ack). Prints p50/p99/max, beside a
// bare `ws` server answering each message of the same size with two messages of the snapshot's
// and the ack's sizes, measured in the same run.
import { PROTOCOL_VERSION } from '../protocol/index.js';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import WebSocket, { WebSocketServer } from 'ws';
import { startHost } from '../host/start-host.js';
import { figure, QUICK, times } from './report.js';

const ROUNDS = QUICK ? 200 : 2000;
const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-protocol-'));
// The bench's client sends its commands back to back, far faster than a hand taps: the rate limit
// is raised out of its way (the bucket is still checked on every message, so its cost is measured).
const running = await startHost({
  dataDir: dir,
  rendererDir: path.join(dir, 'none'),
  logger: pino({ level: 'silent' }),
  incoming: { burst: 1_000_000, perSecond: 1_000_000, dropAfter: 1, refused: { burst: 1_000_000, perSecond: 1_000_000 } },
});
const screen = running.screens.urls.find((s) => s.view === 'station/1')!;
const ws = new WebSocket(`${running.origin.replace('http', 'ws')}/ws`);
await new Promise((r) => ws.once('open', r));

let version = 0;
let pending: ((m: { type: string; version?: number }) => void) | null = null;
const sizes = { command: 0, snapshot: 0, ack: 0 };
ws.on('message', (d: Buffer) => {
  const m = JSON.parse(d.toString()) as { type: string; version?: number };
  if (m.type === 'snapshot') sizes.snapshot = Math.max(sizes.snapshot, d.length);
  if (m.type === 'ack') sizes.ack = Math.max(sizes.ack, d.length);
  if (m.type === 'snapshot' && m.version !== undefined) version = m.version;
  if (m.type !== 'snapshot' && pending) pending(m);
});
const reply = () => new Promise<{ type: string; version?: number }>((r) => (pending = r));

ws.send(JSON.stringify({ type: 'hello', id: 'h', protocol: PROTOCOL_VERSION, token: screen.token }));
await reply();
ws.send(JSON.stringify({ type: 'subscribe', id: 's', view: 'station/1' }));
while (version === 0) await new Promise((r) => setTimeout(r, 1));

const samples: number[] = [];
// The station's view also moves on its own (the table's countdowns); a command sent against the
// version just before such a change is refused as stale, as the protocol says. On a loaded machine
// that happens now and then: the command is sent again against the current version, and the
// refused round trip is not a sample.
let stale = 0;
for (let i = 0; i < ROUNDS; i++) {
  const language = (['pt', 'en', 'zh-Hant'] as const)[i % 3];
  const t0 = performance.now();
  const command = JSON.stringify({ type: 'command', id: `c${i}`, view: 'station/1', version, command: { name: 'set-language', language } });
  sizes.command = Math.max(sizes.command, command.length);
  ws.send(command);
  const m = await reply();
  if (m.type === 'error' && (m as { code?: string }).code === 'stale-version' && stale < ROUNDS / 10) {
    stale++;
    version = Math.max(version, (m as { currentVersion?: number }).currentVersion ?? version);
    i--;
    continue;
  }
  samples.push(performance.now() - t0);
  if (m.type !== 'ack') throw new Error(`expected ack, got ${JSON.stringify(m)}`);
}
if (stale) console.log(`(${stale} commands refused as stale because the view moved on its own, sent again; not counted)`);
ws.close();
await running.close();
rmSync(dir, { recursive: true, force: true });

/** The baseline: a bare `ws` server that answers each message with two (the snapshot's and the ack's sizes); the time until the second arrives. */
async function bareRoundTrips(): Promise<number[]> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((r) => server.once('listening', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const snapshot = JSON.stringify({ type: 'snapshot', pad: 'x'.repeat(Math.max(0, sizes.snapshot - 30)) });
  const ack = JSON.stringify({ type: 'ack', pad: 'x'.repeat(Math.max(0, sizes.ack - 25)) });
  server.on('connection', (c) =>
    c.on('message', (d: Buffer) => {
      // Parsed as the host parses a command, so the baseline reads what it is sent.
      JSON.parse(d.toString());
      c.send(snapshot);
      c.send(ack);
    }),
  );
  const client = new WebSocket(`ws://127.0.0.1:${port}`);
  await new Promise((r) => client.once('open', r));
  let got = 0;
  let done: (() => void) | null = null;
  client.on('message', (d: Buffer) => {
    JSON.parse(d.toString());
    if (++got === 2) done?.();
  });
  const command = JSON.stringify({ type: 'command', pad: 'x'.repeat(Math.max(0, sizes.command - 30)) });
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    got = 0;
    const arrived = new Promise<void>((r) => (done = r));
    const t0 = performance.now();
    client.send(command);
    await arrived;
    times.push(performance.now() - t0);
  }
  client.close();
  await new Promise((r) => server.close(r));
  return times.sort((a, b) => a - b);
}

samples.sort((a, b) => a - b);
const bare = await bareRoundTrips();
const q = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
console.log(
  `screen protocol command→ack over WebSocket, ${ROUNDS} commands: p50 ${q(samples, 0.5).toFixed(3)} ms, p99 ${q(samples, 0.99).toFixed(3)} ms, max ${q(samples, 1).toFixed(3)} ms`,
);
console.log(
  `bare ws request → 2 replies (${sizes.command}, ${sizes.snapshot} and ${sizes.ack} bytes), ${ROUNDS} round trips: p50 ${q(bare, 0.5).toFixed(3)} ms, p99 ${q(bare, 0.99).toFixed(3)} ms, max ${q(bare, 1).toFixed(3)} ms`,
);
for (const [label, p] of [
  ['p50', 0.5],
  ['p99', 0.99],
] as const) {
  const r = figure({
    name: `screen protocol command → ack over WebSocket, ${label}`,
    unit: 'ms',
    value: q(samples, p),
    better: 'lower',
    baseline: { name: `bare ws request → snapshot-sized and ack-sized replies, ${label}`, value: q(bare, p) },
  });
  console.log(`ratio, host / bare, ${label}: ${times(r)}`);
}
