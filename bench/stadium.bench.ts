// `npm run bench -- stadium`: one baccarat table host (a process of its own) and 250, 500 and
// 1,000 remote stations over TLS, in four client processes, betting at random within the limits.
// For each size, over whole coups until at least 300 card reads: card read → the last station's
// socket (p50, p99, max), the host's CPU time per coup, its RSS per station, the bytes sent per
// station per coup; at 250, the same again with 10% of the stations behind a 64 kbit/s link. Then,
// in the same run, once the table host has exited, the baseline: a bare `ws` broadcast (a process
// of its own, the table's TLS certificate) of a message the size of a card's to the same clients
// (same processes, same throttling), as many broadcasts as card reads, with each figure's ratio.
// Nothing asserts a timing. The load average is printed beside the figures: the machine is shared.
// STADIUM_EDGES=0,2 runs each size on the host's own listener and again through two edge
// processes on NATS (issue 55), each beside the bare broadcast of its own run. NATS speaks TLS
// (the host's and the edges' connections pinning its certificate), as a table's does;
// STADIUM_NATS=tls,clear runs each edge size again with NATS in clear, to show what TLS costs.
//
// Where the machine has four cores or more (and `taskset`), the host and the bare broadcast run on
// the first half of them and the client processes on the other half; on fewer, everything shares
// the cores and the clients run at niceness 10, standing for machines of their own.
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REMOTE_STATION_BASE } from '../protocol/index.js';
import { figure, times } from './report.js';
import { Crew, type Member } from './stadium/crew.js';
import type { HeapCount } from './stadium/heap-count.js';
import type { FromBare, FromClients, FromHost, ToBare, ToClients, ToHost } from './stadium/messages.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const quick = process.env.BENCH_QUICK === '1';
// STADIUM_SIZES=250 (comma-separated): only those sizes.
const SIZES = process.env.STADIUM_SIZES ? process.env.STADIUM_SIZES.split(',').map(Number) : quick ? [20] : [250, 500, 1000];
// STADIUM_CARDS=600: card reads measured per size at least (whole coups), so a p99 has enough behind it.
const CARDS = process.env.STADIUM_CARDS ? Number(process.env.STADIUM_CARDS) : quick ? 10 : 300;
// STADIUM_SHARES=0,0.1: the shares of throttled stations for every size (default: 0, and 0.1 at 250 too).
const sharesFor = (n: number): number[] => (process.env.STADIUM_SHARES ? process.env.STADIUM_SHARES.split(',').map(Number) : n === 250 ? [0, 0.1] : [0]);
// The processes the stations are shared among (STADIUM_CLIENT_PROCESSES, default 4). Each stands
// for its stations' machines, so its own stalls (a collection, a burst of decodes at a settled
// coup) hold up every station it carries at once, as no floor's machines would. Eight were tried
// at 250 stations: within the runs' spread of four (docs/stadium.md), so the default stays.
const CLIENT_PROCESSES = Number(process.env.STADIUM_CLIENT_PROCESSES ?? 4);
if (!Number.isInteger(CLIENT_PROCESSES) || CLIENT_PROCESSES < 1)
  throw new Error(`STADIUM_CLIENT_PROCESSES must be a whole number of processes, at least 1, not "${process.env.STADIUM_CLIENT_PROCESSES}"`);
// STADIUM_EDGES=0,2 (comma-separated): each size with the stations on the host's own listener (0)
// and through that many edge processes on NATS (issue 55); default 0 alone.
const EDGES = process.env.STADIUM_EDGES ? process.env.STADIUM_EDGES.split(',').map(Number) : [0];
// STADIUM_NATS=tls,clear: NATS over TLS (a table's), in clear (before issue 55's TLS), or both, for each edge size.
const NATS_MODES = (process.env.STADIUM_NATS ?? 'tls').split(',').map((m) => {
  if (m !== 'tls' && m !== 'clear') throw new Error(`STADIUM_NATS takes tls and clear, not "${m}"`);
  return m;
});
// STADIUM_BETTING_MS=1000: a shorter betting window (the suite's small run, tests/host/stadium-bench.test.ts).
const TIMINGS = { bettingMs: Number(process.env.STADIUM_BETTING_MS ?? 3000), decisionMs: 1000, resultsMs: 1000 };
const DEAL_MS = 150;
// STADIUM_STALL_S=300: how long a phase may go with nothing moving (no station set up, no card
// read counted, no answer awaited) before the bench stops everything it started and fails,
// naming the phase; and how many coups may settle with no card read counted (a card probe that
// sees nothing, 28 November) before it does.
const STALL_MS = Number(process.env.STADIUM_STALL_S ?? 300) * 1000;
const COUPS_WITHOUT_A_CARD = 3;
// STADIUM_SETUP_CONCURRENCY=32: stations set up at once, in all the client processes together
// (each its share): their device links' and screens' handshakes in flight at the host.
const SETUP_CONCURRENCY = Number(process.env.STADIUM_SETUP_CONCURRENCY ?? 32);
// Notes of 1,000 MOP per station: five are enough credit for a hundred coups of the clients' bets, one
// for about twenty (STADIUM_NOTES=1: a thousand stations' notes are a long setup on a loaded machine).
const NOTES = process.env.STADIUM_NOTES ? Number(process.env.STADIUM_NOTES) : quick ? 1 : 5;

