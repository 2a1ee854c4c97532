import { isRemote } from '../../engine/table/state.js';
import { enrolmentFor, type EnrolmentFile } from '../stadium/enrolment-file.js';
import type { RemoteStations } from '../stadium/remote-stations.js';
import type { TableCertificate } from '../stadium/table-certificate.js';
import type { LiveTable } from '../table/runtime.js';
import { actDetailSaid, serviceActionEntry } from '../service/backend/service-journal.js';
import type { Opened } from './opened.js';

/**
 * Enrols a remote station (two people named, journalled) and returns what its machine is given,
 * once: its credential, the table's LAN address and the certificate it pins.
 */
export function enroller(
  { config, ledger }: Pick<Opened, 'config' | 'ledger'>,
  w: { lanOrigin: string | null; certificate: TableCertificate | null; table: LiveTable; remoteStations: RemoteStations },
): (station: number, by: [string, string]) => EnrolmentFile {
  const { lanOrigin, certificate } = w;
  return (station, by) => {
    if (!lanOrigin || !certificate) throw new Error('this table takes no remote stations (remoteStations in its configuration)');
    if (!isRemote(w.table.state.params, station)) throw new Error(`station ${station} is not one of this table's remote stations`);
    const credential = w.remoteStations.enrol(station, by);
    // Said by key (the event log reads it in the screen's language), its English beside it.
    ledger.append(serviceActionEntry(by, 'station-enrol', actDetailSaid('actStationEnrol', { station, fingerprint: certificate.fingerprint })));
    return enrolmentFor(credential, { tableId: config.tableId, lanOrigin, certificate: certificate.cert, fingerprint: certificate.fingerprint });
  };
}
