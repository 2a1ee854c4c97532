// One seeded run of the ticket floor, as its parts share it: the seed's random stream, the trace
// (every line stamped with its step), the faults met, the violations found, and whether the faults
// have stopped. Each draw comes from the one stream in the run's order, so a seed replays exactly.
import { Rng } from '../../../engine/random/seeded-rng.js';
import { AUTHORITY_FAULTS, type AuthorityFault } from './authority-model.js';
import { STATIONS, type TableSite, type TicketFloor } from './floor.js';
import { PRINTER_JOBS, type PrinterJob } from './printer-model.js';

/** The faults a seed lets the run meet, and how often (swarm testing: not every run meets every fault). */
export interface Swarm {
  readonly rates: { readonly kill: number; readonly printer: number; readonly link: number };
  readonly printerKinds: readonly PrinterJob[];
  readonly linkKinds: readonly AuthorityFault[];
}

export interface TicketRun {
  readonly rng: Rng;
  readonly trace: string[];
  readonly violations: string[];
  /** How many times each fault was met, by its name in the trace. */
  readonly faults: Record<string, number>;
  readonly maxKills: number;
  readonly swarm: Swarm;
  /** The step being played (after the last one, the end's). */
  step: number;
  /** The kills armed so far, at starts and ahead on live hosts. */
  kills: number;
  /** The faults have stopped (the end of the run). */
  calm: boolean;
}

/** A new run of `seed`, its swarm drawn and traced. */
export function startRun(seed: number, maxKills: number): TicketRun {
  const rng = Rng.fromSeed(seed ^ 0x7170);
  const run: TicketRun = { rng, trace: [], violations: [], faults: {}, maxKills, swarm: drawSwarm(rng), step: 0, kills: 0, calm: false };
  const { rates, printerKinds, linkKinds } = run.swarm;
  note(run, `rates ${JSON.stringify(rates)}; printer ${printerKinds.join(',')}; link ${linkKinds.join(',')}`);
  return run;
}

/** True with probability `p`, from the run's stream. */
export function chance(rng: Rng, p: number): boolean {
  return rng.below(1_000_000) < p * 1_000_000;
}

/** Each fault family at a seeded rate (none in 3 runs of 10), and which of its kinds the run meets. */
function drawSwarm(rng: Rng): Swarm {
  const rate = (max: number) => (chance(rng, 0.7) ? (1 + rng.below(100)) * (max / 100) : 0);
  const rates = { kill: rate(0.9), printer: rate(0.5), link: rate(0.5) };
  const printerKinds = PRINTER_JOBS.filter((j) => j !== 'ok' && chance(rng, 0.8));
  const linkKinds = AUTHORITY_FAULTS.filter((f) => f !== 'ok' && chance(rng, 0.8));
  return { rates, printerKinds, linkKinds };
}

export function note(run: TicketRun, s: string): void {
  run.trace.push(`#${run.step} ${s}`);
}

export function fault(run: TicketRun, k: string): void {
  run.faults[k] = (run.faults[k] ?? 0) + 1;
  note(run, `FAULT ${k}`);
}

/** A table of the floor, drawn. */
export function pickSite(run: TicketRun, floor: TicketFloor): TableSite {
  return floor.sites[run.rng.below(floor.sites.length)] ?? (floor.sites[0] as TableSite);
}

/** A station, drawn. */
export function pickStation(run: TicketRun): number {
  return STATIONS[run.rng.below(STATIONS.length)] ?? 1;
}