// STADIUM_CPU_PROF=DIR: the host process writes a V8 CPU profile there (`node --cpu-prof`), one per
// size; STADIUM_CLIENTS_CPU_PROF=DIR: each client process does.
const profileDir = process.env.STADIUM_CPU_PROF;
const clientsProfileDir = process.env.STADIUM_CLIENTS_CPU_PROF;
// STADIUM_HOST_FLAGS="--trace-gc ...": V8 flags for the host process alone (what its collector does at a slow card).
const hostFlags = (process.env.STADIUM_HOST_FLAGS ?? '').split(' ').filter((f) => f.length > 0);
// STADIUM_CLIENTS_FLAGS="--trace-gc ...": V8 flags for the client processes alone (both paths' clients: the
// same processes; 'none': V8's defaults). By default a larger young generation (semi-spaces of 16 MiB,
// growing to 64, where V8 starts at 1): each process holds the views of a share of the stations, a
// machine's worth of heaps in one, and scavenged it about a third more often (docs/stadium.md).
const CLIENT_FLAGS_DEFAULT = '--min-semi-space-size=16 --max-semi-space-size=64';
const clientFlags = (process.env.STADIUM_CLIENTS_FLAGS ?? CLIENT_FLAGS_DEFAULT).split(' ').filter((f) => f.length > 0 && f !== 'none');

// Cores of their own for the clients where there are enough (STADIUM_PIN=0: never).
const cores = os.cpus().length;
const canPin = cores >= 4 && process.env.STADIUM_PIN !== '0' && spawnSync('taskset', ['-V']).status === 0;
const half = Math.floor(cores / 2);
const HOST_CPUS = canPin ? `0-${half - 1}` : null;
const CLIENT_CPUS = canPin ? `${half}-${cores - 1}` : null;
const CLIENT_NICE = process.env.STADIUM_CLIENTS_NICE ?? (canPin ? '0' : '10');

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : (s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] as number);
};
const ms = (ns: bigint) => Number(ns) / 1e6;
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

interface Latency {
  p50: number;
  p99: number;
  max: number;
  events: number;
}

/** Per event: its start, and when each client got it (or a later one): the last client's delay. */
function lastSocket(events: { key: number; t0: bigint }[], clients: Map<number, bigint>[]): Latency {
  const delays: number[] = [];
  // Each client's keys in order, so "the first it got at or after this one" is a search, not a scan.
  const sorted = clients.map((c) => [...c].sort((a, b) => a[0] - b[0]));
  for (const e of events) {
    let last = -1n;
    for (const c of sorted) {
      // A client that fell behind gets the latest snapshot, not every one: the first it got at or after this one.
      let lo = 0;
      let hi = c.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if ((c[mid] as [number, bigint])[0] < e.key) lo = mid + 1;
        else hi = mid;
      }
      // One connection delivers in order: the first version at or after this one arrived first.
      const at = lo < c.length ? (c[lo] as [number, bigint])[1] : null;
      if (at !== null && at > last) last = at;
    }
    if (last >= 0n) delays.push(ms(last - e.t0));
  }
  return { p50: pct(delays, 50), p99: pct(delays, 99), max: Math.max(...delays), events: delays.length };
}

/**
 * The six slowest card reads to their last unthrottled station, each with its place in its coup
 * (the card that settled it marked), the host's own part (read → last socket written) and the
 * last station of each client process: whether a slow read is the host's or the clients', and
 * which cards of a coup they are.
 */
