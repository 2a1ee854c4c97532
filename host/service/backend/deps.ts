import type { i18n } from 'i18next';
import type { Logger } from 'pino';
import type { Ledger, SyncClient } from '../../../ledger/index.js';
import type { TableConfig } from '../../config/table-config.js';
import type { BillAcceptors } from '../../devices/bill-acceptors.js';
import type { Printers } from '../../devices/printers.js';
import type { TableShoe } from '../../devices/shoe.js';
import type { FloorServices } from '../../floor/floor-services.js';
import type { LiveTable } from '../../table/runtime.js';
import type { ServicePage } from '../../../protocol/index.js';
import type { ProgramLayout, ProgramManifest } from '../program-hash.js';

/** What the live service backend reads and drives: the host's services, handed in by start-host.ts. */
export interface LiveBackendDeps {
  config: TableConfig;
  ledger: Ledger;
  table: LiveTable;
  billAcceptors: BillAcceptors;
  /** The stations' ticket printers (the Tickets page); absent: none. */
  printers?: Pick<Printers, 'statuses' | 'onChange'>;
  shoe: TableShoe;
  sync: SyncClient | null;
  /** Faults, handpays and configuration changes (host/stations/floor.ts). */
  floor: FloorServices;
  log: Logger;
  /** The host's words (the printable report): one i18next instance over the screens' catalogues. */
  i18n: i18n;
  softwareVersion: string;
  /** The files of the running program and their manifest at start (journalled in power.reset). */
  program: { layout: ProgramLayout; atStart: ProgramManifest };
  /** How long a note or card test waits for the technician (ms). */
  testTimeoutMs?: number;
  now?: () => number;
  /** The remote stations: their credentials, links and enrolment (host/stadium); absent: none. */
  stadium?: StadiumService;
  /** The peer tables' files, changed by two people (host/peers/peer-registry.ts); absent: none. */
  peers?: PeerService;
}

/** What service mode does with the peer tables (start-host.ts wires host/peers/peer-registry.ts). */
export interface PeerService {
  /** `refusal`: why an enrolment file was refused (host/peers/peer-offer.ts), worded by the screen. */
  add(
    enrolment: string,
    stations: readonly number[],
    by: readonly [string, string],
  ): { ok: true; table: string } | { ok: false; detail: string; refusal: string };
  /**
   * `reason` of a refusal (host/peers/peer-registry.ts `CREDENTIAL_REFUSALS`), worded by the screen
   * (`service.peers.refused.*`). `unwritten` (here and below): journalled and in force in this run,
   * the peer files not written (a full disk): the peer stays refused until the change is made again.
   */
  revoke(table: string, by: readonly [string, string]): { ok: true; table: string; unwritten?: string } | { ok: false; detail: string; reason: string };
  /** This table's enrolment file for the peer `table`: a new credential it dials this table with, journalled; the file (with the secret) returned once. */
  issue(
    table: string,
    by: readonly [string, string],
  ): { ok: true; table: string; file: string; unwritten?: string } | { ok: false; detail: string; reason: string };
  /** The credential `table` dials this table with, revoked (journalled); its link in closes. */
  withdraw(table: string, by: readonly [string, string]): { ok: true; table: string; unwritten?: string } | { ok: false; detail: string; reason: string };
  /** `reason` of a refusal (host/peers/peer-registry.ts `SettlementRefusal`), worded by the screen (`service.peers.settleRefused.*`). */
  settle(
    serial: number,
    as: 'completed' | 'reversed',
    reference: string,
    by: readonly [string, string],
  ): { ok: true } | { ok: false; detail: string; reason: string };
  /** Each peer table the files or the journal name, its links, and why it is refused if it is. */
  list(): Omit<Extract<ServicePage, { page: 'peers' }>, 'page'>;
}

/** What service mode does with the remote stations (start-host.ts wires it). */
export interface StadiumService {
  /** `https://host:port`, null without remote stations. */
  lan(): string | null;
  fingerprint(): string | null;
  /** The remote station numbers the table takes. */
  stations(): number[];
  enrolledAt(station: number): string | null;
  screenConnected(station: number): boolean;
  acceptorConnected(station: number): boolean;
  /** Enrols (journalled by the caller's two people) and returns the enrolment file's text. */
  enrol(station: number, by: [string, string]): string;
  revoke(station: number, by: [string, string]): boolean;
}
