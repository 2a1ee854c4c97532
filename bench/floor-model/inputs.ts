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
 * The figures of docs/stadium.md, "Issue 30, 25 November (night)": the stadium bench as it is
 * (protocol 6, group commit, the card measured to its own version), 300 card reads a size on 2
 * shared cores at a load average of 1.4–2.5; the sync bench of docs/benchmarks.md; and the
 * assumptions named below.
 */
export const MEASURED: FloorInputs = {
  source:
    'stadium bench 2026-11-25 (protocol 6, group commit; 250 and 1,000 stations, 300 card reads each; 2 cores, load 1.4–2.5), sync bench 10,779 entries/s; assumed: 10 entries a coup besides the bets, a 0.5 ms broker hop, a 1 Gbit/s LAN',
  sizes: [
    { stations: 250, hostCpuMsPerCoup: 368, cardHostP50Ms: 7.9, cardHostP99Ms: 13.9, bytesPerStationPerCoup: 1.55 * 1024, rssKiBPerStation: 989 },
    { stations: 1000, hostCpuMsPerCoup: 603, cardHostP50Ms: 26.5, cardHostP99Ms: 38.1, bytesPerStationPerCoup: 1.23 * 1024, rssKiBPerStation: 473 },
  ],
  // 229 bets a coup from 250 stations (two notes each), 191 from 1,000 (one note each): 0.92 and 0.19
  // `bet.place` a station a coup; the larger, with every station in funds, is the one assumed.
  entriesPerStationPerCoup: 0.92,
  entriesPerCoup: 10,
  upstreamEntriesPerSecond: 10_779,
  hostCores: 2,
  lanMbit: 1000,
  brokerHopMs: 0.5,
};
