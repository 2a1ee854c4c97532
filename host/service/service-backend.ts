import type { DeviceEvent, DeviceRow, EventFilter, EventRow, Language, RecallRound, ServicePage, ServiceRole } from '../../protocol/index.js';
import type { CardCode } from '../../engine/cards/card.js';
import type { Said } from '../../locales/said.js';
import type { Correction, Uncorrectable } from '../../engine/table/vocabulary.js';
import type { EnrollingSession } from '../stadium/enrolment-downloads.js';
import type { HeldNote, NoteSettlement } from '../devices/notes-held.js';

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
  | { ok: false; code: BackendRefusal; detail: string; notice: { key: string; values: Record<string, string | number> } };

/** Why a configuration change would be refused: the host's words, and the screen's own notice where there is one (a rule option's article). */
export interface ConfigRefusal {
  detail: string;
  notice: { key: string; values: Record<string, string | number> };
}

export type BackendRefusal = 'not-available' | 'refused' | 'no-round' | 'stale-round' | 'no-device' | 'busy' | 'timeout' | 'inhibited';

export type TableSummary = Extract<ServicePage, { page: 'status' }>['table'];
export type SyncSummary = NonNullable<Extract<ServicePage, { page: 'sync' }>['sync']>;
export type TiltSummary = NonNullable<Extract<ServicePage, { page: 'status' }>['tilts']>[number];
export type ConfigItem = Extract<ServicePage, { page: 'config' }>['items'][number];
export type ConfigPage = Omit<Extract<ServicePage, { page: 'config' }>, 'page' | 'items'>;
export type MeterScope = Extract<ServicePage, { page: 'meters' }>['scopes'][number];
/** `streakHeld`: what the station's open winning-streak bets hold, not part of the handpay (docs/rules/blackjack.md). */
export type PendingHandpay = { station: number; amount: number; requestTxId: string; streakHeld?: number };

/** Two people named on every two-person act: the supervisor who started it, then the confirmer. */
export type AuthorisedBy = [supervisor: string, second: string];

/**
 * The service backend: one part per service page (the names of `SERVICE_PAGES`), each what that
 * page reads and does, plus the cabinet's label and the sessions' journal. A page's code
 * (`pages.ts`, `action-routes.ts`) is handed its own part.
 */
export interface ServiceBackend {
  readonly cabinet: Cabinet;
  readonly status: StatusPart;
  readonly holds: HoldsPart;
  readonly devices: DevicesPart;
  readonly meters: MetersPart;
  readonly recall: RecallPart;
  readonly events: EventsPart;
  readonly config: ConfigPart;
  readonly cashout: CashoutPart;
  readonly tickets: TicketsPart;
  readonly sync: SyncPart;
  readonly stations: StationsPart;
  readonly peers: PeersPart;
  readonly jackpot: JackpotPart;
  readonly sessions: SessionJournal;
  /** Something shown on the service pages changed (a device event, a round step). */
  onChange(listener: () => void): () => void;
}

/** The cabinet label (shown before sign-in too) and the table's settings every page words with. */
export interface Cabinet {
  readonly tableId: string;
  /** A demonstration table (every device simulated): service mode says so (issue 51). */
  readonly demonstration?: boolean;
  readonly currency: string;
  readonly softwareVersion: string;
  /** A handpay or a held ticket above this amount (minor units) needs two people. */
  readonly twoPersonHandpayAbove: number;
}

/** The Status page: the faults, the program's hash (the table, devices and sync are their pages' parts). */
export interface StatusPart {
  /** Null until the tilt manager is connected. */
  tilts(): TiltSummary[] | null;
  /** Clears a fault that a person of `role` may clear once its condition has gone (Status and Tickets pages). */
  clearTilt(kind: string, station: number | undefined, who: string, role: ServiceRole): BackendResult;
  programHashAtStart(): string;
  /** The hash computed on demand, when, and the files that differ from the start; null before the first request. */
  programHashLatest(): { hash: string; at: string; changed: string[] } | null;
  computeProgramHash(who: string): Promise<BackendResult>;
}

/** The Holds page: the round in play and what a supervisor does to it and to the table. */
export interface HoldsPart {
  table(): TableSummary;
  /** A supervisor stops the round in play for a dealing error seen at the table. */
  reportDealingError(roundId: string, who: string): BackendResult;
  /** The last resort, saying why no correction was possible (`uncorrectable`). */
  voidRound(roundId: string, reason: string, authorisedBy: AuthorisedBy, uncorrectable?: Uncorrectable): BackendResult;
  enterCard(roundId: string, card: CardCode, authorisedBy: AuthorisedBy): BackendResult;
  /** A dealing error corrected as the game's text orders (the engine names the article). */
  correct(roundId: string, correction: Correction, authorisedBy: AuthorisedBy): BackendResult;
  newShoe(who: string): BackendResult;
  setTableOpen(open: boolean, who: string): BackendResult;
}

