import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CARD_CODES, cardOf, type Card } from '../../engine/cards/card.js';
import type { Rng } from '../../engine/random/seeded-rng.js';
import type { GameDefinition } from '../../engine/table/game.js';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { tableParams } from '../../host/config/table-params.js';
import type { BillAcceptors } from '../../host/devices/bill-acceptors.js';
import type { openTable } from '../../host/table/start-table.js';
import type { TiltManager } from '../../host/tilts/tilt-manager.js';
import type { Ledger, SyncClient } from '../../ledger/index.js';
import { FakeUpstream, type LinkFault } from './fake-upstream.js';
import type { FaultyLedger } from './faulty-ledger.js';
import { faultCounts, LINK_FAULTS, type FaultKind } from './faults.js';
import { acceptorTruth, type AcceptorTruth, type FakeAcceptor } from '../fake-acceptor/fake-acceptor.js';
import type { TABLES } from './tables.js';
import { VirtualClock } from './virtual-clock.js';

// One run of the fault simulation as plain state (cli/sim-faults/simulate.ts): what outlives a kill
// (the ledger's file, the devices' truth, the upstream, the shoe, the clock, the counts) and the
// host now. Every draw is from the run's one seeded generator, in the order the run makes them: a
// seed replays exactly.

export interface SimOptions {
  seed: number;
  /** Steps of the run (default 400). */
  steps?: number;
  /** One table of TABLES by index; default: drawn by the seed. */
  table?: number;
  /** Kills a run may meet at most (default 6). */
  maxKills?: number;
  /** The chance that each start of the host is armed with a kill (default: drawn by the seed, 0–0.8). */
  killRate?: number;
  /**
   * Players may place an additional bet (blackjack's pairs, 7s…) with no main bet of theirs on
   * the table (default false). A side bet alone makes the blackjack engine throw when betting
   * closes (found by this harness: seat N main bet 0); on once the engine refuses it.
   */
  sideBetsAlone?: boolean;
}

export interface SimResult {
  seed: number;
  game: string;
  profile: string;
  steps: number;
  /** Starts of the host (1 + kills). */
  starts: number;
  roundsClosed: number;
  faults: Map<FaultKind, number>;
  /** Notes stacked and their sum; credits journalled and their sum. */
  notes: { stacked: number; stackedAmount: number; credited: number; creditedAmount: number; duplicated: number; lost: number };
  entries: number;
  /** Wall time of each recovery (ms; not part of the replay). */
  recoverMs: number[];
  trace: string[];
  violations: string[];
}

export const TERMINAL = 'SIM-1';

/** A host process: what a kill throws away. */
export interface Host {
  ledger: Ledger;
  faulty: FaultyLedger;
  table: ReturnType<typeof openTable>['table'];
  tilts: TiltManager;
  acceptors: BillAcceptors;
  sims: Map<number, FakeAcceptor>;
  sync: SyncClient;
}

/** This seed's chance of each fault per occasion (0: this run never meets it). */
export interface FaultRates {
  kill: number;
  storage: number;
  clock: number;
  cardAck: number;
  cardGarbled: number;
  creditAck: number;
  escrowTimeout: number;
  replug: number;
  truncated: number;
  link: number;
}

/** Everything of a run but the host: what a kill leaves. */
export interface SimWorld<S, R> {
  readonly def: GameDefinition<S, R>;
  readonly pick: (typeof TABLES)[number];
  readonly rng: Rng;
  readonly options: SimOptions;
  readonly maxKills: number;
  /** The folder of the ledger's file (in memory where the system has one) and the file. */
  readonly dir: string;
  readonly file: string;
  readonly trace: string[];
  readonly violations: string[];
  readonly faults: Map<FaultKind, number>;
  readonly recoverMs: number[];
  readonly rates: FaultRates;
  readonly linkKinds: readonly LinkFault[];
  readonly config: TableConfig;
  readonly params: ReturnType<typeof tableParams>;
  readonly stations: readonly number[];
  readonly clock: VirtualClock;
  readonly upstream: FakeUpstream;
  /** The terminal's signing key with the upstream. */
  readonly key: string;
  readonly truths: Map<number, AcceptorTruth>;
  step: number;
  /** The shoe: a shuffled shoe of the game's decks; its sequence numbers outlive the host, as the device's. */
  shoe: Card[];
  shoeSeq: number;
  /** A card the shoe read and sent whose ACK it has not had: it sends it again. */
  unackedCard: { card: Card; sequence: number } | null;
  kills: number;
  starts: number;
  /** The faults held when the host was last killed (null: not killed yet). */
  tiltsBefore: string[] | null;
  /** The tilt entry the killed write committed, if it was one: the memory before the kill never had it. */
  tiltInFlight: boolean;
}

