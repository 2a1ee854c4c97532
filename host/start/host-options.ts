import type { DeviceLinkTiming } from '../server/lan-server.js';
import type { Logger } from 'pino';
import type { ViewName } from '../../protocol/index.js';
import type { DataFolderLock, FileCheckResult, Ledger, SyncClient, WitnessLink } from '../../ledger/index.js';
import type { Timings } from '../../engine/table/state.js';
import type { RoundPlan } from '../autoplay/round-script.js';
import type { BuildKind } from '../config/build-kind.js';
import type { TableConfig } from '../config/table-config.js';
import type { Printers } from '../devices/printers.js';
import type { BillAcceptors } from '../devices/bill-acceptors.js';
import type { RemoteAcceptors } from '../devices/remote-acceptors.js';
import type { TableShoe } from '../devices/shoe.js';
import type { TableEdges } from '../edges/table-edges.js';
import type { FloorServices } from '../floor/floor-services.js';
import type { ClientBudgetLimits } from '../logging/client-budget.js';
import type { RotationLimits } from '../logging/rotating-file.js';
import type { OutboxCounters } from '../screens/outbox.js';
import type { IncomingLimits, ScreenSession, ScreenTransport } from '../screens/screen-session.js';
import type { RemoteStationConnections } from '../screens/station-connections.js';
import type { ViewHub } from '../screens/view-hub.js';
import type { ServiceHost } from '../service/service-host.js';
import type { EnrolmentFile } from '../stadium/enrolment-file.js';
import type { HostTransfers } from '../peers/host-transfers.js';
import type { RemoteStations } from '../stadium/remote-stations.js';
import type { TableCertificate } from '../stadium/table-certificate.js';
import type { GroupCommit } from '../table/command-batch.js';
import type { RecoveryReport } from '../table/recover.js';
import type { LiveTable } from '../table/runtime.js';
import type { Timers } from '../table/timers.js';

export interface HostOptions {
  dataDir: string;
  /**
   * The data folder's lock when the caller took it already (`lockHostFolder`; `etg start` takes it
   * before its build): the host holds it from here on and releases it as it would its own.
   */
  folderLock?: DataFolderLock;
  /** The SAS links' silence and ACK timeouts (tests: seconds, not the protocol's 5 s and 30 s). */
  sasTiming?: { silenceMs?: number; ackTimeoutMs?: number; chirpMs?: number; handpayReissueMs?: number; systemValidationMs?: number };
  /** A station agent's device link's send buffer cap and ping interval (tests: a shorter ping; default DEVICE_LINK_TIMING). */
  deviceLink?: Partial<DeviceLinkTiming>;
  rendererDir: string;
  /** 0 picks a free port. */
  port?: number;
  config?: TableConfig;
  /** Which build this is (default: host/config/build-kind.ts's BUILD): a production one refuses the modes kept for tests. */
  build?: BuildKind;
  logger?: Logger;
  /** The size cap of `logs/host.log` and how many rotated files to keep (default 20 MiB, 5). */
  logRotation?: RotationLimits;
  /** Each client's log budget (host/logging/client-budget.ts); default CLIENT_BUDGET. */
  logClientBudget?: Partial<ClientBudgetLimits>;
  /** The bearer token of `/metrics` (Prometheus); without one the host serves no metrics. */
  metricsToken?: string;
  /** The terminal this kiosk is to the casino system (`--terminal-id`); default: the table id. */
  terminalId?: string;
  /** `--upstream URL`: sync the ledger to the casino's upstream service (credentials in the data dir). */
  upstream?: string;
  /**
   * `--witness SOCKET`: the ledger witness (witness/, docs/ledger.md "The witness"). The start
   * waits for it (`waitMs`, default 60 s) and does not start without it; the journal is checked
   * against the newest head it signed, it signs the checkpoints, and every new head goes to it.
   */
  witness?: { socket: string; waitMs?: number; limits?: { maxUnwitnessedEntries?: number; maxUnwitnessedSeconds?: number } };
  /** Simulated mode's dealer pulls each card this long after the table asks for it; false: none. */
  simulatedDealer?: { dealMs: number } | false;
  /** Seed of the simulated shoe's shuffles (reproducible sessions). */
  seed?: number;
  timers?: Timers;
  /** Opens the simulated devices' control channel (`POST /sim/insert-note`) for tests and demos. */
  simControls?: boolean;
  /** Simulated players at every station (`--autoplay`), seeded by `seed`. */
  autoplay?: boolean;
  /** Test only: the round timers, overriding the config's (whose minimums are for people). */
  timings?: Timings;
  /** Test only: SIGKILL the process after the K-th journal entry of its first round (host/recovery/kill-switch.ts). */
  killAfterRoundEntry?: number;
  /** Test only: the first round's cards, bets and decisions (host/autoplay/round-script.ts). */
  roundScript?: RoundPlan;
  /** Test only: the simulated shoe's cut card comes out after this many cards of each shoe (a shoe change every round or two). */
  simShoeCutCardAt?: number;
  /** Service mode: idle timeout, device test time-out (the two-person handpay amount is the table configuration's). */
  service?: { idleMs?: number; testTimeoutMs?: number };
  /** Benchmarks: each screen connection's send buffer (bytes in flight before latest-wins holds the rest). */
  sendBuffer?: number;
  /** Benchmarks: each screen connection's incoming rate limit (default INCOMING_LIMITS; a bench's client sends faster than a hand). */
  incoming?: IncomingLimits;
  /**
   * Station commands share durable commits within this window (default `GROUP_COMMIT`, 2 ms);
   * null: each is committed alone, as it comes (the bench's "before").
   */
  groupCommit?: GroupCommit | null;
}

