import { isRemote } from '../../engine/table/state.js';
import { relayOnlyFor, type BuildKind } from '../config/build-kind.js';
import { remoteAcceptorProtocol } from '../config/table-config.js';
import { NOTE_FACE_VALUES } from '../../hardware/billacceptor/notes.js';
import { RemoteAcceptors } from '../devices/remote-acceptors.js';
import { RemoteSas } from '../devices/remote-sas.js';
import { RemoteStationConnections } from '../screens/station-connections.js';
import { ledgerStationJournal } from '../stadium/credential-journal.js';
import { RemoteStations } from '../stadium/remote-stations.js';
import { onBillAcceptorEvent } from '../tilts/tilt-sources.js';
import type { Opened } from './opened.js';
import type { TableRuntime } from './table-runtime.js';

/**
 * Remote stations: enrolled in service mode, each with its own credential, reaching the host
 * over TLS on the configured LAN address (the table's certificate, which the enrolment pins).
 * Checked against the journal's station.credential entries: a credential swapped in the file connects no more.
 */
export function openRemoteStations(
  dataDir: string,
  { config, ledger, log }: Pick<Opened, 'config' | 'ledger' | 'log'>,
  { credits, table, tilts, billAcceptors }: Pick<TableRuntime, 'credits' | 'table' | 'tilts' | 'billAcceptors'>,
  build: BuildKind,
): { remoteStations: RemoteStations; connections: RemoteStationConnections; remoteAcceptors: RemoteAcceptors; remoteSas: RemoteSas } {
  const remoteStations = RemoteStations.inDataDir(dataDir, ledgerStationJournal(ledger), log);
  for (const problem of remoteStations.problems()) log.error({ problem }, 'remote station refused: its registry row differs from the journal');
  const connections = new RemoteStationConnections(remoteStations);
  // The remote stations' SAS lines, relayed by their agents (docs/sas.md, "Remote stations").
  const remoteSas = new RemoteSas(new Set(config.remoteSas.map((r) => r.station)), log);
  const remoteAcceptors = new RemoteAcceptors({
    sas: remoteSas,
    ledger,
    log,
    credits,
    stations: remoteStations,
    hasStation: (station) => isRemote(table.state.params, station),
    accepted: () => config.denominations ?? NOTE_FACE_VALUES[config.currency],
    onEvent: (station, e) => onBillAcceptorEvent(tilts, station, e),
    // A relaying agent's acceptor is driven here, by the seated stations' code.
    relayed: billAcceptors,
    notes: billAcceptors.notes,
    // Relay only in a production build (issue 50); an agent that runs the driver is for tests.
    relayOnly: relayOnlyFor(config.remoteAcceptors.relayOnly, build),
    ...(config.remoteAcceptors.esspFixedKey ? { esspFixedKey: BigInt(`0x${config.remoteAcceptors.esspFixedKey}`) } : {}),
    // The acceptor's protocol is the configuration's: ssp only where the table holds the eSSP key.
    protocolOf: (station) => remoteAcceptorProtocol(config, station),
  });
  return { remoteStations, connections, remoteAcceptors, remoteSas };
}