function slowestCards(cards: Extract<FromHost, { type: 'measured' }>['cards'], processes: Map<number, bigint>[][]): string[] {
  const rows = cards.map((c) => {
    const perProcess = processes.map((stations) => lastSocket([{ key: c.version, t0: BigInt(c.t0) }], stations).max);
    return { c, perProcess, last: Math.max(...perProcess) };
  });
  return rows
    .sort((a, b) => b.last - a.last)
    .slice(0, 6)
    .map(
      ({ c, perProcess, last }) =>
        `${last.toFixed(1)} ms: card ${c.position} of its coup${c.settled ? ' (settled it)' : ''}; host ${ms(BigInt(c.sent) - BigInt(c.t0)).toFixed(1)} ms; processes ${perProcess.map((x) => x.toFixed(1)).join(' / ')} ms`,
    );
}

/** One line of the summary table printed at the end. */
interface Row {
  label: string;
  load: string;
  cards: number;
  rounds: number;
  p50: [number, number];
  p99: [number, number];
  /** A settling card read → its results at the last station, p50 and p99. */
  results: [number, number];
  cpu: [number, number];
  /** Each edge's CPU per coup (through edges; none on the host's own listener). */
  edgeCpu: number[];
  rss: [number, number];
  bytesPerStation: number;
  messagesPerStation: number;
  betsPerCommit: number;
}
const rows: Row[] = [];

/** The run under way: a signal stops it (its processes are in groups of their own, out of the terminal's reach). */
let current: Crew | null = null;
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    if (!current) process.exit(1);
    current.fail(new Error(`stopped by ${signal}`));
  });

