// A share of the stadium bench's remote stations, in a process of their own: each station over
// its own TLS connection with its own credential, credited through its device link, betting at
// random within the limits every coup. A throttled station reaches the table through a local
// proxy that passes the table's bytes at 64 kbit/s, so TCP's own backpressure reaches the host.
import { appendFileSync, readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { Rng } from '../../engine/random/seeded-rng.js';
import { DeviceClient } from '../../host/station-agent/device-client.js';
import { HeadlessStation } from '../../host/station-agent/headless-station.js';
import { pinnedAgent, pinnedSocket } from '../../host/station-agent/pinned-socket.js';
import type { EnrolmentFile } from '../../host/stadium/enrolment-file.js';
import type { StationState } from '../../protocol/index.js';
import { REMOTE_STATION_BASE } from '../../protocol/index.js';
import type { FromClients, ToClients } from './messages.js';

const arg = JSON.parse(process.env.STADIUM_CLIENTS ?? '{}') as { file: string; stations: number[]; throttled: number[]; seed: number; notes: number };
const send = (m: FromClients) => process.send?.(m);
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
const stations: HeadlessStation[] = [];
const devices: DeviceClient[] = [];
/** Tries again after a failed handshake, as a station does in a reconnect storm (backoff with jitter). */
async function persist<T>(what: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await what();
    } catch (e) {
      if (attempt >= 8) throw e;
      await new Promise((r) => setTimeout(r, Math.min(5000, 250 * 2 ** attempt) * (0.5 + Math.random() / 2)));
    }
  }
}

async function inWaves<T>(xs: readonly T[], run: (x: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < xs.length; i += 10) await Promise.all(xs.slice(i, i + 10).map(run));
}

await inWaves(mine, async (e) => {
  const device = await persist(async () => {
    const d = new DeviceClient(e, agent);
    await d.ready();
    return d;
  });
  for (let k = 0; k < arg.notes; k++) await device.insert(`bench-${e.station}-${k}`, 1000, 'MOP');
  devices.push(device);
  const slow = throttled.has(e.station);
  const via = slow ? { ...e, host: await throttle(new URL(e.host), 8000) } : e;
  const seen = new Map<number, string>();
  received.set(e.station, seen);
  const betRound = { id: '' };
  const s: HeadlessStation = new HeadlessStation(via, agent, {
    // Stamped as it arrives; the public round's version read off the frame as the bare
    // broadcast's clients read theirs (JSON.parse), the schema check after. The round comes
    // whole (`public`) or as a patch (`public-patch`, protocol 4): either names its version.
    arrived: (data, at) => {
      if (dump && e.station === mine[0]?.station) appendFileSync(dump, `${data.toString()}\n`);
      const m = JSON.parse(data.toString()) as { type?: string; part?: string; version?: number };
      const round = (m.type === 'public' || m.type === 'public-patch') && m.part === 'round';
      if (round && typeof m.version === 'number' && !seen.has(m.version)) seen.set(m.version, String(at));
    },
    deferDecode: true,
    view: (state) => {
      if (state.kind !== 'station' || !state.betting.open || !state.round || betRound.id === state.round.roundId) return;
      betRound.id = state.round.roundId;
      bet(s, state);
    },
  });
  await persist(() => s.connect());
  stations.push(s);
});
send({ type: 'connected', stations: stations.length });

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

const bare: { throttled: boolean; seqs: Map<number, string> }[] = [];
const bareSockets: ReturnType<typeof pinnedSocket>[] = [];

process.on('message', (m: ToClients) => {
  void (async () => {
    if (m.type === 'report') {
      send({
        type: 'report',
        received: [...received].map(([station, seen]) => ({ station, throttled: throttled.has(station), versions: [...seen] })),
      });
    } else if (m.type === 'close-stations') {
      // The table's links closed before the bare broadcast opens its own (one link per station at a time).
      for (const s of stations) s.terminate();
      for (const d of devices) d.close();
      send({ type: 'stations-closed' });
    } else if (m.type === 'bare-connect') {
      // The same clients (one link per station, the same throttling) to the bare broadcast, ten at a time as above.
      await inWaves(mine, async (e) => {
        const slow = throttled.has(e.station);
        const origin = slow ? await throttle(new URL(`https://127.0.0.1:${m.port}`), 8000) : `https://127.0.0.1:${m.port}`;
        const ws = await persist(
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
        ws.on('message', (data: Buffer) => {
          const at = process.hrtime.bigint();
          const seq = (JSON.parse(data.toString()) as { seq: number }).seq;
          seqs.set(seq, String(at));
        });
      });
      send({ type: 'bare-connected', clients: bare.length });
    } else if (m.type === 'bare-report') {
      send({ type: 'bare-report', received: bare.map((b) => ({ throttled: b.throttled, seqs: [...b.seqs] })) });
    } else if (m.type === 'stop') {
      for (const s of stations) s.terminate();
      for (const b of bareSockets) b.terminate();
      process.exit(0);
    }
  })();
});
