// The flood bench's attacker, in a process of its own so its sending costs the host nothing:
// one station's screen sends `total` bet messages over `seconds`, in batches every 10 ms, and
// reconnects (hello, subscribe) whenever the host drops it. Each bet names the station view's
// latest version the flooder has seen, so it reaches the table's own checks (a stale one would be
// refused before them). Prints one JSON line when done.
//   flooder.ts URL ORIGIN TOKEN VIEW TOTAL SECONDS
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import { PROTOCOL_VERSION } from '../../protocol/index.js';

const [url, origin, token, view, totalArg, secondsArg] = process.argv.slice(2) as [string, string, string, string, string, string];
const total = Number(totalArg);
const seconds = Number(secondsArg);
let sent = 0;
let connections = 0;
let dropped = 0;
let told = 0;
let version = 0;

async function open(): Promise<WebSocket> {
  const ws = new WebSocket(url, { origin });
  await new Promise((r, j) => {
    ws.once('open', r);
    ws.once('error', j);
  });
  connections++;
  ws.on('message', (d: Buffer) => {
    if (d.includes('"rate-limited"')) told++;
    else if (d.includes('"type":"snapshot"')) version = (JSON.parse(d.toString()) as { version: number }).version;
  });
  ws.on('close', (code) => {
    if (code === 1008) dropped++;
  });
  ws.send(JSON.stringify({ type: 'hello', id: 'h', protocol: PROTOCOL_VERSION, token }));
  ws.send(JSON.stringify({ type: 'subscribe', id: 's', view }));
  return ws;
}

const batches = seconds * 100;
const perBatch = Math.ceil(total / batches);
const t0 = performance.now();
let ws = await open();
for (let b = 0; b < batches && sent < total; b++) {
  if (ws.readyState !== WebSocket.OPEN) ws = await open();
  for (let i = 0; i < perBatch && sent < total; i++, sent++)
    ws.send(JSON.stringify({ type: 'command', id: `b${sent}`, view, version, command: { name: 'place-bet', spot: { bet: 'main' }, amount: 10_000 } }));
  const next = t0 + (b + 1) * 10;
  await sleep(Math.max(0, next - performance.now()));
}
ws.close();
console.log(JSON.stringify({ sent, seconds: (performance.now() - t0) / 1000, connections, dropped, told }));
