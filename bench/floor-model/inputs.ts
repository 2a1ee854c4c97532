// What the floor model is fed: figures the benches measured on one table host, each with where it
// came from, and the assumptions that no bench measures yet, named as such. A run may replace any
// of them (`--inputs FILE.json`, the same shape), e.g. with figures measured on the target hardware.
import { z } from 'zod';

/** One stadium bench size: what a table host did per coup with that many remote stations. */
export const MeasuredSize = z.strictObject({
  stations: z.number().int().positive(),
  /** The host's CPU time per coup, ms (`host CPU per coup`). */
  hostCpuMsPerCoup: z.number().positive(),
  /** The host's own part of a card: read → journal commit → public round → last socket written, ms. */
  cardHostP50Ms: z.number().positive(),
  cardHostP99Ms: z.number().positive(),
  /** Bytes sent per station per coup (all messages). */
  bytesPerStationPerCoup: z.number().positive(),
  /** Resident memory per station, KiB. */
  rssKiBPerStation: z.number().positive(),
});
export type MeasuredSize = z.infer<typeof MeasuredSize>;

export const FloorInputs = z.strictObject({
  /** Where the figures come from (commit, date, machine, load): printed with every run. */
  source: z.string().min(1),
  sizes: z.array(MeasuredSize).min(2),
  /** Ledger entries per station per coup (its `bet.place`; measured: bets per station per coup). */
  entriesPerStationPerCoup: z.number().nonnegative(),
  /** Entries per coup whatever the stations (the cards, open and close, the settlement). */
  entriesPerCoup: z.number().nonnegative(),
  /** What the upstream service ingests, entries per second (`npm run bench -- sync`). */
  upstreamEntriesPerSecond: z.number().positive(),
  /** The cores of a table host's machine. */
  hostCores: z.number().int().positive(),
  /** The floor's LAN, Mbit/s. */
  lanMbit: z.number().positive(),
  /** An assumption until measured: one hop host → broker → edge on the LAN, ms. */
  brokerHopMs: z.number().nonnegative(),
});
export type FloorInputs = z.infer<typeof FloorInputs>;

/**
 * The figures of docs/stadium.md, "Issue 30: protocol 4 and group commit" (2026-11-24, the code
 * after, 2 shared cores at a load average of 14–23, so every time is pessimistic for an idle
 * machine), the sync bench of docs/benchmarks.md, and the assumptions named below.
 */
export const MEASURED: FloorInputs = {
  source:
    'stadium bench 2026-11-24 (protocol 4, group commit; 2 cores, load 14–23), sync bench 10,779 entries/s; assumed: 10 entries a coup besides the bets, a 0.5 ms broker hop, a 1 Gbit/s LAN',
  sizes: [
    { stations: 250, hostCpuMsPerCoup: 535.8, cardHostP50Ms: 36.2, cardHostP99Ms: 166.5, bytesPerStationPerCoup: 3.06 * 1024, rssKiBPerStation: 1147.1 },
    { stations: 500, hostCpuMsPerCoup: 784.6, cardHostP50Ms: 58.8, cardHostP99Ms: 240.1, bytesPerStationPerCoup: 3.01 * 1024, rssKiBPerStation: 891.6 },
  ],
  // 246 bets a coup from 250 stations, 475 from 500: about 0.97 `bet.place` a station a coup.
  entriesPerStationPerCoup: 0.97,
  entriesPerCoup: 10,
  upstreamEntriesPerSecond: 10_779,
  hostCores: 2,
  lanMbit: 1000,
  brokerHopMs: 0.5,
};