/** The host's screens: where each is launched, the hub that builds their views, and their connections. */
export interface HostScreens {
  /** Each screen's URL, carrying its own launch token. */
  readonly urls: { view: ViewName; url: string; token: string }[];
  /** Every screen's view, built once per change. */
  readonly hub: ViewHub;
  /** A screen connection over any transport (WebSocket, Electron MessagePort), same rules for all. */
  open(transport: ScreenTransport): ScreenSession;
  /** What the screen connections sent, summed over every one opened (benchmarks). */
  sent(): { sessions: number; messages: number; bytes: number; superseded: number; kinds: OutboxCounters['kinds'] };
}

/** The table's own devices: the stations' bill acceptors and ticket printers, and the card-reading shoe. */
export interface HostDevices {
  readonly billAcceptors: BillAcceptors;
  /** The stations' ticket printers (`stations[].printer`); a `sim` one's simulator through `printers.simulator(station)`. */
  readonly printers: Printers;
  readonly shoe: TableShoe;
}

export interface RunningHost {
  origin: string;
  dataDir: string;
  /** The token of the simulated devices' control channel, when it is open. */
  simToken: string | null;
  screens: HostScreens;
  devices: HostDevices;
  ledger: Ledger;
  /** The table (its state machine's runtime). */
  table: LiveTable;
  sync: SyncClient | null;
  /** The link to the ledger witness, when the host has one. */
  witness: WitnessLink | null;
  /** Faults, handpays and configuration changes: the casino-floor APIs service mode calls. */
  floor: FloorServices;
  log: Logger;
  /** What the start-up recovery found: ledger verification, the round resumed or voided. */
  recovery: RecoveryReport;
  /** The whole ledger file's check in the background (host/tilts/ledger-file-watch.ts): the first one's result. */
  ledgerCheck: { first: Promise<FileCheckResult> };
  /** Service mode's view (sign-in, pages, two-person actions). */
  service: ServiceHost;
  /** The transfers of stations' credit with the peer tables (issue 34), when the data folder names peers (`peers.json`). */
  transfers: HostTransfers | null;
  /** Remote stations: their credentials, their acceptors, and the LAN listener (TLS) they reach the host on. */
  stadium: {
    stations: RemoteStations;
    acceptors: RemoteAcceptors;
    connections: RemoteStationConnections;
    /** `https://host:port` of the LAN listener, null when the table has no remote stations. */
    lanOrigin: string | null;
    certificate: TableCertificate | null;
    /** Enrols a remote station (two people named) and returns what its machine is given, once. */
    enrol(station: number, by: [string, string]): EnrolmentFile;
  };
  /** The table's NATS server and the host's bridge to its edges, when its configuration names edges. */
  edges: TableEdges | null;
  close(): Promise<void>;
}
