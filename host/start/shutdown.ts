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
  /** The table's clock against the upstream's, looked at every 10 s (host/floor/floor-clock-watch.ts). */
  clockWatch: { stop(): void };
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
 * table), then service mode (whoever is signed in is journalled out before the ledger closes, and
 * the exits the journal refused while the host ran are tried once more, else logged),
 * the listeners, the devices, the service accounts' database once no request can reach it, then
 * the ledger and the data folder, and last the log file: nothing of the folder is left open, no
 * WAL beside a database (issue 52 item 6; tests/host/clean-shutdown.test.ts).
 *
 * Each step runs whatever the one before did, its failure logged: service mode's exits refused by
 * a full journal rejected the whole shutdown, and the devices, the ledger, the folder's lock and
 * the log were never closed (host/start/shutdown-steps.test.ts). Never rejects.
 */
export async function shutdown(s: Started): Promise<void> {
  const log = s.opened.log;
  const steps: [string, () => unknown][] = [
    ['the count of faults', () => s.stopCountingTilts()],
    ['the disk watch', () => s.disk.stop()],
    ['the table clock watch', () => s.clockWatch.stop()],
    ["the ledger file's check", () => s.ledgerCheck.stop()],
    ['the simulated players', () => s.devices.autoplay?.stop()],
    ['the attendant', () => s.devices.stopAttendant()],
    ['the dealer', () => s.devices.stopDealer()],
    ['the floor services', () => s.floor.close()],
    ['the table', () => s.table.stop()],
    // Whoever is signed in to service mode is journalled out before the ledger closes.
    ['service mode', () => s.service.stop()],
    // Exits the journal refused while the host ran (held): once more before the ledger closes, or logged.
    ["service mode's held exits", () => s.serviceBackend.sessions.journalHeldAtStop()],
    ["service mode's backend", () => s.serviceBackend.dispose()],
    ['the remote acceptors', () => s.remoteAcceptors.closeAll()],
    ['the transfers', () => s.transfers?.stop()],
    ['the edges', () => s.edges?.close()],
    ['the LAN listener', () => s.lan?.close()],
    ['the HTTP server', () => s.server.close()],
    // No screen is left to refuse: the counts still held back are said.
    ["the screens' refusals", () => s.closeRefusals()],
    ['the shoe', () => s.shoe.close()],
    ['the SAS links', () => s.devices.sas.close()],
    ['the bill acceptors', () => s.rt.billAcceptors.close()],
    ['the printers', () => s.devices.printers.close()],
    // No device is left to speak: a clear still waiting is dropped, the fault restored at the next start.
    ['the faults', () => s.rt.tilts.close()],
    ['the service accounts', () => s.accounts.close()],
    ['the ledger and the data folder', () => s.opened.release()],
  ];
  let failed = 0;
  for (const [what, step] of steps)
    try {
      await step();
    } catch (err) {
      failed++;
      log.error({ err, what }, 'the host stopping: a step failed; the others still run');
    }
  log.info({ failed }, 'table host stopped');
  try {
    log.flush();
    await s.opened.closeLog();
  } catch (err) {
    // The log itself failed: said where the supervisor's journal reads it.
    console.error('the host stopping: its log could not be closed', err);
  }
}
