import type { ServiceAction, ServiceActionKind, ServiceRole } from '../../protocol/index.js';
import type { EnrollingSession } from '../stadium/enrolment-downloads.js';
import { serviceSaid } from '../../locales/said.js';
import { refusedBy } from './refusal-words.js';
import type { AuthorisedBy, BackendResult, DevicesPart, HoldsPart, PeersPart, ServiceBackend, StationsPart } from './service-backend.js';

type Of<K extends ServiceActionKind> = Extract<ServiceAction, { kind: K }>;

/** Who acts: the names (one, or the two of a two-person act), the console's role, and its session (null once it ended). */
export interface Actor {
  by: string[];
  role: ServiceRole;
  session: EnrollingSession | null;
}

/**
 * A service action, confirmed where it needs two people, sent to the part of the backend whose
 * page asks for it: each page's actions see only that page's part. (An account's unlock is the
 * service host's own: the accounts are not the backend's.)
 */
export function routeAction(b: ServiceBackend, a: Exclude<ServiceAction, { kind: 'account-unlock' }>, actor: Actor): BackendResult | Promise<BackendResult> {
  const { by } = actor;
  const two = by as AuthorisedBy;
  const who = by[0] ?? 'unknown';
  switch (a.kind) {
    case 'void-round':
    case 'enter-card':
    case 'dealing-error':
    case 'correct':
    case 'new-shoe':
    case 'table-open':
      return holdsAction(b.holds, a, two);
    case 'test-note':
    case 'test-card':
    case 'device-enable':
    case 'device-reconnect':
      return devicesAction(b.devices, a, who);
    case 'station-enrol':
    case 'station-revoke':
      return stationsAction(b.stations, a, two, actor.session);
    case 'peer-add':
    case 'peer-revoke':
    case 'peer-issue':
    case 'peer-withdraw':
      return peersAction(b.peers, a, two, actor.session);
    case 'transfer-settle':
      return b.peers.settle(a.serial, a.as, a.reference, two);
    case 'meter-clear':
      return b.meters.clear(a.scope, a.authorisation, a.reason, two);
    case 'cashbox-drop':
      return b.meters.dropCount(a.station, a.notes, two);
    case 'config-change':
      return b.config.change(a.key, a.value, a.authorisation, two, a.effective);
    case 'handpay-confirm':
      return b.cashout.confirmHandpay(a.station, a.requestTxId, by);
    case 'ticket-settle':
      return b.tickets.settle(a.station, a.ticket, a.outcome, by);
    case 'ticket-in-settle':
      return b.tickets.settleIn({ station: a.station, seq: a.seq, last4: a.ticket }, a.outcome, by);
    case 'note-settle':
      return b.devices.settleNote({ station: a.station, seq: a.seq }, a.outcome, by);
    case 'sync-retry':
      return b.sync.retry(who);
    case 'program-hash':
      return b.status.computeProgramHash(who);
    case 'clear-tilt':
      return b.status.clearTilt(a.tilt, a.station, who, actor.role);
    case 'jackpot-reset':
      return b.jackpot.reset(a.level, a.to, a.authorisation, two);
  }
}

/** The Holds page's actions: the round in play (dealing error, correction, a card entered, a void), the shoe, the table. */
function holdsAction(
  p: HoldsPart,
  a: Of<'void-round' | 'enter-card' | 'dealing-error' | 'correct' | 'new-shoe' | 'table-open'>,
  two: AuthorisedBy,
): BackendResult {
  const who = two[0];
  switch (a.kind) {
    case 'void-round':
      return p.voidRound(a.roundId, a.reason, two, a.uncorrectable);
    case 'enter-card':
      return p.enterCard(a.roundId, a.card, two);
    case 'dealing-error':
      return p.reportDealingError(a.roundId, who);
    case 'correct':
      return p.correct(a.roundId, a.correction, two);
    case 'new-shoe':
      return p.newShoe(who);
    case 'table-open':
      return p.setTableOpen(a.open, who);
  }
}

/** The Devices page's actions: a device's switch, a reconnect, the note and card tests. */
function devicesAction(
  p: DevicesPart,
  a: Of<'test-note' | 'test-card' | 'device-enable' | 'device-reconnect'>,
  who: string,
): BackendResult | Promise<BackendResult> {
  switch (a.kind) {
    case 'test-note':
      return p.testNote(a.station, who);
    case 'test-card':
      return p.testCard(who);
    case 'device-enable':
      return p.setEnabled(a.device, a.enabled, who);
    case 'device-reconnect':
      return p.reconnect(a.device, who);
  }
}

/** The Stations page's actions: the enrolment file goes to this console's session (the supervisor who started it), not the second person's. */
function stationsAction(p: StationsPart, a: Of<'station-enrol' | 'station-revoke'>, two: AuthorisedBy, session: EnrollingSession | null): BackendResult {
  if (a.kind === 'station-revoke') return p.revoke(a.station, two);
  if (!session) return refusedBy(serviceSaid('sessionEndedEnrol'));
  return p.enrol(a.station, two, session);
}

/** The Peers page's actions: as a station's enrolment, a peer's file goes to the session that asked. */
function peersAction(
  p: PeersPart,
  a: Of<'peer-add' | 'peer-revoke' | 'peer-issue' | 'peer-withdraw'>,
  two: AuthorisedBy,
  session: EnrollingSession | null,
): BackendResult {
  switch (a.kind) {
    case 'peer-add':
      return p.add(a.enrolment, a.stations, two);
    case 'peer-revoke':
      return p.revoke(a.table, two);
    case 'peer-withdraw':
      return p.withdraw(a.table, two);
    case 'peer-issue':
      if (!session) return refusedBy(serviceSaid('sessionEndedPeerFile'));
      return p.issueFile(a.table, two, session);
  }
}
