import type { DeviceRow, EventFilter, EventRow, Language, RecallRound, ServicePage, ServiceRole } from '../../protocol/index.js';
import type { CardCode } from '../../engine/cards/card.js';
import type { Correction, Uncorrectable } from '../../engine/table/vocabulary.js';
import type { EnrollingSession } from '../stadium/enrolment-downloads.js';

/**
 * What service mode needs from the rest of the host. The live implementation
 * (`backend/live-backend.ts`, composed of one file per service area) reads the ledger, the
 * devices, the rounds and the sync client; the parts
 * tilt manager, handpay queue, configuration changes and manual card entry are the floor's
 * (`host/stations/floor.ts`); a forced re-open of real hardware answers `not-available`.
 *
 * Every action returns what happened; none throws for an ordinary refusal. Actions that change
 * something journal it themselves, with `who` (and `authorisedBy` for two-person ones).
 */
export type BackendResult =
  | { ok: true; key: string; values?: Record<string, string | number> }
  | { ok: false; code: BackendRefusal; detail: string; notice?: { key: string; values: Record<string, string | number> } };

/** Why a configuration change would be refused: the host's words, and the screen's own notice where there is one (a rule option's article). */
export interface ConfigRefusal {
  detail: string;
  notice?: { key: string; values: Record<string, string | number> };
}

export type BackendRefusal = 'not-available' | 'refused' | 'no-round' | 'stale-round' | 'no-device' | 'busy' | 'timeout' | 'inhibited';

export type TableSummary = Extract<ServicePage, { page: 'status' }>['table'];
export type SyncSummary = NonNullable<Extract<ServicePage, { page: 'sync' }>['sync']>;
export type TiltSummary = NonNullable<Extract<ServicePage, { page: 'status' }>['tilts']>[number];
export type ConfigItem = Extract<ServicePage, { page: 'config' }>['items'][number];
export type ConfigPage = Omit<Extract<ServicePage, { page: 'config' }>, 'page' | 'items'>;
export type MeterScope = Extract<ServicePage, { page: 'meters' }>['scopes'][number];
export type PendingHandpay = { station: number; amount: number; requestTxId: string };

/** Two people named on every two-person act: the supervisor who started it, then the confirmer. */
export type AuthorisedBy = [supervisor: string, second: string];

export interface ServiceBackend {
  readonly tableId: string;
  /** A demonstration table (every device simulated): service mode says so (issue 51). */
  readonly demonstration?: boolean;
  readonly currency: string;
  readonly softwareVersion: string;

  // ── reading ──
  table(): TableSummary;
  devices(): DeviceRow[];
  /** The newest decoded device events, newest first: of one device, or of all (null). */
  trace(device: string | null, limit: number): { ts: string; device: string; event: string }[];
  /** A device's newest frames on the wire (hex and meaning), newest first. */
  frames(device: string, limit: number): { ts: string; dir: 'tx' | 'rx'; hex: string; meaning: string; count: number }[];
  /** Null when the kiosk runs without an upstream. */
  sync(): SyncSummary | null;
  /** Null until the tilt manager is connected. */
  tilts(): TiltSummary[] | null;
  meters(): MeterScope[];
  recall(query: { station: number | null; offset: number; limit: number }): { rounds: RecallRound[]; more: boolean };
  events(query: { filter: EventFilter; offset: number; limit: number }): { entries: EventRow[]; more: boolean };
  /** The credit.cancel entries (the cancelled-credit record), newest first. */
  cancelledCredits(limit: number): EventRow[];
  config(): ConfigItem[];
  /** What the configuration editor needs besides the items: notes, bets, queued and recent changes. */
  configExtras(): ConfigPage;
  /** Why a configuration change would be refused (null: it would be accepted); nothing is journalled. */
  checkConfigChange(key: string, value: string, authorisation: string): ConfigRefusal | null;
  /** Null until the handpay queue is connected. */
  pendingHandpays(): PendingHandpay[] | null;
  /** The remote stations' enrolment page, as the session `viewer` (its `service.enter` seq) sees it: its own files to download. */
  remoteStations(viewer: number): Omit<Extract<ServicePage, { page: 'stations' }>, 'page'>;
  /** The peer tables: each as the files hold it, its links, and why it is refused if it is (the Peers page). */
  peerTables(viewer: number): Omit<Extract<ServicePage, { page: 'peers' }>, 'page'>;
  /** The Tickets page: each station's printer, the last tickets out and in (docs/tito.md); its held tickets are `heldTickets`. */
  tickets(): Omit<Extract<ServicePage, { page: 'tickets' }>, 'page' | 'held'>;
  /** Tickets the printer could not judge (a jam, a link lost mid-ticket), waiting for a person. */
  heldTickets(): { station: number; last4: string; amount: number; since: string }[];
  /** The progressive jackpot's page: pools, their movements, the last awards. */
  jackpot(): Omit<Extract<ServicePage, { page: 'jackpot' }>, 'page' | 'currency'>;
  /** A handpay above this amount (minor units) needs two people. */
  readonly twoPersonHandpayAbove: number;
  programHashAtStart(): string;
  /** The hash computed on demand, when, and the files that differ from the start; null before the first request. */
  programHashLatest(): { hash: string; at: string; changed: string[] } | null;

  // ── exports (served over HTTP to a signed-in session) ──
  metersCsv(): string;
  metersJson(): string;
  /** The meters as a page to print, worded in `language`. */
  metersHtml(language: Language): string;
  evidenceJson(roundId: string): string | null;

