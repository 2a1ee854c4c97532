// Screen protocol round trip over a real WebSocket on loopback: a command from a station to the
// host, until its ack (the new snapshot arrives just before the ack). Prints p50/p99/max.
import { PROTOCOL_VERSION } from '../protocol/index.js';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import WebSocket from 'ws';
import { startHost } from '../host/start-host.js';

const ROUNDS = 2000;
const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-protocol-'));
const running = await startHost({ dataDir: dir, rendererDir: path.join(dir, 'none'), logger: pino({ level: 'silent' }) });
const screen = running.screens.find((s) => s.view === 'station/1')!;
const ws = new WebSocket(`${running.origin.replace('http', 'ws')}/ws`);
await new Promise((r) => ws.once('open', r));

let version = 0;
let pending: ((m: { type: string; version?: number }) => void) | null = null;
ws.on('message', (d) => {
  const m = JSON.parse(d.toString()) as { type: string; version?: number };
  if (m.type === 'snapshot' && m.version !== undefined) version = m.version;
  if (m.type !== 'snapshot' && pending) pending(m);
});
const reply = () => new Promise<{ type: string; version?: number }>((r) => (pending = r));

ws.send(JSON.stringify({ type: 'hello', id: 'h', protocol: PROTOCOL_VERSION, token: screen.token }));
await reply();
ws.send(JSON.stringify({ type: 'subscribe', id: 's', view: 'station/1' }));
while (version === 0) await new Promise((r) => setTimeout(r, 1));

const samples: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  const language = (['pt', 'en', 'zh-Hant'] as const)[i % 3];
  const t0 = performance.now();
  ws.send(JSON.stringify({ type: 'command', id: `c${i}`, view: 'station/1', version, command: { name: 'set-language', language } }));
  const m = await reply();
  samples.push(performance.now() - t0);
  if (m.type !== 'ack') throw new Error(`expected ack, got ${JSON.stringify(m)}`);
}
samples.sort((a, b) => a - b);
const q = (p: number) => samples[Math.min(samples.length - 1, Math.floor(p * samples.length))]!.toFixed(3);
console.log(`screen protocol command→ack over WebSocket, ${ROUNDS} commands: p50 ${q(0.5)} ms, p99 ${q(0.99)} ms, max ${q(1)} ms`);
ws.close();
await running.close();
rmSync(dir, { recursive: true, force: true });
