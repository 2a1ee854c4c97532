import { stationOf } from '../../protocol/index.js';
import type { RemoteAcceptors } from '../devices/remote-acceptors.js';
import type { RemoteStationConnections } from '../screens/station-connections.js';
import type { ViewHub } from '../screens/view-hub.js';
import type { StadiumService } from '../service/backend/deps.js';
import type { EnrolmentFile } from '../stadium/enrolment-file.js';
import type { RemoteStations } from '../stadium/remote-stations.js';
import type { TableCertificate } from '../stadium/table-certificate.js';

/** The remote stations as they are once the listeners are open: what service mode asks of them. */
export interface OpenStadium {
  lanOrigin: string | null;
  certificate: TableCertificate | null;
  remoteStations: RemoteStations;
  connections: RemoteStationConnections;
  remoteAcceptors: RemoteAcceptors;
  enrol(station: number, by: [string, string]): EnrolmentFile;
}

/**
 * Service mode is made before the LAN listener (whose address and certificate it shows) exists:
 * it is handed this, which answers once `open` is given the remote stations as they are. Nothing
 * asks before the start ends; a question before then is a mistake of the start's order and throws.
 */
export function lateStadium(hub: ViewHub): { service: StadiumService; open(stadium: OpenStadium): void } {
  let s: OpenStadium | null = null;
  const opened = (): OpenStadium => {
    if (!s) throw new Error('the remote stations were asked for before the start opened them');
    return s;
  };
  return {
    service: {
      lan: () => opened().lanOrigin,
      fingerprint: () => opened().certificate?.fingerprint ?? null,
      stations: () => hub.remoteViews().flatMap((v) => stationOf(v) ?? []),
      enrolledAt: (station) => opened().remoteStations.current(station)?.enrolledAt ?? null,
      screenConnected: (station) => opened().connections.connected().includes(station),
      acceptorConnected: (station) => opened().remoteAcceptors.connected(station),
      enrol: (station, by) => JSON.stringify(opened().enrol(station, by), null, 1),
      revoke: (station, by) => opened().remoteStations.revoke(station, by),
    },
    open(stadium) {
      s = stadium;
    },
  };
}