/** A run with its host. */
export type SimRun<S, R> = SimWorld<S, R> & { host: Host };

const ACE_OF_SPADES = cardOf('AS');
const ALL_CARDS: readonly Card[] = CARD_CODES.map(cardOf);
/** What an empty draw stands for where the types want a card (never happens: the shoe is refilled first). */
export const ACE: Card = ACE_OF_SPADES;

/** The seeded chance `p` (0–1). */
const chanceOf = (rng: Rng, p: number) => rng.below(1_000_000) < p * 1_000_000;
export const chance = (w: SimWorld<unknown, unknown>, p: number) => chanceOf(w.rng, p);

/** A line of the trace, stamped with the step. */
export const note = (w: SimWorld<unknown, unknown>, s: string) => w.trace.push(`#${w.step} ${s}`);

export function fault(w: SimWorld<unknown, unknown>, k: FaultKind, detail = ''): void {
  w.faults.set(k, (w.faults.get(k) ?? 0) + 1);
  note(w, `FAULT ${k}${detail ? ` ${detail}` : ''}`);
}

export function violated(w: SimWorld<unknown, unknown>, s: string): void {
  w.violations.push(`step ${w.step}: ${s}`);
  note(w, `VIOLATION ${s}`);
}

/** The run before its first start: this seed's faults, the table, the devices' truth, the upstream, a shuffled shoe. */
export function newWorld<S, R>(def: GameDefinition<S, R>, pick: (typeof TABLES)[number], rng: Rng, options: SimOptions): SimWorld<S, R> {
  // In memory where the system has it: the kills are simulated at the journal's writes, so the
  // fsyncs of a disk would cost time and test nothing more here.
  const dir = mkdtempSync(path.join(existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir(), 'sim-faults-'));
  const config = TableConfig.parse({
    ...simulatedTableConfig(pick.game, pick.profile),
    stations: simulatedTableConfig(pick.game, pick.profile).stations.slice(0, 4),
  });
  const stations = config.stations.map((s) => s.station);
  return {
    def,
    pick,
    rng,
    options,
    maxKills: options.maxKills ?? 6,
    dir,
    file: path.join(dir, 'ledger.sqlite'),
    trace: [],
    violations: [],
    faults: faultCounts(),
    recoverMs: [],
    rates: drawRates(rng, options),
    linkKinds: LINK_FAULTS.filter(() => chanceOf(rng, 0.6)),
    config,
    params: tableParams(config),
    stations,
    clock: new VirtualClock(Date.UTC(2026, 10, 23, 12)),
    upstream: new FakeUpstream(TERMINAL),
    key: Buffer.alloc(32, options.seed & 0xff).toString('base64'),
    truths: new Map<number, AcceptorTruth>(stations.map((s) => [s, acceptorTruth(`BA-${s}`)])),
    step: 0,
    shoe: [],
    shoeSeq: 0,
    unackedCard: null,
    kills: 0,
    starts: 0,
    tiltsBefore: null,
    tiltInFlight: false,
  };
}

/** Swarm testing: this seed's faults, each with its own rate (many seeds see only a few kinds). */
function drawRates(rng: Rng, options: SimOptions): FaultRates {
  const rate = (max: number) => (chanceOf(rng, 0.6) ? (1 + rng.below(100)) * (max / 100) : 0);
  return {
    kill: options.killRate ?? rate(0.8),
    storage: rate(0.3),
    clock: rate(0.02),
    cardAck: rate(0.1),
    cardGarbled: rate(0.1),
    creditAck: rate(0.3),
    escrowTimeout: rate(0.05),
    replug: rate(0.01),
    truncated: rate(0.5),
    link: rate(0.5),
  };
}

/** A fresh shoe of the game's decks, shuffled by the seed. */
export function shuffle(w: SimWorld<unknown, unknown>): void {
  const shoe = Array.from({ length: w.def.decks }, () => ALL_CARDS).flat();
  for (let i = shoe.length - 1; i > 0; i--) {
    const j = w.rng.below(i + 1);
    [shoe[i], shoe[j]] = [shoe[j] ?? ACE_OF_SPADES, shoe[i] ?? ACE_OF_SPADES];
  }
  w.shoe = shoe;
}
