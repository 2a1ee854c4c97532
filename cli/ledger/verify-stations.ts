import { existsSync } from 'node:fs';
import path from 'node:path';
import { auditCredentials, ledgerStationJournal } from '../../host/stadium/credential-journal.js';
import { REMOTE_STATIONS_FILE, RemoteStations } from '../../host/stadium/remote-stations.js';
import type { Ledger } from '../../ledger/index.js';

/** What `etg ledger verify` says of the remote stations' credentials: what it checked, and each station that differs. */
export interface StationsReport {
  checked: string;
  problems: string[];
}

/**
 * The remote stations' registry of the data folder (`remote-stations.json`) against the journal's
 * `station.credential` entries (host/stadium/credential-journal.ts): each credential in force must
 * be the one journalled. Read only: a registry never journalled is reported, not adopted (the
 * host adopts it at its next start).
 */
export function verifyStations(dataDir: string, ledger: Ledger): StationsReport {
  const journal = ledgerStationJournal(ledger).read();
  if (!existsSync(path.join(dataDir, REMOTE_STATIONS_FILE))) {
    const enrolled = [...journal.inForce.values()].filter((c) => c !== null).length;
    return enrolled > 0
      ? {
          checked: 'remote stations against the journal',
          problems: [`remote stations: the journal has ${enrolled} enrolled, and there is no ${REMOTE_STATIONS_FILE}`],
        }
      : { checked: 'remote stations: none in this folder', problems: [] };
  }
  const registry = new RemoteStations(path.join(dataDir, REMOTE_STATIONS_FILE)).list().filter((s) => s.revokedAt === undefined);
  if (!journal.any) return { checked: `remote stations (${registry.length}): not journalled yet (the host adopts them at its next start)`, problems: [] };
  const audit = auditCredentials(registry, journal);
  const unkeyed =
    audit.keyNotJournalled.size > 0
      ? `; ${audit.keyNotJournalled.size} with a proof key journalled before it was in the digest (not used: enrol again to connect through an edge)`
      : '';
  return { checked: `remote stations (${registry.length}) against the journal${unkeyed}`, problems: [...audit.problems.values()] };
}