/** The Devices page: the devices, their decoded events and frames, their switches and tests. */
export interface DevicesPart {
  list(): DeviceRow[];
  /** The newest decoded device events, newest first: of one device, or of all (null). */
  trace(device: string | null, limit: number): { ts: string; device: string; event: DeviceEvent; facts: string }[];
  /** A device's newest frames on the wire (hex and meaning), newest first. */
  frames(device: string, limit: number): { ts: string; dir: 'tx' | 'rx'; hex: string; meaning: string; count: number }[];
  setEnabled(device: string, enabled: boolean, who: string): BackendResult;
  reconnect(device: string, who: string): BackendResult;
  /** Resolves when a note was inserted (and returned) or the test timed out. */
  testNote(station: number, who: string): Promise<BackendResult>;
  /** Notes answered "stack" that no acceptor will end, oldest first: a person's to settle. */
  heldNotes(): HeldNote[];
  /** A person settles a held note: in the cashbox (credited) or not (returned), journalled with who. */
  settleNote(note: { station: number; seq: number }, outcome: NoteSettlement, by: readonly string[]): BackendResult;
  testCard(who: string): Promise<BackendResult>;
}

/** The Meters page, its exports (served over HTTP to a signed-in session), a meter clear and a cashbox drop. */
export interface MetersPart {
  scopes(): MeterScope[];
  /** The note face values of the table's currency (the cashbox drop's count). */
  notes(): number[];
  clear(scope: string, authorisation: string, reason: string | undefined, authorisedBy: AuthorisedBy): BackendResult;
  /** A station's cashbox counted at the drop, reconciled against its credits since the last drop; journalled, the difference said. */
  dropCount(station: number, notes: readonly { note: number; count: number }[], authorisedBy: AuthorisedBy): BackendResult;
  csv(): string;
  json(): string;
  /** The meters as a page to print, worded in `language`. */
  html(language: Language): string;
}

/** The Recall page: the rounds played, and one round's evidence (served over HTTP). */
export interface RecallPart {
  rounds(query: { station: number | null; offset: number; limit: number }): { rounds: RecallRound[]; more: boolean };
  evidenceJson(roundId: string): string | null;
}

/** The Events page: the journal, filtered. */
export interface EventsPart {
  list(query: { filter: EventFilter; offset: number; limit: number }): { entries: EventRow[]; more: boolean };
}

/** The Configuration page: the items, the editor's extras, a change checked and proposed. */
export interface ConfigPart {
  items(): ConfigItem[];
  /** What the configuration editor needs besides the items: notes, bets, queued and recent changes. */
  extras(): ConfigPage;
  /** Why a configuration change would be refused (null: it would be accepted); nothing is journalled. */
  check(key: string, value: string, authorisation: string): ConfigRefusal | null;
  /** `effective`: the day a new rule set's authorisation takes effect (rule options only). */
  change(key: string, value: string, authorisation: string, authorisedBy: AuthorisedBy, effective?: string): BackendResult;
}

/** The Cash-out page: the handpays waiting, the cancelled credits, an attendant's confirmation. */
export interface CashoutPart {
  /** Null until the handpay queue is connected. */
  pending(): PendingHandpay[] | null;
  /** The credit.cancel entries (the cancelled-credit record), newest first. */
  cancelledCredits(limit: number): EventRow[];
  /** `authorisedBy` has one name under the two-person amount, two above it. */
  confirmHandpay(station: number, requestTxId: string, authorisedBy: string[]): BackendResult;
}

/** The Tickets page (docs/tito.md): printers, the last tickets out and in, the held ones and their settling. */
export interface TicketsPart {
  page(): Omit<Extract<ServicePage, { page: 'tickets' }>, 'page' | 'held' | 'heldIn'>;
  /** Tickets the printer could not judge (a jam, a link lost mid-ticket), waiting for a person. */
  held(): { station: number; last4: string; amount: number; since: string }[];
  /** A held ticket settled by hand (`authorisedBy`: one name under the two-person amount, two above it), journalled before the answer. */
  settle(station: number, last4: string, outcome: 'void' | 'printed', authorisedBy: string[]): BackendResult;
  /** Tickets in the acceptor left without an end after their approval, waiting for a person (oldest first). */
  heldIn(): { station: number; seq: number; last4: string; amount: number; since: string }[];
  /** A held ticket in settled by hand, stacked or returned (`authorisedBy` as `settle`), journalled before the answer. */
  settleIn(ticket: { station: number; seq: number; last4: string }, outcome: 'stacked' | 'returned', authorisedBy: string[]): BackendResult;
}

/** The Sync page: the upstream link, and a retry now. */
export interface SyncPart {
  /** Null when the kiosk runs without an upstream. */
  summary(): SyncSummary | null;
  retry(who: string): BackendResult;
}

