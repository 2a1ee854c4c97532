// `npm run bench -- station-decode`: what a remote station spends on each message it is sent,
// without sockets (issue 55: at a stadium the bench's 1,000 stations share two cores with the
// host, the edges and NATS, and a client's cost per message delays the last station). The frames
// one station is sent over a played shoe are recorded once (bench/station-decode/record.ts: the
// table's real hub and outbox), then replayed into `STATIONS` stations in this process, frame by
// frame, each station doing what a station's screen does with it: the protocol's decoder for its
// view (`decodeHostMessage(text, view)`: JSON, then zod at the boundary) and its composer
// (`ViewComposer.take`: the patch applied to the part it follows, the touched fields checked, the
// view composed). Beside it, in the same run over the same frames: `JSON.parse` alone (the
// floor), and the bare broadcast's clients' work (the decoder on a round patch of the same size,
// bench/stadium/round-stamp.ts). Prints the CPU time of this thread (not wall time) and the heap
// bytes allocated a message a station, overall and by kind of frame. Nothing asserts a figure.
//
// STATION_DECODE_COUPS=60 STATION_DECODE_STATIONS=125 (one client process's share of 1,000 over
// eight): the sizes (defaults shown). STATION_DECODE_FRAMES=FILE replays a `STADIUM_DUMP` file
// (the frames of station 101 of a stadium run) instead of recording. Profiles: run the file with
// `node --cpu-prof` or `--heap-prof` (`--import tsx`).
import os from 'node:os';
import v8 from 'node:v8';
import { decodeHostMessage, ViewComposer } from '../protocol/index.js';
import { countHeap } from './stadium/heap-count.js';
import { bareRoundPatch } from './stadium/round-stamp.js';
import { readDump, recordCoups } from './station-decode/record.js';
import { figure, QUICK, times } from './report.js';

const COUPS = Number(process.env.STATION_DECODE_COUPS ?? (QUICK ? 6 : 60));
const STATIONS = Number(process.env.STATION_DECODE_STATIONS ?? (QUICK ? 10 : 125));
const FILE = process.env.STATION_DECODE_FRAMES;

const load0 = os.loadavg();
const { view, frames } = FILE ? readDump(FILE, 'station/101') : recordCoups(COUPS);

