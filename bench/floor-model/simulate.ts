// A floor of table hosts, simulated from what one host was measured to cost (bench/floor-model/
// inputs.ts): each table's coups on its own host's event loop, its cards' fan-out to its stations
// (on the host, or through edges), the ledger's entries into one upstream. Deterministic for a
// seed. It says which limit a floor meets first as tables and stations grow; its times are as
// good as the figures it is fed (docs/stadium.md, "Beyond one host").
import { Rng } from '../../engine/random/seeded-rng.js';
import { at, fitLine, type Line } from './fit.js';
import type { FloorInputs } from './inputs.js';

export interface Scenario {
  readonly tables: number;
  readonly stationsPerTable: number;
  /** Seconds from one coup's start to the next at a table. */
  readonly coupSeconds: number;
  /** Table processes on one machine (each table its own host process, its own event loop). */
  readonly tablesPerMachine: number;
  /** Stations per edge process (step 2 of the plan), or null: every socket on the table's host. */
  readonly edgeStations: number | null;
  readonly coups: number;
  readonly seed: number;
}

export interface FloorResult {
  /** The busiest table process: the share of the simulated time its event loop was working. */
  readonly hostBusy: number;
  /** Card read → the last station's socket written, over every card after the first coup. */
  readonly cardP50Ms: number;
  readonly cardP99Ms: number;
  readonly edgesPerTable: number;
  /** An edge process's busy share (0 without edges). */
  readonly edgeBusy: number;
  readonly upstreamBusy: number;
  /** A coup's entries: settled → ingested by the upstream, p99. */
  readonly upstreamLagP99Ms: number;
  readonly lanMbit: number;
  readonly hostRssMiB: number;
  /** Each limit the floor passes, named (empty: none). */
  readonly limits: readonly string[];
}

/** The card goal of issue 30: card read → last station within 50 ms at p99. */
export const CARD_P99_GOAL_MS = 50;
/** Past this share of its time busy, a process's queue grows with any burst. */
export const BUSY_LIMIT = 0.7;
const CARDS_PER_COUP = 5;
const CARD_SPACING_MS = 150;
/** The betting window's share of a coup (the bench's: 3 s of about 5). */
const BETTING_SHARE = 0.6;
const BET_CHUNKS = 20;

interface Costs {
  cpu: Line;
  cardP50: Line;
  cardP99: Line;
  bytes: Line;
  rss: Line;
}

function costsOf(inputs: FloorInputs): Costs {
  const line = (f: (s: FloorInputs['sizes'][number]) => number) => fitLine(inputs.sizes.map((s) => [s.stations, f(s)] as const));
  return {
    cpu: line((s) => s.hostCpuMsPerCoup),
    cardP50: line((s) => s.cardHostP50Ms),
    cardP99: line((s) => s.cardHostP99Ms),
    bytes: line((s) => s.bytesPerStationPerCoup),
    rss: line((s) => s.rssKiBPerStation * s.stations),
  };
}

function pct(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
}

/** A card's fan-out time for `n` sockets: lognormal around the measured p50, its tail the measured p99's. */
function cardTime(c: Costs, n: number, rng: () => number): number {
  const p50 = at(c.cardP50, n);
  const sigma = Math.log(Math.max(1, at(c.cardP99, n) / p50)) / 2.326;
  // Box–Muller: one standard normal draw.
  const z = Math.sqrt(-2 * Math.log(Math.max(1e-12, rng()))) * Math.cos(2 * Math.PI * rng());
  return p50 * Math.exp(sigma * z);
}

interface Work {
  readonly at: number;
  readonly ms: number;
  readonly card: boolean;
}

