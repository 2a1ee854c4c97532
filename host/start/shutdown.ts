import type { RemoteAcceptors } from '../devices/remote-acceptors.js';
import type { TableShoe } from '../devices/shoe.js';
import type { FloorServices } from '../floor/floor-services.js';
import type { AccountStore } from '../service/accounts.js';
import type { ServiceHost } from '../service/service-host.js';
import type { LiveServiceBackend } from '../service/backend/live-backend.js';
import type { LiveTable } from '../table/runtime.js';
import type { RunningDevices } from './devices.js';
import type { Opened } from './opened.js';
import type { TableRuntime } from './table-runtime.js';

/** Everything the host started, in the order `shutdown` stops it. */
export interface Started {
  stopCountingTilts: () => void;
  disk: { stop(): void };
  /** The ledger file's check in the background: a check running is ended (its worker holds the file). */
  ledgerCheck: { stop(): Promise<void> };
  devices: RunningDevices;
  floor: FloorServices;
  table: LiveTable;
  service: ServiceHost;
  serviceBackend: LiveServiceBackend;
  /** The service accounts' own database (service-accounts.sqlite). */
  accounts: AccountStore;
  remoteAcceptors: RemoteAcceptors;
  /** The transfers with peer tables: their links and tick (none without peers). */
  transfers: { stop(): void } | null;
  lan: { close(): Promise<void> } | null;
  /** The edges' bridge and NATS server (none without edges). */
  edges: { close(): Promise<void> } | null;
  server: { close(): Promise<void> };
  shoe: TableShoe;
  /** The seated acceptors; the faults, whose clear still waiting is dropped (host/tilts/tilt-manager.ts `close`). */
  rt: Pick<TableRuntime, 'billAcceptors' | 'tilts'>;
  /** The log; `release` (the sync, the witness, the ledger, the power marker, the folder) and `closeLog`. */
  opened: Pick<Opened, 'release' | 'closeLog' | 'log'>;
  /** Says the screens' refusals still held back (host/screens/refusal-log.ts). */
  closeRefusals: () => void;
}

/**
 * The host stopped: what makes rounds first (simulated players, the dealer, the floor, the
 * table), then service mode (whoever is signed in is journalled out before the ledger closes),
 * the listeners, the devices, the service accounts' database once no request can reach it, then
 * the ledger and the data folder, and last the log file: nothing of the folder is left open, no
 * WAL beside a database (issue 52 item 6; tests/host/clean-shutdown.test.ts).
 */
export async function shutdown(s: Started): Promise<void> {
  s.stopCountingTilts();
  s.disk.stop();
  await s.ledgerCheck.stop();
  s.devices.autoplay?.stop();
  s.devices.stopAttendant();
  s.devices.stopDealer();
  s.floor.close();
  s.table.stop();
  // Whoever is signed in to service mode is journalled out before the ledger closes.
  s.service.stop();
  s.serviceBackend.dispose();
  s.remoteAcceptors.closeAll();
  s.transfers?.stop();
  await s.edges?.close();
  await s.lan?.close();
  await s.server.close();
  // No screen is left to refuse: the counts still held back are said.
  s.closeRefusals();
  await s.shoe.close();
  await s.devices.sas.close();
  await s.rt.billAcceptors.close();
  await s.devices.printers.close();
  // No device is left to speak: a clear still waiting is dropped, the fault restored at the next start.
  s.rt.tilts.close();
  s.accounts.close();
  await s.opened.release();
  s.opened.log.info('table host stopped');
  s.opened.log.flush();
  await s.opened.closeLog();
}
