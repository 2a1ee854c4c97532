// A share of the stadium bench's remote stations, in a process of their own: each station over
// its own TLS connection with its own credential, credited through its device link, betting at
// random within the limits every coup. A throttled station reaches the table through a local
// proxy that passes the table's bytes at 64 kbit/s, so TCP's own backpressure reaches the host.
import { appendFileSync, readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { backoffDelay } from '../../engine/backoff.js';
import { Rng } from '../../engine/random/seeded-rng.js';
import { DeviceClient, DeviceLinkError } from '../../host/station-agent/device-client.js';
import { decodeInTurn, HeadlessStation } from '../../host/station-agent/headless-station.js';
import { pinnedAgent, pinnedSocket } from '../../host/station-agent/pinned-socket.js';
import type { EnrolmentFile } from '../../host/stadium/enrolment-file.js';
import type { StationState } from '../../protocol/index.js';
import { decodeHostMessage, REMOTE_STATION_BASE } from '../../protocol/index.js';
import { countHeap, type HeapCount } from './heap-count.js';
import type { FromClients, ToClients } from './messages.js';
import { roundVersion } from './round-stamp.js';

const arg = JSON.parse(process.env.STADIUM_CLIENTS ?? '{}') as {
  file: string;
  stations: number[];
  throttled: number[];
  seed: number;
  notes: number;
  /** The edges the screens connect to, station by station in turn (issue 55); none: the host's own listener. */
  edges?: { origin: string; certificate: string; fingerprint: string }[];
  /** How many stations this process sets up at once (their links' handshakes, notes and screens; default 10). */
  concurrency?: number;
};
const send = (m: FromClients) => void (process.connected && process.send?.(m));
// The stations stand for machines of their own: where they share the host's cores they yield to
// the host (and to the bare broadcast's server alike), as 250 machines would not take its CPU.
// Niceness 10 unless STADIUM_CLIENTS_NICE says otherwise (0: as the host; the bench passes 0
// when the clients have cores of their own).
os.setPriority(Number(process.env.STADIUM_CLIENTS_NICE ?? 10));
const all = JSON.parse(readFileSync(arg.file, 'utf8')) as EnrolmentFile[];
const mine = all.filter((e) => arg.stations.includes(e.station));
const throttled = new Set(arg.throttled);
const agent = pinnedAgent(mine[0] as EnrolmentFile);
const rng = Rng.fromSeed(arg.seed);
// STADIUM_DUMP=FILE: every frame the first station of the first client process receives, one a line (what the bytes are spent on).
const dump = arg.stations[0] === REMOTE_STATION_BASE + 1 ? process.env.STADIUM_DUMP : undefined;

/** A local TCP proxy to the table passing the table's bytes at `bytesPerSecond`, the station's own unthrottled. */
async function throttle(target: URL, bytesPerSecond: number): Promise<string> {
  const server = net.createServer((client) => {
    const up = net.connect(Number(target.port), target.hostname);
    client.on('data', (b) => up.write(b));
    up.on('data', (b) => {
      client.write(b);
      up.pause();
      setTimeout(() => up.resume(), (b.byteLength / bytesPerSecond) * 1000);
    });
    const end = () => {
      client.destroy();
      up.destroy();
    };
    client.on('close', end);
    up.on('close', end);
    client.on('error', end);
    up.on('error', end);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const a = server.address();
  return `https://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
}

const received = new Map<number, Map<number, string>>();
const edgeAgents = new Map<string, ReturnType<typeof pinnedAgent>>();
const stations: HeadlessStation[] = [];
const devices: DeviceClient[] = [];
/** Stations given up on, and why; and how many links were opened again on the way. */
const failed: { station: number; why: string }[] = [];
let retried = 0;
/** Set once the bench closes the stations itself: their closes are not news then. */
let closing = false;
/**
 * How long the table may take to answer a note's question or a screen's hello on this loaded,
 * shared machine: past it the link is given up and opened again (a silent table fails the run
 * instead of hanging it).
 */
const ANSWER_MS = Number(process.env.STADIUM_ANSWER_MS ?? 60_000);
/** Tries again after a failed handshake or a lost link, as a station does in a reconnect storm (backoff with jitter). */
async function persist<T>(label: string, what: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await what();
    } catch (e) {
      if (attempt >= 8) throw e;
      retried++;
      const ms = backoffDelay(attempt, { baseMs: 250, capMs: 5000, jitter: { share: 0.5, random: Math.random } });
      console.error(`stadium clients: ${label}: ${e instanceof Error ? e.message : String(e)}; again in ${ms.toFixed(0)} ms`);
      await new Promise((r) => setTimeout(r, ms));
    }
  }
}

/**
 * `run` for each of `xs`, `arg.concurrency` at a time (a pool: the next starts as soon as one
 * ends, where waves of ten each waited for their slowest). How many handshakes a set-up storm
 * has in flight at the host is the bench's to choose: 2,000 stations set up 80 at a time on a
 * loaded machine had their links' openings time out by the hundred (docs/stadium.md).
 */
async function inPool<T>(xs: readonly T[], run: (x: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < xs.length) await run(xs[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(arg.concurrency ?? 10, xs.length)) }, worker));
}

/** Tells the bench how far the set-up is, at most every two seconds (its stall watch). */
let told = 0;
function setUpProgress(last = false): void {
  if (!last && performance.now() - told < 2000) return;
  told = performance.now();
  send({ type: 'progress', done: stations.length, failed: failed.length, retried });
}

/** A station's device link, greeted (the welcome says which note, if any, the table holds in escrow for it). */
async function deviceLink(e: EnrolmentFile): Promise<{ device: DeviceClient; pending: string | null }> {
  return persist(`station ${e.station}'s device link`, async () => {
    const device = new DeviceClient(e, agent, { answerMs: ANSWER_MS, handshakeMs: ANSWER_MS });
    try {
      const welcome = await device.ready();
      return { device, pending: welcome.pendingNote?.escrowId ?? null };
    } catch (err) {
      device.close();
      throw err;
    }
  });
}

/**
 * The station's notes through its device link. A link lost under a note is opened again and the
 * note taken up where the table has it, as a station agent does after a cut: still in escrow
 * (the welcome names it), it is credited; else it is asked about again by the same escrow id,
 * and "return" then means the table had already credited it (the first answer lost with the
 * link: the bench's acceptors are never inhibited and take every note asked). A credit resent
 * under a new message id for a note already credited would be a forgery to the table.
 */
async function creditNotes(e: EnrolmentFile): Promise<DeviceClient> {
  let link = await deviceLink(e);
  for (let k = 0; k < arg.notes; k++) {
    const note = { escrowId: `bench-${e.station}-${k}`, amount: 100_000, denomination: 1000, currency: 'MOP' as const };
    for (let attempt = 0; ; attempt++) {
      try {
        if (link.pending === note.escrowId) {
          const c = await link.device.credit(note, { recovered: true });
          if (c.type !== 'journalled') throw new Error(`note ${note.escrowId}, in escrow after a lost link, not credited: ${JSON.stringify(c)}`);
        } else {
          const r = await link.device.insert(note.escrowId, note.denomination, note.currency);
          if (!r.credited && !(attempt > 0 && r.decision === 'return')) throw new Error(`note ${note.escrowId} not credited: ${r.decision}`);
        }
        break;
      } catch (err) {
        if (!(err instanceof DeviceLinkError) || attempt >= 3) throw err;
        console.error(`stadium clients: ${err.message}; opening it again`);
        retried++;
        link.device.close();
        link = await deviceLink(e);
      }
    }
    link.pending = null;
  }
  return link.device;
}

await inPool(mine, async (e) => {
  try {
    devices.push(await creditNotes(e));
  } catch (err) {
    failed.push({ station: e.station, why: `device link: ${err instanceof Error ? err.message : String(err)}` });
    setUpProgress();
    return;
  }
  const slow = throttled.has(e.station);
  // Through an edge: the screen dials the edge and pins its certificate; the acceptor stays on the host.
  const edge = arg.edges?.length ? arg.edges[e.station % arg.edges.length] : undefined;
  const screenAt = edge ? { ...e, host: edge.origin, certificate: edge.certificate, fingerprint: edge.fingerprint, edge: true as const } : e;
  const screenAgent = edge ? (edgeAgents.get(edge.origin) ?? edgeAgents.set(edge.origin, pinnedAgent(screenAt)).get(edge.origin) ?? agent) : agent;
  const via = slow ? { ...screenAt, host: await throttle(new URL(screenAt.host), 8000) } : screenAt;
  const seen = new Map<number, string>();
  received.set(e.station, seen);
  const betRound = { id: '' };
  try {
    // Connected once the table has sent the station its first view: a link closed before it
    // (the host's hello deadline, a refused hello) is opened again, one that never gets it given up.
    const s = await persist(
      `station ${e.station}'s screen`,
      () =>
        new Promise<HeadlessStation>((resolve, reject) => {
          let viewed = false;
          const lost = (why: string) => {
            if (viewed) return;
            clearTimeout(timer);
            s.terminate();
            reject(new Error(`station ${e.station}'s screen ${why} before its first view`));
          };
          const timer = setTimeout(() => lost(`had no answer within ${ANSWER_MS} ms`), ANSWER_MS);
          const s: HeadlessStation = new HeadlessStation(via, screenAgent, {
            // Stamped as it arrives; the public round's version read off the frame's head as the
            // bare broadcast's clients read theirs (`roundVersion`, nothing parsed), the decode
            // later as a station's (`deferDecode`). The round comes whole or as a patch: either names its version.
            arrived: (data, at) => {
              if (dump && e.station === mine[0]?.station) appendFileSync(dump, `${String(at)} ${data.toString()}\n`);
              const version = roundVersion(data);
              if (version !== null && !seen.has(version)) seen.set(version, String(at));
            },
            deferDecode: true,
            handshakeMs: ANSWER_MS,
            view: (state) => {
              if (!viewed) {
                viewed = true;
                clearTimeout(timer);
                resolve(s);
              }
              if (state.kind !== 'station' || !state.betting.open || !state.round || betRound.id === state.round.roundId) return;
              betRound.id = state.round.roundId;
              bet(s, state);
            },
            error: (m) => {
              if (m.code === 'unauthorized' || m.code === 'hello-required') lost(`was refused: ${m.code} ${m.detail ?? ''}`);
            },
            closed: () => {
              if (viewed && !closing) console.error(`stadium clients: station ${e.station}'s screen closed by the table`);
              lost('closed');
            },
          });
          s.connect().catch((err: unknown) => {
            clearTimeout(timer);
            reject(err instanceof Error ? err : new Error(String(err)));
          });
        }),
    );
    stations.push(s);
  } catch (err) {
    failed.push({ station: e.station, why: `screen: ${err instanceof Error ? err.message : String(err)}` });
  }
  setUpProgress();
});
setUpProgress(true);
send({ type: 'connected', stations: stations.length, failed, retried });

/** One or two bets, each the spot's minimum times 1–3, within the credit. */
function bet(s: HeadlessStation, state: StationState): void {
  let credit = state.credit;
  const spots = state.betting.spots.flatMap((x) => (x.bet !== 'behind' ? [x] : []));
  const count = 1 + rng.below(2);
  for (let i = 0; i < count && spots.length > 0; i++) {
    const spot = spots.splice(rng.below(spots.length), 1)[0];
    if (!spot) continue;
    const amount = spot.min * (1 + rng.below(3));
    if (amount > credit || amount > spot.max) continue;
    credit -= amount;
    s.command({ name: 'place-bet', spot: { bet: spot.bet }, amount });
  }
}

/**
 * Waits (up to 10 s) until every unthrottled station has shown the public round `through` or a
 * later one, as a station that counted every card of the measure has: the ones that have not by
 * then, with the last round each showed (-1: none). A frame on its way is waited for, not missed.
 */
async function showing(through: number): Promise<{ station: number; last: number }[]> {
  const lagging = () =>
    [...received].flatMap(([station, seen]) => {
      if (throttled.has(station)) return [];
      const last = Math.max(-1, ...seen.keys());
      return last >= through ? [] : [{ station, last }];
    });
  for (const until = performance.now() + 10_000; lagging().length > 0 && performance.now() < until;) await new Promise((r) => setTimeout(r, 100));
  return lagging();
}

const bare: { throttled: boolean; seqs: Map<number, string> }[] = [];
const bareSockets: ReturnType<typeof pinnedSocket>[] = [];

// The process's own cost while measured: its CPU time, and how long its event loop was held up (a
// frame that arrives while the loop is busy is stamped late).
let mark = process.cpuUsage();
const loop = monitorEventLoopDelay({ resolution: 10 });
// And what its collector did meanwhile (`countHeap`): the bytes its stations' work allocated on the
// heap they share, where a station's machine holds one view.
let heap: ReturnType<typeof countHeap> | null = null;
// Profiled (STADIUM_CLIENTS_CPU_PROF), the process says when each counted stretch began and ended
// on the profile's clock (the monotonic clock, µs: a .cpuprofile's `startTime`), so the profile
// can be read over the measure or the bare broadcast alone rather than over the set-up.
const profiled = process.execArgv.some((a) => a.startsWith('--cpu-prof'));
const clock = () => String(process.hrtime.bigint() / 1000n);
/** From here: the CPU, the loop's delay and the collector's pauses counted afresh. */
function restart(): void {
  if (profiled) console.error(`stadium clients (pid ${process.pid}): counted from ${clock()} µs`);
  mark = process.cpuUsage();
  heap?.stop();
  heap = countHeap();
  loop.reset();
  loop.enable();
}
/** What was counted since `restart`. */
function counted(): { cpuMs: number; loopDelayMs: { p99: number; max: number }; gc: HeapCount } {
  loop.disable();
  const cpu = process.cpuUsage(mark);
  if (profiled) console.error(`stadium clients (pid ${process.pid}): counted to ${clock()} µs`);
  const gc = heap?.stop() ?? { ms: 0, minor: 0, major: 0, allocated: 0 };
  heap = null;
  return { cpuMs: (cpu.user + cpu.system) / 1000, loopDelayMs: { p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 }, gc };
}

// The bench gone (its IPC channel closed, even by SIGKILL): the stations go with it.
process.on('disconnect', () => process.exit(0));
process.on('message', (m: ToClients) => {
  void (async () => {
    if (m.type === 'mark') restart();
    else if (m.type === 'report') {
      const cost = counted();
      const behind = await showing(m.through);
      send({
        type: 'report',
        received: [...received].map(([station, seen]) => ({ station, throttled: throttled.has(station), versions: [...seen] })),
        ...cost,
        behind,
      });
    } else if (m.type === 'close-stations') {
      closing = true;
      // The table's links closed before the bare broadcast opens its own (one link per station at a time).
      for (const s of stations) s.terminate();
      for (const d of devices) d.close();
      send({ type: 'stations-closed' });
    } else if (m.type === 'bare-connect') {
      // The same clients (one link per station, the same throttling) to the bare broadcast, ten at a time as above.
      await inPool(mine, async (e) => {
        const slow = throttled.has(e.station);
        const origin = slow ? await throttle(new URL(`https://127.0.0.1:${m.port}`), 8000) : `https://127.0.0.1:${m.port}`;
        const ws = await persist(
          `station ${e.station}'s bare link`,
          () =>
            new Promise<ReturnType<typeof pinnedSocket>>((resolve, reject) => {
              const w = pinnedSocket({ ...e, host: origin }, agent, '/ws');
              w.on('error', reject);
              w.once('open', () => resolve(w));
            }),
        );
        const seqs = new Map<number, string>();
        bare.push({ throttled: slow, seqs });
        bareSockets.push(ws);
        // The same work on reading a message as the table's clients: stamped by its head, decoded
        // later, one station's waiting frames a turn, by the protocol's decoder (the bare message
        // is a round's patch). Only the patch is not applied: the bare client holds no round.
        const backlog: Buffer[] = [];
        ws.on('message', (data: Buffer) => {
          const at = process.hrtime.bigint();
          const seq = roundVersion(data);
          if (seq !== null && !seqs.has(seq)) seqs.set(seq, String(at));
          backlog.push(data);
          if (backlog.length === 1)
            decodeInTurn(() => {
              for (const x of backlog.splice(0)) if (!decodeHostMessage(x.toString()).ok) throw new Error(`the bare broadcast's message fails its schema`);
            });
        });
      });
      restart();
      send({ type: 'bare-connected', clients: bare.length });
    } else if (m.type === 'bare-report') {
      send({ type: 'bare-report', received: bare.map((b) => ({ throttled: b.throttled, seqs: [...b.seqs] })), ...counted() });
    } else if (m.type === 'stop') {
      closing = true;
      for (const s of stations) s.terminate();
      for (const b of bareSockets) b.terminate();
      process.exit(0);
    }
  })();
});
