// The stadium bench's table host, in a process of its own (its CPU time and memory are the
// figures): a baccarat table with N remote stations, a simulated shoe and dealer. It stamps each
// card read (process.hrtime, the machine's monotonic clock, which the client processes share)
// with the public round version it produced, and runs the bare ws broadcast of the same run.
import { writeFileSync } from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import pino from 'pino';
import { WebSocketServer } from 'ws';
import type { Card } from '../../engine/cards/card.js';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { startHost } from '../../host/start-host.js';
import { REMOTE_STATION_BASE, stationView } from '../../protocol/index.js';
import type { FromHost, ToHost } from './messages.js';

const send = (m: FromHost) => process.send?.(m);
const arg = JSON.parse(process.env.STADIUM_HOST ?? '{}') as { stations: number; dir: string; seed: number; sendBuffer?: number };

const config = TableConfig.parse({ ...simulatedTableConfig('baccarat'), remoteStations: arg.stations });
const running = await startHost({
  dataDir: path.join(arg.dir, 'host'),
  rendererDir: path.join(arg.dir, 'no-renderer'),
  config,
  logger: pino({ level: 'silent' }),
  seed: arg.seed,
  simulatedDealer: { dealMs: 150 },
  timings: { bettingMs: 5000, decisionMs: 1000, resultsMs: 1000 },
  ...(arg.sendBuffer !== undefined ? { sendBuffer: arg.sendBuffer } : {}),
});
const enrolments = Array.from({ length: arg.stations }, (_, i) => running.stadium.enrol(REMOTE_STATION_BASE + 1 + i, ['Bench A', 'Bench B']));
const file = path.join(arg.dir, 'enrolments.json');
writeFileSync(file, JSON.stringify(enrolments));

// Each card the shoe reads: stamped as it reaches the table, with the public round it produced;
// on the host's side, when its journal commit was done (the first commit of the card's input) and
// when its sends were: a probe subscribed after every station is handed the public round last.
const cards: FromHostCard[] = [];
type FromHostCard = Extract<FromHost, { type: 'measured' }>['cards'][number];
const sizes: number[] = [];
let measuring = false;
const table = running.table;
const onCard = table.onCard.bind(table);
let reading: { commits: number; committed?: bigint; built?: bigint; sent?: bigint } | null = null;
// When the public round the card made was built (projected and encoded), just before its sends.
const publicPart = running.hub.publicPart.bind(running.hub);
running.hub.publicPart = (part) => {
  const built = publicPart(part);
  if (part === 'round' && reading?.committed !== undefined) reading.built ??= process.hrtime.bigint();
  return built;
};
const appendMany = running.ledger.appendMany.bind(running.ledger);
running.ledger.appendMany = (entries) => {
  const r = appendMany(entries);
  if (reading && ++reading.commits === 1) reading.committed = process.hrtime.bigint();
  return r;
};
table.onCard = (card: Card, sequence?: number) => {
  const t0 = process.hrtime.bigint();
  reading = { commits: 0 };
  try {
    onCard(card, sequence);
  } finally {
    const at = reading;
    reading = null;
    const end = process.hrtime.bigint();
    if (measuring && table.state.round !== null) {
      const part = running.hub.publicPart('round');
      cards.push({
        version: part.version,
        t0: String(t0),
        committed: String(at.committed ?? end),
        built: String(at.built ?? end),
        sent: String(at.sent ?? end),
      });
      sizes.push(part.message.size);
    }
  }
};

const settled = () => running.ledger.recall({ tableId: config.tableId, limit: 500 }).filter((r) => r.status === 'settled').length;

let bare: WebSocketServer | null = null;
let bareServer: https.Server | null = null;

process.on('message', (m: ToHost) => {
  void handle(m);
});

async function handle(m: ToHost): Promise<void> {
  if (m.type === 'measure') {
    // From the next betting window: the rounds' CPU time, memory and bytes, and every card read.
    while (table.state.phase !== 'betting') await new Promise((r) => setTimeout(r, 20));
    // Subscribed after every station's screen: the hub hands it each public part after theirs.
    running.hub.subscribe(stationView(REMOTE_STATION_BASE + 1), 'bench-probe', {
      deliver: (slot) => {
        if (slot === 'public:round' && reading) reading.sent ??= process.hrtime.bigint();
      },
    });
    const startRounds = settled();
    const cpu0 = process.cpuUsage();
    const sent0 = running.sent();
    measuring = true;
    let rss = 0;
    const sampler = setInterval(() => (rss = Math.max(rss, process.memoryUsage().rss)), 200);
    while (settled() < startRounds + m.rounds) await new Promise((r) => setTimeout(r, 50));
    measuring = false;
    clearInterval(sampler);
    const cpu = process.cpuUsage(cpu0);
    const sent1 = running.sent();
    send({
      type: 'measured',
      rounds: m.rounds,
      cpuMs: (cpu.user + cpu.system) / 1000,
      rssBytes: rss,
      bytesSent: sent1.bytes - sent0.bytes,
      messagesSent: sent1.messages - sent0.messages,
      superseded: sent1.superseded - sent0.superseded,
      roundMessageBytes: Math.round(sizes.splice(0).reduce((a, b) => a + b, 0) / Math.max(1, cards.length)),
      cards: cards.splice(0),
    });
  } else if (m.type === 'bare-listen') {
    // The baseline: a plain ws server over the same TLS, broadcasting a message of the same size.
    const cert = running.stadium.certificate;
    if (!cert) throw new Error('no certificate');
    bareServer = https.createServer({ key: cert.key, cert: cert.cert });
    bare = new WebSocketServer({ server: bareServer, perMessageDeflate: false });
    await new Promise<void>((r) => bareServer?.listen(0, '127.0.0.1', r));
    const address = bareServer.address();
    send({ type: 'bare-ready', port: typeof address === 'object' && address ? address.port : 0 });
  } else if (m.type === 'bare-broadcast') {
    const times: { seq: number; t0: string; sent: string }[] = [];
    for (let seq = 1; seq <= m.count; seq++) {
      const head = `{"seq":${seq},"pad":"`;
      const text = head + 'x'.repeat(Math.max(0, m.bytes - head.length - 2)) + '"}';
      const bytes = Buffer.from(text);
      const t0 = process.hrtime.bigint();
      for (const c of bare?.clients ?? []) c.send(bytes, { binary: false });
      times.push({ seq, t0: String(t0), sent: String(process.hrtime.bigint()) });
      await new Promise((r) => setTimeout(r, m.gapMs));
    }
    send({ type: 'bare-done', times, clients: bare?.clients.size ?? 0 });
  } else if (m.type === 'stop') {
    for (const c of bare?.clients ?? []) c.terminate();
    bare?.close();
    bareServer?.close();
    await running.close();
    process.exit(0);
  }
}

send({ type: 'ready', file, lanOrigin: running.stadium.lanOrigin ?? '' });