/** The Stations page: the remote stations, their credentials and enrolment files. */
export interface StationsPart {
  /** As the session `viewer` (its `service.enter` seq) sees it: its own files to download. */
  page(viewer: number): Omit<Extract<ServicePage, { page: 'stations' }>, 'page'>;
  /** A new credential for a remote station; its enrolment file waits for one download by `session`, the session that enrolled it. */
  enrol(station: number, authorisedBy: AuthorisedBy, session: EnrollingSession): BackendResult;
  revoke(station: number, authorisedBy: AuthorisedBy): BackendResult;
  /**
   * A remote station's enrolment file, once, to the session that enrolled it, within its deadline;
   * null to anyone else, afterwards, or later. The download and every refusal are journalled.
   */
  takeEnrolment(station: number, by: EnrollingSession): string | null;
}

/** The Peers page: the peer tables, each as the files hold it, its links, and why it is refused if it is. */
export interface PeersPart {
  page(viewer: number): Omit<Extract<ServicePage, { page: 'peers' }>, 'page'>;
  /** A peer table enrolled from the file its host handed this one, with the stations homed there (journalled `peer.credential`). */
  add(enrolment: string, stations: readonly number[], authorisedBy: AuthorisedBy): BackendResult;
  /** A peer table removed from both peer files (journalled `peer.credential` `revoke`); its link closes. */
  revoke(table: string, authorisedBy: AuthorisedBy): BackendResult;
  /** This table's enrolment file for the peer `table` (a new credential it dials this table with, journalled); the file waits for one download by `session`. */
  issueFile(table: string, authorisedBy: AuthorisedBy, session: EnrollingSession): BackendResult;
  /** The credential the peer `table` dials this table with, revoked (journalled `peer.credential` `withdraw`); its link in closes. */
  withdraw(table: string, authorisedBy: AuthorisedBy): BackendResult;
  /** This table's enrolment file for the peer `table`, as `StationsPart.takeEnrolment`: once, to the session that made it, within its deadline. */
  takeFile(table: string, by: EnrollingSession): string | null;
  /** This table's open transfer `serial` closed by two people as completed or reversed, on `reference` (journalled as its closing, both names). */
  settle(serial: number, as: 'completed' | 'reversed', reference: string, authorisedBy: AuthorisedBy): BackendResult;
}

/** The Jackpot page: pools, their movements, the last awards, and a level reset. */
export interface JackpotPart {
  page(): Omit<Extract<ServicePage, { page: 'jackpot' }>, 'page' | 'currency'>;
  /** A progressive level set to `to` on the authority's reference (Portugal rules 40, 44). */
  reset(level: string, to: number, authorisation: string, authorisedBy: AuthorisedBy): BackendResult;
}

/** The access journal of service sessions, and the security faults of signing in. */
export interface SessionJournal {
  /**
   * Returns the entry's seq, which the session's exit names; null when the journal refused it (a
   * full disk: logged), and then no session starts.
   */
  enter(who: string, staff: string, role: 'technician' | 'supervisor' | 'auditor'): number | null;
  /**
   * `confirmed`: the session of a second person, opened by their PIN on the first person's pad, ends with the act.
   * Never throws (a session ends from a timer or a socket's close): an exit the journal refuses is held and logged.
   */
  exit(who: string, staff: string, reason: 'sign-out' | 'idle' | 'disconnect' | 'host-stop' | 'confirmed', enterSeq: number): void;
  /** A session ended: what waited for it alone (an enrolment file) is discarded, journalled. Never throws, as `exit`. */
  ended(enterSeq: number): void;
  /**
   * The host stopping, service mode stopped, the ledger not yet closed: the exits the journal
   * refused (held by `exit`) tried once more; those still refused logged at error, each with its
   * reason, since the next start can only call them `power-loss`. Never throws.
   */
  journalHeldAtStop(): void;
  /**
   * At start: every session the journal shows entered and never exited (the host was killed or
   * lost power) gets its `service.exit` with reason `power-loss`. Returns how many.
   */
  closeOpen(): number;
  /**
   * A refused PIN check journalled (`service.denied`); false when the journal refused the record (a
   * full disk): logged, never thrown, for the PIN is refused all the same and the screen says so.
   */
  denied(staff: string, reason: 'bad-pin' | 'locked' | 'unknown' | 'disabled' | 'same-person' | 'role' | 'integrity', lockedUntil?: string): boolean;
  /**
   * A security event of service mode, raised as its fault (journalled once, until a supervisor
   * clears it; shown on the Status page and on /metrics): a burst of PINs over the limits, or an
   * accounts store that differs from the journal. Its detail said by a `tiltDetail.*` key (`say`),
   * its English journalled beside it; `detail` alone is the accounts store's own words.
   */
  raiseFault(kind: 'service-sign-in-burst' | 'accounts-integrity', at: { detail: string } | { say: Said }): void;
}
