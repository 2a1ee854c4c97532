// The stadium bench's table host, in a process of its own (its CPU time and memory are the
// figures): a baccarat table with N remote stations, a simulated shoe and dealer. It stamps each
// card read (process.hrtime, the machine's monotonic clock, which the client processes share)
// with the public round version it produced.
import { fork } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import type { Card } from '../../engine/cards/card.js';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { startHost } from '../../host/start-host.js';
import { REMOTE_STATION_BASE, stationView } from '../../protocol/index.js';
import { EdgeBridge } from '../../host/edges/edge-bridge.js';
import { startNatsServer } from '../../host/edges/nats-server.js';
import { natsCertificate, natsTls } from '../../host/edges/nats-tls.js';
import type { FromHost, ToHost } from './messages.js';
import type { FromEdge, ToEdge } from './edge-child.js';

const send = (m: FromHost) => void (process.connected && process.send?.(m));
const arg = JSON.parse(process.env.STADIUM_HOST ?? '{}') as {
  stations: number;
  dir: string;
  seed: number;
  timings: { bettingMs: number; decisionMs: number; resultsMs: number };
  dealMs: number;
  /** Edges (issue 55): this many edge processes on a NATS server of the bench's own; 0, the stations on the host's own listener. */
  edges?: number;
  /** NATS over TLS (its certificate pinned by the host and the edges), as a table's; false: in clear, to compare. */
  natsTls?: boolean;
};

// Every station connects from 127.0.0.1 here; on the floor each is a machine of its own, under the per-address cap.
const lanCaps = { perAddress: 2 * arg.stations + 64, total: 2 * arg.stations + 64 };
const config = TableConfig.parse({ ...simulatedTableConfig('baccarat'), remoteStations: arg.stations, connections: { lan: lanCaps } });
const dataDir = path.join(arg.dir, 'host');
// Each step of the start told to the bench as it is done (its stall watch: a loaded machine's start is slow, not still).
const started = (step: string) => send({ type: 'progress', cards: 0, rounds: 0, phase: `starting: ${step}` });
started('loaded');
const running = await startHost({
  dataDir,
  rendererDir: path.join(arg.dir, 'no-renderer'),
  config,
  logger: pino({ level: 'silent' }),
  seed: arg.seed,
  simulatedDealer: { dealMs: arg.dealMs },
  timings: arg.timings,
});
started('the table open');
// Each enrolment is journalled (a durable commit): 2,000 of them on a loaded machine are minutes,
// told to the bench a hundred at a time.
const enrolments: ReturnType<typeof running.stadium.enrol>[] = [];
for (let i = 0; i < arg.stations; i++) {
  enrolments.push(running.stadium.enrol(REMOTE_STATION_BASE + 1 + i, ['Bench A', 'Bench B']));
  if ((i + 1) % 100 === 0 || i + 1 === arg.stations) {
    started(`${i + 1} of ${arg.stations} stations enrolled`);
    await new Promise((r) => setImmediate(r));
  }
}
const file = path.join(arg.dir, 'enrolments.json');
writeFileSync(file, JSON.stringify(enrolments));

// Edges: NATS (Debian's nats-server, JetStream), the host's bridge, and the edge processes.
const natsCert = arg.edges && arg.natsTls !== false ? await natsCertificate(path.join(arg.dir, 'nats-tls'), ['127.0.0.1']) : null;
const nats = arg.edges
  ? await startNatsServer({ dir: path.join(arg.dir, 'nats'), ...(natsCert ? { tls: { certFile: natsCert.certFile, keyFile: natsCert.keyFile } } : {}) })
  : null;
const pin = natsCert ? { cert: natsCert.cert, fingerprint: natsCert.fingerprint } : null;
const bridge = nats
  ? await EdgeBridge.start({
      hub: running.screens.hub,
      stations: running.stadium.stations,
      nc: await (await import('nats')).connect({ servers: nats.url, maxReconnectAttempts: -1, ...(pin ? { tls: natsTls(pin) } : {}) }),
      tableId: config.tableId,
      log: pino({ level: 'silent' }),
    })
  : null;
