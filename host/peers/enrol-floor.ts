import { mkdirSync } from 'node:fs';
import type { TableId } from '../../terms/transfer-terms.js';
import { tableCertificate } from '../stadium/table-certificate.js';
import { writePeers, type Peer } from './peer-config.js';
import { PeerCredentials } from './peer-credentials.js';

/** One table of a floor whose data folders are all on this machine (tests, the soak, the bench). */
export interface FloorTable {
  readonly table: TableId;
  readonly dataDir: string;
  /** Its LAN listener: `https://host:port`. */
  readonly url: string;
  /** The remote stations homed at this table. */
  readonly stations: readonly number[];
}

/**
 * Enrols every table of a floor with every other, as their operators would one pair at a time:
 * each table's certificate made (the one its LAN listener will serve), each table enrolling
 * each other (a secret, kept hashed) and handing it the secret with its address and certificate
 * pinned, written into that table's `peers.json`. Only for folders on one machine.
 */
export async function enrolFloor(tables: readonly FloorTable[], options: { tickMs?: number; recallAfterSeconds?: number } = {}): Promise<void> {
  const certs = new Map<TableId, Awaited<ReturnType<typeof tableCertificate>>>();
  for (const t of tables) {
    mkdirSync(t.dataDir, { recursive: true });
    certs.set(t.table, await tableCertificate(t.dataDir, t.table, [new URL(t.url).hostname]));
  }
  // What each table is handed by the others: per table, its peers.
  const given = new Map<TableId, Peer[]>(tables.map((t) => [t.table, []]));
  for (const t of tables) {
    const credentials = PeerCredentials.inDataDir(t.dataDir);
    const cert = certs.get(t.table);
    if (!cert) throw new Error(`no certificate for ${t.table}`);
    for (const other of tables) {
      if (other.table === t.table) continue;
      const secret = credentials.enrol(other.table);
      given
        .get(other.table)
        ?.push({ enrolment: { table: t.table, url: t.url, certificate: cert.cert, fingerprint: cert.fingerprint, secret }, stations: [...t.stations] });
    }
  }
  for (const t of tables) writePeers(t.dataDir, { v: 1, peers: given.get(t.table) ?? [], ...options });
}
