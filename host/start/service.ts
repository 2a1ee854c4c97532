import type { TableShoe } from '../devices/shoe.js';
import type { FloorServices } from '../floor/floor-services.js';
import type { HostMetrics } from '../metrics/host-metrics.js';
import type { ViewHub } from '../screens/view-hub.js';
import { ledgerAccountJournal } from '../service/account-journal.js';
import { AccountStore } from '../service/accounts.js';
import type { StadiumService } from '../service/backend/deps.js';
import { PeerRegistry } from '../peers/peer-registry.js';
import { liveServiceBackend, type LiveServiceBackend } from '../service/backend/live-backend.js';
import { ServiceHost } from '../service/service-host.js';
import { createI18n } from '../../locales/i18n.js';
import type { HostOptions } from './host-options.js';
import type { Opened } from './opened.js';
import type { TableRuntime } from './table-runtime.js';
import type { StartStops } from './stops.js';

/**
 * Service mode's stops, newest first at the host's stop or a failed start: whoever is signed in
 * journalled out, then the exits the journal refused while the host ran (held) tried once more
 * before the ledger closes, else logged (host/start/shutdown-held-exits.test.ts), then its backend
 * (timers, listeners, tests waiting). Each its own step: one that throws (exits refused by a full
 * journal) leaves the others to run.
 */
export function serviceStops(
  stops: StartStops,
  service: Pick<ServiceHost, 'stop'>,
  backend: { dispose(): void; sessions: Pick<LiveServiceBackend['sessions'], 'journalHeldAtStop'> },
): void {
  stops.add('service', "service mode's backend", () => backend.dispose());
  stops.add('service', "service mode's held exits", () => backend.sessions.journalHeldAtStop());
  stops.add('service', 'service mode', () => service.stop());
}

/** Service mode: its backend over the host's services, and its sign-in, pages and two-person actions on the hub. */
export function startService(
  dataDir: string,
  options: HostOptions,
  o: Pick<Opened, 'config' | 'ledger' | 'sync' | 'log' | 'layout' | 'manifest' | 'softwareVersion'>,
  { table, billAcceptors, printers, timers, tilts }: Pick<TableRuntime, 'table' | 'billAcceptors' | 'printers' | 'timers' | 'tilts'>,
  w: {
    shoe: TableShoe;
    floor: FloorServices;
    hub: ViewHub;
    metrics: HostMetrics;
    stadium: StadiumService;
  },
  stops: StartStops,
): { service: ServiceHost; backend: LiveServiceBackend; accounts: AccountStore; peers: PeerRegistry } {
  const { config, ledger, log } = o;
  // Checked against the journal at start and at every sign-in; its locks run on the host's clock.
  // Its own database, closed at the host's stop (host/start/shutdown.ts). Opened first: a store
  // refused at open (damaged, from newer software, or its schema not its migrations':
  // ledger/sqlite-store.ts) stops the start with its reason, touching nothing; what the start
  // began before it (the disk-space timer, the ledger file's check) is stopped by `stops`.
  const accounts = new AccountStore(dataDir, {
    journal: ledgerAccountJournal(ledger),
    now: () => timers.now(),
    onPinCheck: (outcome) => w.metrics.pinChecked(outcome),
  });
  stops.add('accounts', 'the service accounts', () => accounts.close());
  // The peer files checked against the journal from here on (adopted at a folder's first start); two people change them in service mode.
  const peers = new PeerRegistry({
    dataDir,
    self: config.tableId,
    ledger,
    log,
    fault: (detail) => tilts.raise('peer-integrity', { detail }),
    // What this table's enrolment files for its peers give as its address: its LAN listener, on a fixed port.
    url: config.lan.port > 0 ? `https://${config.lan.host}:${config.lan.port}` : null,
    now: () => timers.now(),
  });
  // The program files were hashed at start (journalled in power.reset); service mode shows it and recomputes on demand.
  const backend = liveServiceBackend({
    config,
    ledger,
    table,
    billAcceptors,
    printers,
    shoe: w.shoe,
    sync: o.sync,
    floor: w.floor,
    log,
    i18n: createI18n(config.defaultLanguage),
    softwareVersion: o.softwareVersion,
    // The host's clock: an enrolment file's deadline, the exports' stamps.
    now: () => timers.now(),
    program: { layout: o.layout, atStart: o.manifest },
    stadium: w.stadium,
    peers,
    ...(options.service?.testTimeoutMs !== undefined ? { testTimeoutMs: options.service.testTimeoutMs } : {}),
  });
  const service = new ServiceHost({
    accounts,
    backend,
    timers,
    onRefused: (reason) => w.metrics.signInRefused(reason),
    log,
    ...(options.service?.idleMs !== undefined ? { idleMs: options.service.idleMs } : {}),
  });
  serviceStops(stops, service, backend);
  w.hub.attachService(service);
  return { service, backend, accounts, peers };
}
