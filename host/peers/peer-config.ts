import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { TableId } from '../../terms/transfer-terms.js';
import { StationNumber } from '../../protocol/index.js';
import { writeFileWhole } from '../../ledger/index.js';

/** The file beside the ledger that names this host's peers (owner-only: it holds their secrets for us). */
export const PEERS_FILE = 'peers.json';

/**
 * What a peer table's host gave this one when it enrolled it: where it listens, its certificate
 * pinned (the only trust anchor of the link; its SHA-256 must match), and the secret it knows this
 * host by. Like a remote station's enrolment file (host/stadium/enrolment-file.ts).
 */
export const PeerEnrolment = z.strictObject({
  /** The peer table's id: what it says it is in its welcome, and the link's name here. */
  table: TableId,
  /** Its LAN listener, `https://host:port`. */
  url: z.url({ protocol: /^https$/ }),
  certificate: z.string().min(100).max(20_000),
  fingerprint: z.string().regex(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/),
  secret: z.string().min(32).max(128),
});
export type PeerEnrolment = z.infer<typeof PeerEnrolment>;

/** One peer as this host is configured with it: its enrolment, and the stations whose home it is. */
export const Peer = z.strictObject({
  enrolment: PeerEnrolment,
  /** The remote stations homed at that table (their bill acceptor is its): a station listed under no peer is homed here. */
  stations: z.array(StationNumber).max(250),
});
export type Peer = z.infer<typeof Peer>;

/** The peers file's refusal of a remote station listed under two peer tables (the service screen words it: `stations-elsewhere`). */
export const STATION_HOMED_TWICE = 'a station is homed at two tables';

export const PeersFile = z
  .strictObject({
    v: z.literal(1),
    peers: z.array(Peer).max(16),
    /** How often the host asks again about its open transfers (default 1 s). */
    tickMs: z.number().int().min(50).max(60_000).optional(),
    /** How long a transfer may stay unanswered before its sender recalls it (default 60 s). */
    recallAfterSeconds: z.number().min(0.1).max(86_400).optional(),
  })
  .refine((f) => new Set(f.peers.map((p) => p.enrolment.table)).size === f.peers.length, { message: 'a peer table is listed twice' })
  .refine((f) => new Set(f.peers.flatMap((p) => p.stations)).size === f.peers.flatMap((p) => p.stations).length, {
    message: STATION_HOMED_TWICE,
  });
export type PeersFile = z.infer<typeof PeersFile>;

export function readPeers(dataDir: string): PeersFile | null {
  try {
    return PeersFile.parse(JSON.parse(readFileSync(path.join(dataDir, PEERS_FILE), 'utf8')));
  } catch (e) {
    if (e instanceof Error && 'code' in e && e.code === 'ENOENT') return null;
    throw e;
  }
}

/**
 * Whole or not at all: written to a temporary file (flushed to disk), then renamed over the old
 * one. Before, it was written in place, so a power cut during a two-person peer change (journalled
 * first, then the files written) could leave it cut short.
 */
export function writePeers(dataDir: string, peers: PeersFile): void {
  const file = path.join(dataDir, PEERS_FILE);
  writeFileWhole(file, JSON.stringify(PeersFile.parse(peers), null, 1));
}

/** `peers.json`, or null when there is none or it cannot be read (the peer guard refuses the peers then, and raises the fault). */
export function readPeersOrNull(dataDir: string): PeersFile | null {
  try {
    return readPeers(dataDir);
  } catch {
    return null;
  }
}

/** The home table of a station, as this host's peers say (this table when no peer lists it). */
export function homeOf(self: TableId, peers: readonly Peer[], station: number): TableId {
  return peers.find((p) => p.stations.includes(station))?.enrolment.table ?? self;
}
