import type { Logger } from 'pino';
import type { Ledger, SyncAlarm, SyncClient, WitnessAlarm, WitnessLink } from '../../ledger/index.js';
import type { TableConfig } from '../config/table-config.js';
import type { FloorClock } from '../tickets/floor-clock.js';
import type { ProgramLayout, ProgramManifest } from '../service/program-hash.js';

/** What the witness signals, routed to the tilts once they exist (host/start/signals.ts). */
export interface WitnessEvents {
  stop: (stop: boolean) => void;
  alarm: (alarm: WitnessAlarm) => void;
}

/** What the sync client signals, routed once the table exists; `clean`: the previous run stopped cleanly. */
export interface SyncEvents {
  stopNewBets: (stop: boolean) => void;
  clean: boolean;
  /** The heartbeat's health snapshot: /healthz's body, once the table exists. */
  health: () => unknown;
  /** The back office's configuration orders as the upstream answered them (host/floor/remote-config.ts), once the table exists. */
  configOrders: (answer: unknown) => void;
  /** The sync client's alarms (a receipt that does not verify: `bad-receipt`), once the table exists. */
  alarm: (alarm: SyncAlarm) => void;
  /** The upstream's time as its heartbeat's answers said it (host/tickets/floor-clock.ts): kept from the start, never routed. */
  clock: FloorClock;
}

/** What the start hands the wiring once the data folder is locked and the ledger open (start-host.ts). */
export interface Opened {
  log: Logger;
  config: TableConfig;
  terminalId: string;
  ledger: Ledger;
  sync: SyncClient | null;
  witness: WitnessLink | null;
  witnessEvents: WitnessEvents;
  /** Closes the log file the host opened (none when it was given a logger): the last act of a stop. */
  closeLog: () => Promise<void>;
  syncEvents: SyncEvents;
  /** The upstream's time as the sync's heartbeat and the ticket authority heard it: no ticket on a clock it contradicts (docs/tito.md). */
  floorClock: FloorClock;
  layout: ProgramLayout;
  manifest: ProgramManifest;
  softwareVersion: string;
}