/** Set once the host is stopping: its edges' exits are expected then. */
let stopping = false;
const edges = Array.from({ length: nats ? (arg.edges ?? 0) : 0 }, (_, i) => {
  const proc = fork(path.join(import.meta.dirname, 'edge-child.ts'), [], {
    // STADIUM_EDGE_CPU_PROF=DIR: each edge process writes a V8 CPU profile there (`node --cpu-prof`).
    execArgv: ['--import', 'tsx', ...(process.env.STADIUM_EDGE_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.STADIUM_EDGE_CPU_PROF}`] : [])],
    env: { ...process.env, STADIUM_EDGE: JSON.stringify({ name: `edge-${i + 1}`, nats: nats?.url, pin, tableId: config.tableId, dir: arg.dir }) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = <T extends FromEdge['type']>(type: T) =>
    new Promise<Extract<FromEdge, { type: T }>>((resolve) => {
      const on = (m: FromEdge) => {
        if (m.type !== type) return;
        proc.off('message', on);
        resolve(m as Extract<FromEdge, { type: T }>);
      };
      proc.on('message', on);
    });
  // An edge that exits before it is told to (killed, out of memory, an error) leaves its stations
  // nowhere: the host says so and stops, and the bench fails naming it (it used to wait for ever).
  proc.once('exit', (code, signal) => {
    if (!stopping) void fail(`edge-${i + 1} (pid ${String(proc.pid)}) ${signal ? `was killed by ${signal}` : `exited with code ${String(code)}`}`);
  });
  const ready = next('ready');
  void ready.then(() => started(`edge-${i + 1} ready`));
  return { proc, next, send: (m: ToEdge) => proc.connected && proc.send(m), ready };
});
const edgeOrigins = await Promise.all(edges.map((e) => e.ready));

// Each card the shoe reads: stamped as it reaches the table, with the public round it produced;
// on the host's side, when its journal commit was done (the first commit of the card's input) and
// when its sends were: a probe subscribed after every station is handed the public round last.
const cards: FromHostCard[] = [];
type FromHostCard = Extract<FromHost, { type: 'measured' }>['cards'][number];
const sizes: number[] = [];
let measuring = false;
const table = running.table;
const onCard = table.shoe.onCard.bind(table.shoe);
/**
 * The card read under way: when its journal commit was done, its public round built and sent,
 * and the version of that round (the one that shows the card). A card that settles the coup
 * makes a second version after it, the results, sent once the settlement is journalled: its
 * version and when it was sent are kept apart (`results`).
 */
let reading: {
  commits: number;
  committed?: bigint;
  built?: bigint;
  sent?: bigint;
  version?: number;
  /** The size of what the card's version sent each station (its patch, or the whole part when there was none). */
  size?: number;
  results?: { version: number; sent: bigint };
} | null = null;
/** Card reads that sent no new public round (refused, or changing nothing a station sees): not measured, counted. */
let unsent = 0;
// Which card of its coup each read is (1 for the first after betting closed): where a slow card falls.
let coup = { id: '', cards: 0 };
// When the public round the card made was built (projected and encoded), just before its sends.
const publicPart = running.screens.hub.publicPart.bind(running.screens.hub);
running.screens.hub.publicPart = (part) => {
  const built = publicPart(part);
  if (part === 'round' && reading?.committed !== undefined) reading.built ??= process.hrtime.bigint();
  return built;
};
// Every durable commit, and the bets it carried (a bet is its `table.input` entry).
const counts = { commits: 0, bets: 0, betCommits: 0 };
const appendMany = running.ledger.appendMany.bind(running.ledger);
running.ledger.appendMany = (entries, then) => {
  const r = appendMany(entries, then);
  if (reading && ++reading.commits === 1) reading.committed = process.hrtime.bigint();
  if (measuring) {
    counts.commits++;
    let bets = 0;
    for (const e of entries) if (e.type === 'table.input' && e.payload.input.kind === 'place-bet') bets++;
    counts.bets += bets;
    if (bets > 0) counts.betCommits++;
  }
  return r;
};
table.shoe.onCard = (card: Card, sequence?: number) => {
  const t0 = process.hrtime.bigint();
  reading = { commits: 0 };
  try {
    onCard(card, sequence);
  } finally {
    const at = reading;
    reading = null;
    const end = process.hrtime.bigint();
    if (measuring && at.version === undefined) unsent++;
    else if (measuring && at.version !== undefined) {
      if (coup.id !== table.state.roundId) coup = { id: table.state.roundId, cards: 0 };
      cards.push({
        version: at.version,
        position: ++coup.cards,
        settled: at.results !== undefined,
        t0: String(t0),
        committed: String(at.committed ?? end),
        built: String(at.built ?? end),
        sent: String(at.sent ?? end),
        ...(at.results ? { results: { version: at.results.version, sent: String(at.results.sent) } } : {}),
      });
      sizes.push(at.size ?? 0);
      progress();
    }
  }
};

const settled = () => running.ledger.rounds.recall({ tableId: config.tableId, limit: 500 }).filter((r) => r.status === 'settled').length;
/** The coups settled when the measure began (the bench's stall watch counts from there). */
let roundsAtStart = 0;
/** Where the measure is, to the bench: at each card counted and every few seconds. */
function progress(): void {
  send({ type: 'progress', cards: cards.length, rounds: settled() - roundsAtStart, phase: table.state.phase });
}

process.on('message', (m: ToHost) => {
  void handle(m);
});

async function handle(m: ToHost): Promise<void> {
  if (m.type === 'measure') {
    // From the next betting window, whole coups until at least `cards` card reads: their CPU
    // time, memory and bytes, and every card read.
    while (table.state.phase !== 'betting') await new Promise((r) => setTimeout(r, 20));
    // Subscribed after every station's screen: the hub hands it each public part after theirs.
    running.screens.hub.subscribe(stationView(REMOTE_STATION_BASE + 1), 'bench-probe', {
      // The version handed over, not the hub's part asked for again (that would build it anew).
      // The first is the card's own; the next, the results of a card that settled the coup.
      deliver: (slot, update) => {
        if (slot !== 'public:round' || !reading) return;
        const at = process.hrtime.bigint();
        if (reading.version === undefined) {
          reading.sent = at;
          reading.version = update.version;
          reading.size = (update.patch ?? update.whole()).size;
        } else if (reading.results === undefined && update.version !== reading.version) reading.results = { version: update.version, sent: at };
      },
    });
    const startRounds = settled();
    roundsAtStart = startRounds;
    unsent = 0;
    send({ type: 'measuring' });
    const heartbeat = setInterval(progress, 5000);
    const cpu0 = process.cpuUsage();
    const sent0 = running.screens.sent();
    const published0 = bridge ? { ...bridge.counters } : null;
    for (const e of edges) e.send({ type: 'mark' });
    const subscribers = running.screens.hub.subscribers() - 1;
    counts.commits = 0;
    counts.bets = 0;
    counts.betCommits = 0;
    measuring = true;
    let rss = 0;
    const sampler = setInterval(() => (rss = Math.max(rss, process.memoryUsage().rss)), 200);
    // Whole coups: from this betting window to the first one that opens after the last card counted.
    while (cards.length < m.cards || table.state.phase !== 'betting') await new Promise((r) => setTimeout(r, 20));
    measuring = false;
    clearInterval(sampler);
    clearInterval(heartbeat);
    const cpu = process.cpuUsage(cpu0);
    const sent1 = running.screens.sent();
    const edgeReports = await Promise.all(
      edges.map((e) => {
        const r = e.next('report');
        e.send({ type: 'report' });
        return r;
      }),
    );
    // Through edges, what the stations were sent is the edges' (the host sent nothing to a station).
    for (const r of edgeReports) {
      sent1.bytes += r.bytes;
      sent1.messages += r.messages;
    }
    send({
      type: 'measured',
      rounds: settled() - startRounds,
      cpuMs: (cpu.user + cpu.system) / 1000,
      rssBytes: rss,
      bytesSent: sent1.bytes - sent0.bytes,
      messagesSent: sent1.messages - sent0.messages,
      superseded: sent1.superseded - sent0.superseded,
      kinds: Object.fromEntries(
        Object.entries(sent1.kinds).map(([kind, k]) => [
          kind,
          { messages: k.messages - (sent0.kinds[kind]?.messages ?? 0), bytes: k.bytes - (sent0.kinds[kind]?.bytes ?? 0) },
        ]),
      ),
      subscribers: bridge ? arg.stations : subscribers,
      ...(bridge
        ? {
            edges: {
              count: edges.length,
              published: bridge.counters.bytes - (published0?.bytes ?? 0),
              messages: bridge.counters.published - (published0?.published ?? 0),
              ownPatches: bridge.counters.ownPatches - (published0?.ownPatches ?? 0),
              ownWholes: bridge.counters.ownWholes - (published0?.ownWholes ?? 0),
              cpuMs: edgeReports.map((r) => r.cpuMs),
              rss: edgeReports.map((r) => r.rss),
              writes: edgeReports.map((r) => r.writes),
            },
          }
        : {}),
      roundMessageBytes: Math.round(sizes.splice(0).reduce((a, b) => a + b, 0) / Math.max(1, cards.length)),
      bets: counts.bets,
      commits: counts.commits,
      betCommits: counts.betCommits,
      cards: cards.splice(0),
      unsent,
    });
  } else if (m.type === 'stop') await stop(0);
}

/** Stops the edges, the bridge, the table and NATS, then exits (once, whoever asks first). */
async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  for (const e of edges) e.send({ type: 'stop' });
  // An edge that does not stop within 10 s is killed: the host's stop must not wait for ever either.
  const kill = setTimeout(() => edges.forEach((e) => e.proc.kill('SIGKILL')), 10_000);
  await Promise.all(edges.map((e) => new Promise((r) => (e.proc.exitCode !== null || e.proc.signalCode !== null ? r(null) : e.proc.once('exit', r)))));
  clearTimeout(kill);
  await bridge?.close();
  await running.close();
  await nats?.close();
  process.exit(code);
}

/** Something the host started failed: it tells the bench, stops everything and exits non-zero. */
async function fail(why: string): Promise<void> {
  console.error(`stadium host: ${why}: stopping`);
  send({ type: 'failed', why });
  await stop(1);
}

// The bench gone (its IPC channel closed, even by SIGKILL): the host stops what it started.
process.on('disconnect', () => void stop(0));

send({
  type: 'ready',
  file,
  edges: edgeOrigins.map(({ origin, certificate, fingerprint }) => ({ origin, certificate, fingerprint })),
  lanOrigin: running.stadium.lanOrigin ?? '',
  dataDir,
  tableId: config.tableId,
  rssIdle: process.memoryUsage().rss,
});