/** What a frame is, by its head (the host writes patches as tuples: protocol 6). */
function kindOf(frame: string): string {
  if (frame.startsWith('["round",')) return 'round patch';
  if (frame.startsWith('["panel",')) return 'panel patch';
  if (frame.startsWith('["station/')) return 'own patch';
  const type = /^\{"type":"([a-z-]+)"(?:,"part":"([a-z]+)")?/.exec(frame);
  return type ? `${type[1]}${type[2] ? ` ${type[2]}` : ''}` : 'other';
}
const kinds = frames.map(kindOf);

// The process's CPU time (its collector's helper threads too), as the stadium bench counts a client
// process's: this thread's own (`threadCpuUsage`) moves in steps of milliseconds here.
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const newSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_used_size ?? 0;

interface Pass {
  cpuMs: number;
  allocated: number;
  minor: number;
  major: number;
  /** By kind of frame: CPU ms and bytes over the frames measured whole (a span with a scavenge in it gives no bytes). */
  byKind: Map<string, { n: number; ms: number; bytesN: number; bytes: number }>;
}

/** Every frame to each of `STATIONS` stations in turn (frames in the order sent), `work` what a station does with it. */
function replay(make: () => (frame: string) => void, stream: readonly string[] = frames): Pass {
  const stations = Array.from({ length: STATIONS }, make);
  const byKind = new Map<string, { n: number; ms: number; bytesN: number; bytes: number }>();
  const heap = countHeap();
  const t0 = cpu();
  for (let i = 0; i < stream.length; i++) {
    const frame = stream[i] as string;
    const n0 = newSpace();
    const h0 = v8.getHeapStatistics().used_heap_size;
    const c0 = cpu();
    for (const s of stations) s(frame);
    const ms = cpu() - c0;
    const h1 = v8.getHeapStatistics().used_heap_size;
    const k = byKind.get(kinds[i] ?? 'other') ?? { n: 0, ms: 0, bytesN: 0, bytes: 0 };
    k.n++;
    k.ms += ms;
    if (newSpace() >= n0) {
      k.bytesN++;
      k.bytes += h1 - h0;
    }
    byKind.set(kinds[i] ?? 'other', k);
  }
  const cpuMs = cpu() - t0;
  const gc = heap.stop();
  return { cpuMs, allocated: gc.allocated, minor: gc.minor, major: gc.major, byKind };
}

/** A station's screen: its decoder and its composer, as the renderer's host client and the headless station use them. */
const station = () => {
  const composer = new ViewComposer(view, {
    resync: () => {
      throw new Error('a recorded frame did not follow: resync asked');
    },
  });
  return (frame: string) => {
    const d = decodeHostMessage(frame, view);
    if (!d.ok) throw new Error(`a recorded frame fails its schema: ${d.error.detail}`);
    composer.take(d.message);
  };
};
/** A station with its roads panel open: it reads the view's roads at each message, as its panel draws them. */
const roadsOpen = () => {
  const composer = new ViewComposer(view);
  return (frame: string) => {
    const d = decodeHostMessage(frame, view);
    const v = d.ok ? composer.take(d.message) : null;
    if (v?.state.kind === 'station') void v.state.roads;
  };
};
/** The station's work in steps: its decoder alone, then with its parts patched and checked (`apply`), not composed. */
const decodeOnly = () => (frame: string) => {
  if (!decodeHostMessage(frame, view).ok) throw new Error('a recorded frame fails its schema');
};
const decodeApply = () => {
  const composer = new ViewComposer(view);
  return (frame: string) => {
    const d = decodeHostMessage(frame, view);
    if (d.ok) composer.apply(d.message);
  };
};
const parseOnly = () => (frame: string) => void JSON.parse(frame);
// The bare broadcast's message: a round patch of a card's round patch's size, decoded as its clients do.
const roundPatches = frames.filter((f, i) => kinds[i] === 'round patch');
const bareSize = Math.round(roundPatches.reduce((a, f) => a + Buffer.byteLength(f), 0) / Math.max(1, roundPatches.length));
const bareFrames = frames.map((_, i) => bareRoundPatch(i + 1, bareSize).toString());
const bareDecode = () => (frame: string) => {
  if (!decodeHostMessage(frame).ok) throw new Error("the bare broadcast's message fails its schema");
};

// Warmed once each (JIT, the schemas built on first use), then measured in turns.
const warm = [station, roadsOpen, decodeOnly, decodeApply, parseOnly].map((make) => [make, frames] as const);
for (const [make, stream] of [...warm, [bareDecode, bareFrames] as const]) replay(make, stream);
const runs = { station: [] as Pass[], roads: [] as Pass[], decode: [] as Pass[], apply: [] as Pass[], parse: [] as Pass[], bare: [] as Pass[] };
for (let r = 0; r < (QUICK ? 1 : 3); r++) {
  runs.station.push(replay(station));
  runs.roads.push(replay(roadsOpen));
  runs.decode.push(replay(decodeOnly));
  runs.apply.push(replay(decodeApply));
  runs.parse.push(replay(parseOnly));
  runs.bare.push(replay(bareDecode, bareFrames));
}
const load1 = os.loadavg();

const messages = frames.length * STATIONS;
const best = (ps: Pass[]) => ps.reduce((a, b) => (b.cpuMs < a.cpuMs ? b : a));
const us = (p: Pass) => (p.cpuMs * 1000) / messages;
const kib = (p: Pass) => p.allocated / messages / 1024;
const bytes = frames.reduce((a, f) => a + Buffer.byteLength(f), 0);

console.log(
  `${FILE ? `frames of ${FILE}` : `${COUPS} coups of baccarat recorded`}: ${frames.length} frames (${(bytes / frames.length).toFixed(0)} B on average) to ${STATIONS} stations each, ${view}'s decoder and composer; load average ${load0.map((l) => l.toFixed(2)).join(' ')} → ${load1.map((l) => l.toFixed(2)).join(' ')}`,
);
console.log(
  `  node ${process.version}, V8 flags ${process.execArgv.join(' ') || 'none'}; the best of ${runs.station.length} passes by CPU, the process's CPU time`,
);
const s = best(runs.station);
const p = best(runs.parse);
const b = best(runs.bare);
for (const [label, x] of [
  ["a station's decode + compose", s],
  ['  the same, its roads panel open (the roads read)', best(runs.roads)],
  ['  of it, the decoder alone', best(runs.decode)],
  ['  the decoder and the parts patched and checked', best(runs.apply)],
  ['JSON.parse alone', p],
  [`the bare broadcast's decode (a ${bareSize}-byte round patch)`, b],
] as const)
  console.log(
    `  ${label.padEnd(52)} ${us(x).toFixed(2).padStart(7)} µs  ${kib(x).toFixed(2).padStart(7)} KiB a message a station  (${x.minor} scavenges, ${x.major} full)`,
  );
const c = figure({
  name: `a station's CPU a message (decode + compose, ${STATIONS} stations)`,
  unit: 'µs',
  value: us(s),
  better: 'lower',
  baseline: { name: 'JSON.parse of the same frames', value: Math.max(us(p), 1e-3) },
});
const a = figure({
  name: `a station's heap allocated a message (decode + compose, ${STATIONS} stations)`,
  unit: 'KiB',
  value: kib(s),
  better: 'lower',
  baseline: { name: 'JSON.parse of the same frames', value: Math.max(kib(p), 1e-3) },
});
console.log(
  `  station / JSON.parse: CPU ${times(c)}, heap ${times(a)}; station / bare decode: CPU ${(us(s) / us(b)).toFixed(2)}×, heap ${(kib(s) / kib(b)).toFixed(2)}×`,
);
console.log('  by kind of frame (a station):              frames   µs a message   KiB a message (spans without a scavenge)');
const bytesOf = new Map<string, number>();
frames.forEach((f, i) => bytesOf.set(kinds[i] ?? 'other', (bytesOf.get(kinds[i] ?? 'other') ?? 0) + Buffer.byteLength(f)));
for (const [kind, k] of [...s.byKind].sort((x, y) => y[1].ms - x[1].ms)) {
  const avg = (bytesOf.get(kind) ?? 0) / k.n;
  console.log(
    `    ${`${kind} (${avg.toFixed(0)} B)`.padEnd(40)} ${String(k.n).padStart(6)} ${((k.ms * 1000) / (k.n * STATIONS)).toFixed(2).padStart(12)} ${(k.bytesN ? k.bytes / (k.bytesN * STATIONS) / 1024 : NaN).toFixed(2).padStart(14)}`,
  );
}
