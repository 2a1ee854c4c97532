import { TableId } from '../../ledger/transfer-terms.js';
import { REMOTE_STATION_BASE } from '../../protocol/index.js';
import { HostTransfers } from '../peers/host-transfers.js';
import { readPeers } from '../peers/peer-config.js';
import { PeerCredentials } from '../peers/peer-credentials.js';
import { auditPeers } from '../peers/peer-journal.js';
import type { LiveTable } from '../table/runtime.js';
import { LedgerTransferJournal } from '../transfers/ledger-journal.js';
import type { Opened } from './opened.js';

/**
 * The table's transfers with its peer tables (issue 34), when its data folder names peers
 * (`peers.json`): the transfer protocol over the table's own ledger, its links, its tick. None
 * without peers. Started once the LAN listener (which takes the peers' links) is open.
 */
export function openTransfers(
  dataDir: string,
  { config, ledger, log }: Pick<Opened, 'config' | 'ledger' | 'log'>,
  table: LiveTable,
  fault: (detail: string) => void,
): HostTransfers | null {
  const file = readPeers(dataDir);
  if (!file) return null;
  const credentials = PeerCredentials.inDataDir(dataDir);
  // The files are checked against the journal's peer.credential entries (issue 50): a peer swapped
  // or added in them while the host was stopped is neither dialled nor let in, and is a fault.
  const problems = auditPeers(ledger, file.peers, (t) => credentials.secretSha256(t));
  for (const t of credentials.tables())
    if (!file.peers.some((p) => p.enrolment.table === t)) problems.set(t, `peer table ${t}: may dial this host, but is no peer of its peers.json`);
  for (const [t, problem] of problems) {
    credentials.withhold(t);
    log.error({ peer: t, problem }, 'peer table refused: the data folder says what the journal does not');
  }
  if (problems.size > 0) fault([...problems.values()].slice(0, 8).join('; '));
  const peers = { ...file, peers: file.peers.filter((p) => !problems.has(p.enrolment.table)) };
  const transfers = new HostTransfers({
    self: TableId.parse(config.tableId),
    currency: config.currency,
    journal: new LedgerTransferJournal(ledger),
    peers,
    stations: Array.from({ length: config.remoteStations }, (_, i) => REMOTE_STATION_BASE + 1 + i),
    credentials,
    log,
    // The engine's own question (chips on a spot, or a bet in the round being dealt): a settled
    // round's bets, kept in the state while its results are shown, no longer hold the credit.
    betsInPlay: (station) => table.hasBets(station),
  });
  log.info({ peers: peers.peers.map((p) => p.enrolment.table) }, 'transfers with peer tables');
  return transfers;
}