  // ── two-person actions ──
  /** The last resort, saying why no correction was possible (`uncorrectable`). */
  voidRound(roundId: string, reason: string, authorisedBy: AuthorisedBy, uncorrectable?: Uncorrectable): BackendResult;
  enterCard(roundId: string, card: CardCode, authorisedBy: AuthorisedBy): BackendResult;
  /** A dealing error corrected as the game's text orders (the engine names the article). */
  correct(roundId: string, correction: Correction, authorisedBy: AuthorisedBy): BackendResult;
  clearMeters(scope: string, authorisation: string, reason: string, authorisedBy: AuthorisedBy): BackendResult;
  /** `effective`: the day a new rule set's authorisation takes effect (rule options only). */
  changeConfig(key: string, value: string, authorisation: string, authorisedBy: AuthorisedBy, effective?: string): BackendResult;
  /** `authorisedBy` has one name under the two-person amount, two above it. */
  confirmHandpay(station: number, requestTxId: string, authorisedBy: string[]): BackendResult;
  /** A held ticket settled by hand (`authorisedBy`: one name under the two-person amount, two above it), journalled before the answer. */
  settleTicket(station: number, last4: string, outcome: 'void' | 'printed', authorisedBy: string[]): BackendResult;
  /** A new credential for a remote station; its enrolment file waits for one download by `session`, the session that enrolled it. */
  enrolStation(station: number, authorisedBy: AuthorisedBy, session: EnrollingSession): BackendResult;
  revokeStation(station: number, authorisedBy: AuthorisedBy): BackendResult;
  /** A peer table enrolled from the file its host handed this one, with the stations homed there (journalled `peer.credential`). */
  addPeer(enrolment: string, stations: readonly number[], authorisedBy: AuthorisedBy): BackendResult;
  /** A peer table removed from both peer files (journalled `peer.credential` `revoke`); its link closes. */
  revokePeer(table: string, authorisedBy: AuthorisedBy): BackendResult;
  /** This table's enrolment file for the peer `table` (a new credential it dials this table with, journalled); the file waits for one download by `session`. */
  issuePeerFile(table: string, authorisedBy: AuthorisedBy, session: EnrollingSession): BackendResult;
  /** The credential the peer `table` dials this table with, revoked (journalled `peer.credential` `withdraw`); its link in closes. */
  withdrawPeer(table: string, authorisedBy: AuthorisedBy): BackendResult;
  /** A progressive level set to `to` on the authority's reference (Portugal rules 40, 44). */
  resetJackpot(level: string, to: number, authorisation: string, authorisedBy: AuthorisedBy): BackendResult;
  /** A station's cashbox counted at the drop, reconciled against its credits since the last drop; journalled, the difference said. */
  dropCount(station: number, notes: readonly { note: number; count: number }[], authorisedBy: AuthorisedBy): BackendResult;
  /**
   * A remote station's enrolment file, once, to the session that enrolled it, within its deadline;
   * null to anyone else, afterwards, or later. The download and every refusal are journalled.
   */
  takeEnrolment(station: number, by: EnrollingSession): string | null;
  /** This table's enrolment file for the peer `table`, as `takeEnrolment`: once, to the session that made it, within its deadline. */
  takePeerFile(table: string, by: EnrollingSession): string | null;

  // ── single-person actions ──
  /** A supervisor stops the round in play for a dealing error seen at the table. */
  reportDealingError(roundId: string, who: string): BackendResult;
  newShoe(who: string): BackendResult;
  setTableOpen(open: boolean, who: string): BackendResult;
  /** Clears a fault that a person of `role` may clear once its condition has gone. */
  clearTilt(kind: string, station: number | undefined, who: string, role: ServiceRole): BackendResult;
  /** Resolves when a note was inserted (and returned) or the test timed out. */
  testNote(station: number, who: string): Promise<BackendResult>;
  testCard(who: string): Promise<BackendResult>;
  setDeviceEnabled(device: string, enabled: boolean, who: string): BackendResult;
  reconnectDevice(device: string, who: string): BackendResult;
  retrySync(who: string): BackendResult;
  computeProgramHash(who: string): Promise<BackendResult>;

  // ── access journal ──
  /** Returns the entry's seq, which the session's exit names. */
  journalEnter(who: string, staff: string, role: 'technician' | 'supervisor' | 'auditor'): number;
  /** `confirmed`: the session of a second person, opened by their PIN on the first person's pad, ends with the act. */
  journalExit(who: string, staff: string, reason: 'sign-out' | 'idle' | 'disconnect' | 'host-stop' | 'confirmed', enterSeq: number): void;
  /** A session ended: what waited for it alone (an enrolment file) is discarded, journalled. */
  sessionEnded(enterSeq: number): void;
  /**
   * At start: every session the journal shows entered and never exited (the host was killed or
   * lost power) gets its `service.exit` with reason `power-loss`. Returns how many.
   */
  closeOpenSessions(): number;
  journalDenied(staff: string, reason: 'bad-pin' | 'locked' | 'unknown' | 'disabled' | 'same-person' | 'role' | 'integrity', lockedUntil?: string): void;
  /**
   * A security event of service mode, raised as its fault (journalled once, until a supervisor
   * clears it; shown on the Status page and on /metrics): a burst of PINs over the limits, or an
   * accounts store that differs from the journal.
   */
  raiseFault(kind: 'service-sign-in-burst' | 'accounts-integrity', detail: string): void;

  /** Something shown on the service pages changed (a device event, a round step). */
  onChange(listener: () => void): () => void;
}

export function notAvailable(what: string): BackendResult {
  return { ok: false, code: 'not-available', detail: `${what} is not connected on this build yet` };
}
