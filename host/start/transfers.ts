import { TableId } from '../../terms/transfer-terms.js';
import { remoteStationNumbers } from '../../engine/table/vocabulary.js';
import { HostTransfers } from '../peers/host-transfers.js';
import { readPeersOrNull } from '../peers/peer-config.js';
import { PeerCredentials } from '../peers/peer-credentials.js';
import type { PeerRegistry } from '../peers/peer-registry.js';
import type { LiveTable } from '../table/runtime.js';
import type { TiltManager } from '../tilts/tilt-manager.js';
import { LedgerTransferJournal } from '../transfers/ledger-journal.js';
import type { Opened } from './opened.js';

/**
 * The table's transfers with its peer tables (issue 34), when its data folder names peers
 * (`peers.json`): the transfer protocol over the table's own ledger, its links, its tick. None
 * without peers. Started once the LAN listener (which takes the peers' links) is open. The peer
 * files are checked against the journal whether or not they are there (a peer removed from them
 * while the host was stopped is a fault too), at start and before every transfer step.
 */
export function openTransfers(
  dataDir: string,
  { config, ledger, log }: Pick<Opened, 'config' | 'ledger' | 'log'>,
  table: LiveTable,
  registry: PeerRegistry,
  tilts: Pick<TiltManager, 'list'>,
): HostTransfers | null {
  // The files are checked against the journal's peer.credential entries (issue 50): a peer swapped,
  // added or removed in them is neither dialled nor let in, and is a fault.
  const guard = registry.guard;
  // Unreadable (cut short by a power cut, say): the peers refused and the fault raised by the guard, the table started all the same.
  const problems = guard.check();
  const file = readPeersOrNull(dataDir);
  if (!file) return null;
  const credentials = PeerCredentials.inDataDir(dataDir);
  for (const t of problems.keys()) credentials.withhold(t);
  const peers = { ...file, peers: file.peers.filter((p) => !problems.has(p.enrolment.table)) };
  const transfers = new HostTransfers({
    self: TableId.parse(config.tableId),
    currency: config.currency,
    journal: new LedgerTransferJournal(ledger),
    peers,
    stations: remoteStationNumbers(config.remoteStations),
    credentials,
    log,
    // The engine's own question (chips on a spot, or a bet in the round being dealt): a settled
    // round's bets, kept in the state while its results are shown, no longer hold the credit.
    betsInPlay: (station) => table.reads.hasBets(station),
    admits: (peer) => guard.allows(peer),
    creditLimit: () => config.creditLimit,
    // The casino system's AFT game lock (host/devices/sas-aft-lock.ts) is the station's fault while it holds.
    locked: (station) => tilts.list().some((t) => t.kind === 'sas-aft-locked' && t.station === station),
  });
  // A peer removed by two people in service mode: its link closed, its credential forgotten, at once.
  registry.onRevoke((t) => transfers.drop(t));
  // One enrolled by two people: dialled at once, let in with the credential its files now hold.
  registry.onEnrol((p) => transfers.enrol(p));
  // A peer's credential to dial this host made anew or withdrawn: taken at once, its link in closed.
  registry.onDialIn((t) => transfers.dialIn(t));
  registry.attachLinks((t) => transfers.linkState(t));
  registry.attachOpenTransfers((t) => transfers.openTo(t));
  // Two people settle an open transfer no answer will close (disputed, or its receiver gone).
  registry.attachSettlements(transfers);
  log.info({ peers: peers.peers.map((p) => p.enrolment.table) }, 'transfers with peer tables');
  return transfers;
}