async function run(stations: number, throttledShare: number, edgeCount: number, natsTls = true): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'stadium-bench-'));
  const crew = new Crew();
  current = crew;
  const script = (file: string) => path.join(here, 'stadium', file);
  const profile = (d: string | undefined) => (d ? ['--cpu-prof', `--cpu-prof-dir=${d}`] : []);
  const host = crew.start<ToHost, FromHost>(
    'host',
    script('host-child.ts'),
    { STADIUM_HOST: JSON.stringify({ stations, dir, seed: 5, timings: TIMINGS, dealMs: DEAL_MS, edges: edgeCount, natsTls }) },
    { cpus: HOST_CPUS, flags: [...hostFlags, ...profile(profileDir)] },
  );
  const clients: Member<ToClients, FromClients>[] = [];
  const all = <T>(f: (c: Member<ToClients, FromClients>) => Promise<T>) => crew.watch(Promise.all(clients.map(f)));
  try {
    // Each step of the host's start is a move (its load, its table, the enrolment, each edge).
    host.onProgress = () => crew.moved();
    crew.enter(`the host started its table${edgeCount ? ', NATS and its edges' : ''}`, STALL_MS);
    const ready = await host.next<Extract<FromHost, { type: 'ready' }>>('ready');
    const numbers = Array.from({ length: stations }, (_, i) => REMOTE_STATION_BASE + 1 + i);
    const throttled = numbers.filter((_, i) => throttledShare > 0 && i % Math.round(1 / throttledShare) === 0);
    for (let k = 0; k < CLIENT_PROCESSES; k++)
      clients.push(
        crew.start<ToClients, FromClients>(
          `client process ${k + 1}`,
          script('clients-child.ts'),
          {
            STADIUM_CLIENTS: JSON.stringify({
              file: ready.file,
              stations: numbers.filter((_, i) => i % CLIENT_PROCESSES === k),
              throttled,
              seed: 100 + k,
              notes: NOTES,
              edges: ready.edges,
              concurrency: Math.max(1, Math.round(SETUP_CONCURRENCY / CLIENT_PROCESSES)),
            }),
            STADIUM_CLIENTS_NICE: CLIENT_NICE,
          },
          { cpus: CLIENT_CPUS, flags: [...clientFlags, ...profile(clientsProfileDir)] },
        ),
      );
    console.log(`  ${stations} stations${edgeCount ? ` through ${edgeCount} edges` : ''}: processes (pid) ${crew.pids()}`);
    // Every station credited and its screen viewing, or the run fails naming the ones that are not
    // (issue 30: it hung); a set-up in which no station is set up nor given up on for the stall
    // time fails too, as does a client process that dies.
    const setUp = clients.map(() => ({ done: 0, failed: 0, retried: 0 }));
    const sum = (k: 'done' | 'failed' | 'retried') => setUp.reduce((n, c) => n + c[k], 0);
    const setUpStatus = () => `${sum('done')} of ${stations} stations set up, ${sum('failed')} given up on, ${sum('retried')} links opened again`;
    const setUpStarted = performance.now();
    let setUpTold = setUpStarted;
    clients.forEach((c, k) => {
      c.onProgress = (m) => {
        if (m.type !== 'progress') return;
        const moved = m.done + m.failed > (setUp[k]?.done ?? 0) + (setUp[k]?.failed ?? 0);
        setUp[k] = { done: m.done, failed: m.failed, retried: m.retried };
        if (moved) crew.moved();
        if (performance.now() - setUpTold < 30_000) return;
        setUpTold = performance.now();
        console.log(`  … ${setUpStatus()} in ${((setUpTold - setUpStarted) / 60_000).toFixed(1)} min (load average ${load()})`);
      };
    });
    crew.enter('the client processes set up their stations', STALL_MS, setUpStatus);
    const connected = await all((c) => c.next<Extract<FromClients, { type: 'connected' }>>('connected'));
    const failed = connected.flatMap((c) => c.failed);
    const retried = connected.reduce((n, c) => n + c.retried, 0);
    console.log(`  every station set up in ${((performance.now() - setUpStarted) / 60_000).toFixed(1)} min (load average ${load()})`);
    if (retried > 0) console.log(`  ${retried} links opened again while the stations connected (a handshake failed or a link was lost)`);
    if (failed.length > 0)
      throw new Error(
        `${failed.length} of ${stations} stations could not be set up:\n${failed
          .sort((a, b) => a.station - b.station)
          .map((f) => `    station ${f.station}: ${f.why}`)
          .join('\n')}`,
      );
    const loadBefore = load();
    crew.enter('the host waited for a betting window to begin the measure', STALL_MS);
    host.send({ type: 'measure', cards: CARDS });
    await host.next('measuring');
    console.log(`  measuring from this betting window: at least ${CARDS} card reads`);
    for (const c of clients) c.send({ type: 'mark' });
    // The measure moves with each card read the host counts; coups that settle with none counted
    // mean its card probe sees nothing (28 November: the bench waited for ever).
    const measure = { cards: 0, rounds: 0, phase: '', roundsAtCard: 0 };
    host.onProgress = (m) => {
      if (m.type !== 'progress') return;
      if (m.cards > measure.cards) {
        crew.moved();
        measure.roundsAtCard = m.rounds;
      }
      Object.assign(measure, { cards: m.cards, rounds: m.rounds, phase: m.phase });
      if (m.rounds - measure.roundsAtCard >= COUPS_WITHOUT_A_CARD)
        crew.fail(
          new Error(
            `stalled: ${m.rounds - measure.roundsAtCard} coups settled with no card read counted (${m.cards} of ${CARDS} so far): the host's card probe (table.shoe.onCard) sees no card`,
          ),
        );
    };
    crew.enter(
      'the host counted card reads',
      STALL_MS,
      () => `${measure.cards} of ${CARDS} card reads counted over ${measure.rounds} coups; the table's phase: ${measure.phase || 'not told'}`,
    );
    const measured = await host.next<Extract<FromHost, { type: 'measured' }>>('measured');
    const loadMeasured = load();
    // Every station must have shown the last card's round (or a later one): a station the cards
    // never reached is not a fast station, and its silence is not left out of the figures unsaid.
    const through = Math.max(...measured.cards.map((c) => c.version));
    crew.enter('the client processes reported what their stations received', STALL_MS);
    for (const c of clients) c.send({ type: 'report', through });
    const reports = await all((c) => c.next<Extract<FromClients, { type: 'report' }>>('report'));
    const behind = reports.flatMap((r) => r.behind);
    if (behind.length > 0)
      throw new Error(
        `${behind.length} of ${stations - throttled.length} unthrottled stations never showed the last card read's round (version ${through}) within 10 s of the measure's end: ${behind
          .slice(0, 20)
          .map((b) => `station ${b.station} (its last ${b.last})`)
          .join(', ')}${behind.length > 20 ? ', …' : ''}`,
      );
    console.log(`  every one of the ${stations - throttled.length} unthrottled stations showed the last card read's round (version ${through}) or a later one`);
    const received = reports.flatMap((r) => r.received);
    const asMap = (versions: [number, string][]) => new Map(versions.map(([v, t]) => [v, BigInt(t)]));
    const events = measured.cards.map((c) => ({ key: c.version, t0: BigInt(c.t0) }));
    if (process.env.STADIUM_DUMP) appendFileSync(`${process.env.STADIUM_DUMP}.cards`, measured.cards.map((c) => JSON.stringify(c)).join('\n') + '\n');
    const free = lastSocket(
      events,
      received.filter((r) => !r.throttled).map((r) => asMap(r.versions)),
    );
    // A card that settles the coup: the results (the round's next version, sent once the settlement is journalled) to the last station.
    const settling = measured.cards.flatMap((c) => (c.results ? [{ key: c.results.version, t0: BigInt(c.t0) }] : []));
    const results = lastSocket(
      settling,
      received.filter((r) => !r.throttled).map((r) => asMap(r.versions)),
    );
    const resultsSent = measured.cards.flatMap((c) => (c.results ? [ms(BigInt(c.results.sent) - BigInt(c.t0))] : []));
    const worst = slowestCards(
      measured.cards,
      reports.map((r) => r.received.filter((x) => !x.throttled).map((x) => asMap(x.versions))),
    );
    const slow = throttled.length
      ? lastSocket(
          events,
          received.filter((r) => r.throttled).map((r) => asMap(r.versions)),
        )
      : null;

    // The table closes; then the baseline, same clients: a bare ws broadcast of a message of the same size.
    crew.enter('the client processes closed their stations and the host stopped', STALL_MS);
    for (const c of clients) c.send({ type: 'close-stations' });
    await all((c) => c.next('stations-closed'));
    host.send({ type: 'stop' });
    await crew.stopped(host);
    crew.enter('the bare broadcast started and the clients connected to it', STALL_MS);
    const bare = crew.start<ToBare, FromBare>(
      'bare broadcast',
      script('bare-child.ts'),
      { STADIUM_BARE: JSON.stringify({ dataDir: ready.dataDir, tableId: ready.tableId }) },
      { cpus: HOST_CPUS },
    );
    const bareReady = await bare.next<Extract<FromBare, { type: 'ready' }>>('ready');
    for (const c of clients) c.send({ type: 'bare-connect', port: bareReady.port });
    await all((c) => c.next('bare-connected'));
    const count = Math.max(CARDS, events.length);
    crew.enter(`the bare broadcast sent ${count} messages`, STALL_MS + count * DEAL_MS);
    bare.send({ type: 'broadcast', bytes: measured.roundMessageBytes, count, gapMs: DEAL_MS });
    const done = await bare.next<Extract<FromBare, { type: 'done' }>>('done');
    await new Promise((r) => setTimeout(r, 500));
    crew.enter('the client processes reported the bare broadcast', STALL_MS);
    for (const c of clients) c.send({ type: 'bare-report' });
    const bareProcesses = await all((c) => c.next<Extract<FromClients, { type: 'bare-report' }>>('bare-report'));
    const bareReports = bareProcesses.flatMap((r) => r.received);
    const bareEvents = done.times.map((t) => ({ key: t.seq, t0: BigInt(t.t0) }));
    const bareLatency = lastSocket(
      bareEvents,
      bareReports.filter((r) => !r.throttled).map((r) => asMap(r.seqs)),
    );
    const loadAfter = load();

    // The host's own part of each card's path: its journal commit, then its sends.
    const hostSide = (to: 'committed' | 'built' | 'sent') => measured.cards.map((c) => ms(BigInt(c[to]) - BigInt(c.t0)));
    const committed = hostSide('committed');
    const built = hostSide('built');
    const sentOut = hostSide('sent');

    const label = `${stations} stations${edgeCount ? ` through ${edgeCount} edges (NATS ${natsTls ? 'over TLS' : 'in clear'})` : ''}${throttled.length ? `, ${throttled.length} of them at 64 kbit/s` : ''}`;
    const perRound = (x: number) => x / measured.rounds;
    const cardsPerCoup = events.length / measured.rounds;
    console.log(
      `\n  ${label} (load average ${loadBefore} → ${loadMeasured} → ${loadAfter}; ${events.length} card reads over ${measured.rounds} coups; ${measured.subscribers} screens)`,
    );
    const ratios: Partial<Record<'p50' | 'p99' | 'max', number>> = {};
    for (const p of ['p50', 'p99', 'max'] as const) {
      const r = figure({
        // Since 25 November (evening) to the version that shows the card; before, a settling card's results (docs/stadium.md).
        name: `stadium: card read → last ${throttled.length ? 'unthrottled ' : ''}station's socket with the card's own version, ${p}, ${label}`,
        unit: 'ms',
        value: free[p],
        better: 'lower',
        baseline: { name: `bare ws broadcast of ${measured.roundMessageBytes} bytes to the same clients, ${p}`, value: bareLatency[p] },
      });
      ratios[p] = r.ratio ?? NaN;
      console.log(`    ${p} card read → last station: ${free[p].toFixed(1)} ms, bare broadcast ${bareLatency[p].toFixed(1)} ms (${times(r)})`);
    }
    console.log(
      `    the ${results.events} card reads that settled their coup → their results at the last station (after the settlement is journalled): p50 ${results.p50.toFixed(1)} / p99 ${results.p99.toFixed(1)} / max ${results.max.toFixed(1)} ms; on the host, results sent p50 ${pct(resultsSent, 50).toFixed(1)} / p99 ${pct(resultsSent, 99).toFixed(1)} ms`,
    );
    if (measured.unsent > 0) console.log(`    ${measured.unsent} card reads sent no new public round (refused, or nothing a station sees): not measured`);
    // Beside the same bare broadcast as the card: what the settlement (its durable commit, every
    // station's own part) adds to a delivery is the ratio.
    if (results.events > 0) {
      const r = figure({
        name: `stadium: a settling card read → its results at the last ${throttled.length ? 'unthrottled ' : ''}station, p99, ${label}`,
        unit: 'ms',
        value: results.p99,
        better: 'lower',
        baseline: { name: `bare ws broadcast of ${measured.roundMessageBytes} bytes to the same clients (no settlement), p99`, value: bareLatency.p99 },
      });
      console.log(
        `    p99 settling card → results at the last station: ${results.p99.toFixed(1)} ms, bare broadcast ${bareLatency.p99.toFixed(1)} ms (${times(r)})`,
      );
    }
    const bareSent = done.times.map((x) => ms(BigInt(x.sent) - BigInt(x.t0)));
    console.log(
      `    on the host, the bare broadcast: its last socket written p50 ${pct(bareSent, 50).toFixed(1)} / p99 ${pct(bareSent, 99).toFixed(1)} ms (${bareLatency.events} broadcasts to ${done.clients} clients)`,
    );
    console.log(
      `    on the host: card read → journal committed p50 ${pct(committed, 50).toFixed(1)} / p99 ${pct(committed, 99).toFixed(1)} ms; → public round built p50 ${pct(built, 50).toFixed(1)} / p99 ${pct(built, 99).toFixed(1)} ms; → the last socket written p50 ${pct(sentOut, 50).toFixed(1)} / p99 ${pct(sentOut, 99).toFixed(1)} ms`,
    );
    console.log(
      `    the client processes while measured: CPU per coup ${reports.map((r) => (r.cpuMs / measured.rounds).toFixed(0)).join(' / ')} ms; event loop delay p99 ${reports.map((r) => r.loopDelayMs.p99.toFixed(1)).join(' / ')} ms, max ${reports.map((r) => r.loopDelayMs.max.toFixed(1)).join(' / ')} ms`,
    );
    // What a client process spends on a message a station, on each path (the same stamp and decoder on both).
    const clientCpu = reports.reduce((n, r) => n + r.cpuMs, 0);
    const bareClientCpu = bareProcesses.reduce((n, r) => n + r.cpuMs, 0);
    const bareMessages = bareReports.reduce((n, r) => n + r.seqs.length, 0);
    console.log(
      `    the client processes' CPU a message a station: ${((clientCpu / Math.max(1, measured.messagesSent)) * 1000).toFixed(1)} µs (${measured.messagesSent} messages); the bare broadcast's ${((bareClientCpu / Math.max(1, bareMessages)) * 1000).toFixed(1)} µs (${bareMessages}; event loop delay p99 ${bareProcesses.map((r) => r.loopDelayMs.p99.toFixed(1)).join(' / ')} ms)`,
    );
    // What their collectors did on each path: the heap bytes allocated a message a station and the
    // collections (counts, not times: a pause's wall time on a loaded machine counts the waits too).
    const gcLine = (xs: { cpuMs: number; gc: HeapCount }[], messages: number) => {
      const sum = (f: (x: (typeof xs)[number]) => number) => xs.reduce((n, x) => n + f(x), 0);
      return `${(sum((x) => x.gc.allocated) / Math.max(1, messages) / 1024).toFixed(1)} KiB allocated a message a station, ${sum((x) => x.gc.minor)} scavenges and ${sum((x) => x.gc.major)} full collections (pauses ${(
        (100 * sum((x) => x.gc.ms)) /
        Math.max(
          1,
          sum((x) => x.cpuMs),
        )
      ).toFixed(0)}% of their CPU in wall time)`;
    };
    console.log(
      `    the client processes' heaps: ${gcLine(reports, measured.messagesSent)} through the table; ${gcLine(bareProcesses, bareMessages)} on the bare broadcast`,
    );
    console.log(`    the slowest card reads (their place in the coup; the host's part; each client process's last station):`);
    for (const w of worst) console.log(`      ${w}`);
    if (slow)
      console.log(
        `    the ${throttled.length} throttled stations: p50 ${slow.p50.toFixed(0)} ms, p99 ${slow.p99.toFixed(0)} ms, max ${slow.max.toFixed(0)} ms (latest snapshot wins)`,
      );
    // The bare broadcaster's CPU for as many broadcasts as a coup has card reads, to the same clients.
    const bareCpuPerCoup = (done.cpuMs / done.times.length) * cardsPerCoup;
    const cpu = figure({
      name: `stadium: host CPU time per coup, ${label}`,
      unit: 'ms',
      value: perRound(measured.cpuMs),
      better: 'lower',
      baseline: { name: `bare ws broadcast of a coup's ${cardsPerCoup.toFixed(1)} card reads to the same clients, CPU`, value: bareCpuPerCoup },
    });
    const edgeCpu = measured.edges ? measured.edges.cpuMs.map((c) => perRound(c)) : [];
    console.log(
      `    host CPU per coup: ${perRound(measured.cpuMs).toFixed(0)} ms${edgeCpu.length ? `, each edge's ${edgeCpu.map((c) => c.toFixed(0)).join(' / ')} ms` : ''}; the bare broadcast of its ${cardsPerCoup.toFixed(1)} cards ${bareCpuPerCoup.toFixed(1)} ms (${times(cpu)})`,
    );
    // The fan-out's CPU through edges is theirs: all of them together beside the bare broadcast's, which does the same fan-out alone.
    if (edgeCpu.length > 0)
      figure({
        name: `stadium: the edges' CPU time per coup, together, ${label}`,
        unit: 'ms',
        value: edgeCpu.reduce((a, b) => a + b, 0),
        better: 'lower',
        baseline: { name: `bare ws broadcast of a coup's ${cardsPerCoup.toFixed(1)} card reads to the same clients, CPU`, value: bareCpuPerCoup },
      });
    const hostPerStation = Math.max(1, measured.rssBytes - ready.rssIdle) / stations / 1024;
    const barePerStation = Math.max(1, done.rss - done.rssIdle) / Math.max(1, done.clients) / 1024;
    const rss = figure({
      name: `stadium: host RSS per station (over the table's own before any connected), ${label}`,
      unit: 'KiB',
      value: hostPerStation,
      better: 'lower',
      baseline: { name: 'bare ws server RSS per connected client (over its own before any connected)', value: barePerStation },
    });
    console.log(
      `    RSS: ${(measured.rssBytes / 2 ** 20).toFixed(0)} MiB (${(ready.rssIdle / 2 ** 20).toFixed(0)} MiB before any station connected): ${hostPerStation.toFixed(0)} KiB per station; bare ${(done.rss / 2 ** 20).toFixed(0)} MiB (${(done.rssIdle / 2 ** 20).toFixed(0)} idle): ${barePerStation.toFixed(0)} KiB per client (${times(rss)})`,
    );
    const bytesPerStation = perRound(measured.bytesSent) / Math.max(1, measured.subscribers);
    const messagesPerStation = perRound(measured.messagesSent) / Math.max(1, measured.subscribers);
    console.log(
      `    sent per coup: ${(perRound(measured.bytesSent) / 1024).toFixed(0)} KiB in ${perRound(measured.messagesSent).toFixed(0)} messages, ${(bytesPerStation / 1024).toFixed(2)} KiB in ${messagesPerStation.toFixed(1)} messages per station (${perRound(measured.superseded).toFixed(1)} superseded by a newer snapshot before they went); a card's public round message ${measured.roundMessageBytes} bytes`,
    );
    // What those bytes carried, per station per coup: the part, whole or as a patch, and the replies.
    const kinds = Object.entries(measured.kinds ?? {})
      .sort(([, a], [, b]) => b.bytes - a.bytes)
      .map(
        ([kind, k]) =>
          `${kind} ${(perRound(k.bytes) / Math.max(1, measured.subscribers)).toFixed(0)} B in ${(perRound(k.messages) / Math.max(1, measured.subscribers)).toFixed(1)}`,
      );
    if (kinds.length > 0) console.log(`    per station per coup by kind: ${kinds.join(', ')}`);
    if (measured.edges) {
      const e = measured.edges;
      console.log(
        `    through ${e.count} edges: the host published ${(perRound(e.published) / 1024).toFixed(0)} KiB a coup on NATS (${(perRound(e.published) / stations).toFixed(0)} B a station, ${(perRound(e.messages) / stations).toFixed(1)} messages; own parts ${perRound(e.ownPatches).toFixed(0)} as patches alone, ${perRound(e.ownWholes).toFixed(0)} whole a coup); each edge's CPU per coup ${e.cpuMs.map((c) => perRound(c).toFixed(0)).join(' / ')} ms, ${(perRound(e.writes.reduce((a, b) => a + b, 0)) / Math.max(1, measured.subscribers)).toFixed(1)} socket writes a station a coup, RSS ${e.rss.map((r) => (r / 2 ** 20).toFixed(0)).join(' / ')} MiB (the NATS server's CPU is not counted)`,
      );
    }
    const betsPerCommit = measured.bets / Math.max(1, measured.betCommits);
    console.log(
      `    bets: ${perRound(measured.bets).toFixed(0)} a coup in ${perRound(measured.betCommits).toFixed(0)} durable commits (${betsPerCommit.toFixed(2)} bets a commit); the journal's commits in all ${perRound(measured.commits).toFixed(0)} a coup`,
    );
    figure({
      name: `stadium: bytes sent per station per coup, ${label}`,
      unit: 'KiB',
      value: bytesPerStation / 1024,
      better: 'lower',
      baseline: null,
      note: 'what the protocol sends: a count, not a speed',
    });
    rows.push({
      label,
      load: `${loadBefore} → ${loadAfter}`,
      cards: events.length,
      rounds: measured.rounds,
      p50: [free.p50, bareLatency.p50],
      p99: [free.p99, bareLatency.p99],
      results: results.events > 0 ? [results.p50, results.p99] : [NaN, NaN],
      cpu: [perRound(measured.cpuMs), bareCpuPerCoup],
      edgeCpu,
      rss: [hostPerStation, barePerStation],
      bytesPerStation,
      messagesPerStation,
      betsPerCommit,
    });
  } finally {
    // Every process the run started, and what they started, stopped: asked, then signalled.
    await crew.stopAll();
    current = null;
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(
  `stadium: baccarat, ≥ ${CARDS} card reads per size (betting ${TIMINGS.bettingMs / 1000} s, a card every ${DEAL_MS} ms), ${CLIENT_PROCESSES} client processes, ${cores} cores, ` +
    (canPin ? `host on cores ${HOST_CPUS}, clients on cores ${CLIENT_CPUS}` : `clients at niceness ${CLIENT_NICE} on the host's cores`) +
    `, the client processes' V8 flags: ${clientFlags.join(' ') || 'none'}` +
    `; load average ${load()}`,
);
try {
  for (const n of SIZES)
    for (const share of sharesFor(n))
      for (const e of EDGES)
        if (e === 0) await run(n, share, 0);
        else for (const mode of NATS_MODES) await run(n, share, e, mode === 'tls');
} catch (e) {
  // Everything the run started is stopped by now (its `finally`): say what failed, and fail.
  console.error(`\nstadium: failed (load average ${load()}): ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}

const f = (x: number, d = 1) => x.toLocaleString('en', { maximumFractionDigits: d, minimumFractionDigits: d });
const r = ([a, b]: [number, number], unit: string) => `${f(a)} ${unit} (${f(b)}), ${f(a / b, 2)}×`;
console.log(
  "\n| stations | load average | card reads / coups | p50 card → last station (bare), ratio | p99 (bare), ratio | settling card → results at the last station, p50 / p99 | host CPU per coup (bare) ms, ratio | each edge's CPU per coup, ms | RSS per station (bare) KiB, ratio | sent per station per coup | bets per commit |",
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const x of rows)
  console.log(
    `| ${x.label} | ${x.load} | ${x.cards} / ${x.rounds} | ${r(x.p50, 'ms')} | ${r(x.p99, 'ms')} | ${f(x.results[0])} / ${f(x.results[1])} ms | ${r(x.cpu, 'ms')} | ${x.edgeCpu.length ? x.edgeCpu.map((c) => f(c, 0)).join(' / ') : '—'} | ${r(x.rss, 'KiB')} | ${f(x.bytesPerStation / 1024, 2)} KiB in ${f(x.messagesPerStation)} messages | ${f(x.betsPerCommit, 2)} |`,
  );