export function simulateFloor(inputs: FloorInputs, s: Scenario): FloorResult {
  const c = costsOf(inputs);
  const r = Rng.fromSeed(s.seed);
  const rng = () => r.nextUint32() / 2 ** 32;
  const coupMs = s.coupSeconds * 1000;
  const n = s.stationsPerTable;
  // Processes sharing a machine's cores each run slower when all are busy (pessimistic: always).
  const share = Math.max(1, s.tablesPerMachine / inputs.hostCores);
  const edges = s.edgeStations === null ? 0 : Math.ceil(n / s.edgeStations);
  const perEdge = edges > 0 ? Math.ceil(n / edges) : 0;
  const fanOut = edges > 0 ? edges : n;
  const cardHostMs = at(c.cardP50, n);
  const betMsPerCoup = Math.max(0, at(c.cpu, n) - CARDS_PER_COUP * cardHostMs);
  const horizon = s.coups * coupMs;

  const cards: number[] = [];
  const upstreamArrivals: { at: number; entries: number }[] = [];
  let busiest = 0;
  let edgeWork = 0;
  for (let t = 0; t < s.tables; t++) {
    const phase = rng() * coupMs;
    const work: Work[] = [];
    for (let k = 0; k < s.coups; k++) {
      const start = phase + k * coupMs + (rng() - 0.5) * 0.2 * coupMs;
      const window = BETTING_SHARE * coupMs;
      for (let b = 0; b < BET_CHUNKS; b++) work.push({ at: start + (window * (b + rng())) / BET_CHUNKS, ms: (share * betMsPerCoup) / BET_CHUNKS, card: false });
      for (let i = 0; i < CARDS_PER_COUP; i++) work.push({ at: start + window + i * CARD_SPACING_MS, ms: share * cardTime(c, fanOut, rng), card: true });
      upstreamArrivals.push({ at: start + window + CARDS_PER_COUP * CARD_SPACING_MS, entries: n * inputs.entriesPerStationPerCoup + inputs.entriesPerCoup });
    }
    work.sort((a, b) => a.at - b.at);
    // The table's event loop: one item at a time, in arrival order.
    let free = 0;
    let busy = 0;
    for (const w of work) {
      const begin = Math.max(free, w.at);
      free = begin + w.ms;
      busy += w.ms;
      if (!w.card || w.at < phase + coupMs) continue; // the first coup warms up
      // Through edges: the host's fan-out to them, a hop, then each edge's own to its stations.
      const edgeMs = edges > 0 ? inputs.brokerHopMs + cardTime(c, perEdge, rng) : 0;
      edgeWork += edgeMs;
      cards.push(free - w.at + edgeMs);
    }
    busiest = Math.max(busiest, busy / Math.max(horizon, free));
  }

  // One upstream for the floor: each coup's entries, in arrival order, at its measured rate.
  upstreamArrivals.sort((a, b) => a.at - b.at);
  let upFree = 0;
  let upBusy = 0;
  const lags: number[] = [];
  for (const a of upstreamArrivals) {
    const ms = (a.entries / inputs.upstreamEntriesPerSecond) * 1000;
    upFree = Math.max(upFree, a.at) + ms;
    upBusy += ms;
    lags.push(upFree - a.at);
  }

  const lanMbit = (s.tables * n * at(c.bytes, n) * 8) / 1e6 / s.coupSeconds;
  const edgeBusy = edges > 0 ? edgeWork / (s.tables * edges) / horizon : 0;
  const result = {
    hostBusy: busiest,
    cardP50Ms: pct(cards, 50),
    cardP99Ms: pct(cards, 99),
    edgesPerTable: edges,
    edgeBusy,
    upstreamBusy: upBusy / Math.max(horizon, upFree),
    upstreamLagP99Ms: pct(lags, 99),
    lanMbit,
    hostRssMiB: (at(c.rss, n) * s.tablesPerMachine) / 1024,
  };
  const limits: string[] = [];
  if (result.cardP99Ms > CARD_P99_GOAL_MS) limits.push(`card p99 over ${CARD_P99_GOAL_MS} ms`);
  if (result.hostBusy > BUSY_LIMIT) limits.push('table host busy');
  if (result.edgeBusy > BUSY_LIMIT) limits.push('edge busy');
  if (result.upstreamBusy > BUSY_LIMIT) limits.push('upstream busy');
  if (lanMbit > inputs.lanMbit / 2) limits.push('LAN over half its capacity');
  return { ...result, limits };
}
