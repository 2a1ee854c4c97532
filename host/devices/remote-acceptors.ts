import type { Logger } from 'pino';
import type { BillAcceptorEvent } from '../../hardware/billacceptor/types.js';
import type { Ledger } from '../../ledger/index.js';
import { decodeAgentMessage, DEVICE_PROTOCOL_VERSION, type AgentMessage, type HostDeviceMessage } from '../../protocol/index.js';
import { lastCreditFor, pendingNoteFor } from '../recovery/escrow.js';
import type { RemoteStations } from '../stadium/remote-stations.js';
import type { InhibitReason } from './bill-acceptors.js';
import type { CreditRule } from './credit-rule/credit-rule.js';
import { MessagePort } from '../../hardware/transport/message-port.js';
import type { PortOpener } from '../../hardware/transport/byte-port.js';
import type { BillAcceptors } from './bill-acceptors.js';
import type { NotesHeld } from './notes-held.js';
import type { RemoteSas } from './remote-sas.js';

/** What a link's message is for its rate: the acceptor's (a note every few seconds), its SAS line's (a poll every few tens of ms), or one its schema refuses or no agent sends on its link (`outOfRole`). */
export type DeviceRateKind = 'device' | 'sas' | 'malformed';
/** What the listener's rates say of a link's message (host/server/lan-server.ts RelayVerdict): handled, refused, closed past a count, or closed for its message rate. */
export type DeviceVerdict = 'ok' | 'refused' | 'close' | 'rate';

export interface RemoteAcceptorDeps {
  ledger: Ledger;
  log: Logger;
  /** The one credit rule (host/devices/credit-rule/), the seated acceptors' too: an agent only claims, the host decides. */
  credits: Pick<CreditRule, 'escrow' | 'credit' | 'returned'>;
  /** The enrolled stations: an agent's secret checked, and its link ended when its station is revoked. */
  stations: Pick<RemoteStations, 'verify' | 'onRevoked'>;
  /** Whether the table has this remote station now (the configuration's count). */
  hasStation: (station: number) => boolean;
  /** The notes the table takes (face values), as the configuration says now. */
  accepted: () => readonly number[];
  /** Every device event, for the faults (host/tilts/tilt-sources.ts), as a local acceptor's would be. */
  onEvent?: (station: number, e: BillAcceptorEvent) => void;
  /**
   * The host's own drivers, for the stations whose agent relays the acceptor's bytes (`mode:
   * relay`): the seated stations' BillAcceptors, so a relayed station is their code path after
   * the transport. Absent: relay mode is refused.
   */
  relayed?: Pick<BillAcceptors, 'attachRelayed' | 'detachRelayed' | 'wake'>;
  /** The host's notes held for a person (the seated acceptors'): a note handed to an agent's driver is its acceptor's again. */
  notes?: Pick<NotesHeld, 'handed'>;
  /** The eSSP fixed key of the remote validators (held here only); relayed SSP always runs encrypted. */
  esspFixedKey?: bigint;
  /** Refuse agents that run the driver themselves (`mode: driver`): only relayed acceptors. */
  relayOnly?: boolean;
  /** The protocol the station's acceptor must speak, as the configuration pins it (null: either); absent: either. */
  protocolOf?: (station: number) => 'id003' | 'ssp' | null;
  /** The remote stations' SAS links through their agents (`remoteSas`); absent: a SAS message is refused. */
  sas?: RemoteSas;
}

/** A remote station's acceptor as service mode and /healthz see it. */
export interface RemoteAcceptorStatus {
  station: number;
  device: string;
  connected: boolean;
  protocol: 'id003' | 'ssp' | null;
  lastEvent: string | null;
}

/** The device name a remote station's acceptor is journalled under, as a seated station's (`BA-<station>`). */
export const remoteDevice = (station: number) => `BA-${station}`;

interface Link {
  station: number | null;
  /** `relay`: the agent carries bytes and the host runs the driver; `driver`: the agent runs it and asks. */
  mode: 'driver' | 'relay';
  send(m: HostDeviceMessage): void;
  close(code: number, reason: string): void;
  /** Whether a message of this kind, relaying `bytes` of its line, is within the link's rates (the listener's buckets). */
  allow(kind: DeviceRateKind, bytes: number): DeviceVerdict;
  /** The link's client's log: its lines count against that client's budget (host/logging/client-budget.ts). */
  log: Logger;
  /** Cut (its credential revoked, or closed): nothing it sends is handled any more. */
  ended: boolean;
}

/**
 * The bill acceptors of the remote stations, each driven by its station agent on the station's
 * machine and relayed over the host's LAN listener. The agent's machine is on the casino floor
 * and its secret with it: what it says is a claim, and the credit rule (the seated acceptors'
 * too) decides. The host journals the escrow before it answers "stack", and the credit, only
 * against an escrow it answered "stack" to, before it answers "journalled" (the agent
 * acknowledges the device only then); anything else is refused, a security event and the
 * station's fault. Every message names the driver's escrow id, so a resend after a reconnect is
 * a duplicate the ledger writes once. One link per station: a new one (the agent restarted)
 * replaces the old.
 */
export class RemoteAcceptors {
  private readonly links = new Map<number, Link>();
  private readonly status = new Map<number, RemoteAcceptorStatus>();
  private readonly inhibitions = new Map<number, Set<InhibitReason>>();
  /** Relay mode: each station's link, whether its agent has the acceptor's port open, and the port the driver has now. */
  private readonly relays = new Map<number, { link: Link; open: boolean; current: MessagePort | null }>();

  constructor(private readonly d: RemoteAcceptorDeps) {
    // At once: dropped from every map now, and nothing it sends after is handled (not the 30 s of a close handshake).
    d.stations.onRevoked((station) => {
      const link = this.links.get(station);
      if (!link) return;
      this.closed(link);
      link.close(1008, 'credential revoked');
    });
  }

  /** A new link from an agent: it must say who it is (`hello-device`) before anything else. */
  open(
    send: (text: string, written: () => void) => void,
    close: (code: number, reason: string) => void,
    allow: (kind: DeviceRateKind, bytes: number) => DeviceVerdict = () => 'ok',
    log: Logger = this.d.log,
  ): { receive(text: string): void; dispose(): void; greeted(): boolean } {
    const link: Link = {
      station: null,
      mode: 'driver',
      send: (m) => send(JSON.stringify(m), () => undefined),
      // Ended as it is closed: the listener cuts it only once it had the grace to answer (LAN_CLOSE_GRACE_MS), and nothing it says until then is handled.
      close: (code, reason) => {
        link.ended = true;
        close(code, reason);
      },
      allow,
      log,
      ended: false,
    };
    return {
      receive: (text) => this.receive(link, text),
      dispose: () => this.closed(link),
      // Earned while in force: one replaced or revoked (its close frame perhaps never answered) may be evicted for a newcomer.
      greeted: () => link.station !== null && !link.ended,
    };
  }

  /** Adds or removes a reason for a station's acceptor to take no notes (a fault, a technician). */
  setInhibited(station: number, reason: InhibitReason, inhibited: boolean): void {
    let r = this.inhibitions.get(station);
    if (!r) this.inhibitions.set(station, (r = new Set()));
    const before = r.size === 0;
    if (inhibited) r.add(reason);
    else r.delete(reason);
    const link = this.links.get(station);
    if (before !== (r.size === 0) && link?.mode === 'driver') link.send({ type: 'enable', enabled: r.size === 0, accept: [...this.d.accepted()] });
  }

  /** The notes every acceptor takes (a configuration change of `denominations`). */
  setAccepted(): void {
    for (const [station, link] of this.links)
      if (link.mode === 'driver') link.send({ type: 'enable', enabled: this.enabled(station), accept: [...this.d.accepted()] });
  }

  statuses(): RemoteAcceptorStatus[] {
    return [...this.status.values()].map((s) => ({ ...s }));
  }

  /** Whether the station's agent is connected now. */
  connected(station: number): boolean {
    return this.links.has(station);
  }

  closeAll(): void {
    for (const l of this.links.values()) l.close(1001, 'host stopping');
    this.links.clear();
  }

  private enabled(station: number): boolean {
    return (this.inhibitions.get(station)?.size ?? 0) === 0;
  }

  private receive(link: Link, text: string): void {
    if (link.ended) return;
    const d = decodeAgentMessage(text);
    if (!d.ok) {
      // Counted, as a screen's protocol errors are: a link that keeps sending them is closed (before, kept for ever).
      if (this.closedFor(link, link.allow('malformed', 0), 'malformed')) return;
      link.send({ type: 'refused', reason: d.error.slice(0, 400) });
      return;
    }
    const m = d.message;
    // An acceptor reports a note every few seconds at most, a SAS line a poll every few tens of ms: a link sending faster is neither.
    const sas = m.type === 'sas-bytes' || m.type === 'sas-port';
    const verdict = link.allow(sas ? 'sas' : 'device', m.type === 'sas-bytes' || m.type === 'bytes' ? Buffer.byteLength(m.data, 'base64') : 0);
    if (this.closedFor(link, verdict, sas ? 'sas' : 'device')) return;
    if (verdict === 'refused') return; // over its line's bytes: dropped, counted by the listener
    try {
      this.handle(link, m);
    } catch (e) {
      // Nothing was acknowledged: the agent resends, and the device repeats its report. The link's
      // client log: a station whose every message fails is one client's lines, within its budget.
      link.log.error({ err: e, station: link.station }, 'remote acceptor message failed');
      link.send({ type: 'refused', ...('id' in m ? { ref: m.id } : {}), reason: e instanceof Error ? e.message.slice(0, 400) : 'internal' });
    }
  }

  /**
   * A message the schema takes but no agent sends on this link (bytes on a driver's link, money on
   * a relaying one, a second hello): refused and counted as a malformed one, the link closed past
   * the listener's count (before, answered for as long as the link stayed). The credit rule's own
   * refusals are not counted: an honest agent asks again while its device repeats a note.
   */
  private outOfRole(link: Link, refusal: Extract<HostDeviceMessage, { type: 'refused' }>): void {
    if (this.closedFor(link, link.allow('malformed', 0), 'malformed')) return;
    link.send(refusal);
  }

  /**
   * Closes a link its rates' verdict closes, by the cause: its message rate ('rate limit'), or past
   * the count of malformed messages or of relays over its bytes (the listener logged which); true
   * when closed. Before, a malformed message over the rate closed the link as 'malformed messages',
   * and a link past its count of relays over its bytes was logged and closed as over its rate.
   */
  private closedFor(link: Link, verdict: DeviceVerdict, kind: DeviceRateKind): boolean {
    if (verdict === 'rate') {
      link.log.warn({ station: link.station, kind }, 'station device link over its message rate: closed');
      link.close(1008, 'rate limit');
      return true;
    }
    if (verdict !== 'close') return false;
    link.close(1008, kind === 'malformed' ? 'malformed messages' : 'relayed bytes');
    return true;
  }

  private handle(link: Link, m: AgentMessage): void {
    if (m.type === 'hello-device') return this.hello(link, m);
    const station = link.station;
    if (station === null) {
      link.send({ type: 'refused', reason: 'hello-device first' });
      return link.close(1008, 'hello-device required');
    }
    if (m.type === 'sas-port' || m.type === 'sas-bytes') {
      // Only the greeted station's own SAS link, and only where the configuration relays it.
      const refused = this.d.sas ? this.d.sas.receive(station, link, m) : 'this host relays no SAS link';
      if (refused) {
        link.log.warn({ station, type: m.type, refused }, 'a SAS message refused');
        link.send({ type: 'refused', reason: refused });
      }
      return;
    }
    if (link.mode === 'relay') return this.relay(link, station, m);
    const device = remoteDevice(station);
    const at = { station, device, enabled: this.enabled(station) };
    switch (m.type) {
      case 'port':
      case 'bytes':
        return this.outOfRole(link, { type: 'refused', reason: 'bytes are relayed only on a link greeted in relay mode' });
      case 'escrow': {
        // Journalled before the answer when it is "stack": after a cut or a kill the record says which note it was.
        const decision = this.d.credits.escrow(at, m);
        this.track(station, `escrow ${m.denomination}`);
        return link.send({ type: 'decision', ref: m.id, decision });
      }
      case 'credit': {
        const r = this.d.credits.credit(at, { ...m, ref: m.id });
        this.track(station, r.ok ? 'credit' : `credit refused: ${r.reason}`);
        // Refused: the agent must not acknowledge the device; the host credited nothing.
        if (!r.ok) return link.send({ type: 'refused', ref: m.id, reason: `credit refused: ${r.reason}` });
        this.d.log.info({ station, device, amount: m.amount, seq: r.seq, status: r.status, recovered: m.recovered }, 'remote bill credited');
        return link.send({ type: 'journalled', ref: m.id });
      }
      case 'returned': {
        const r = this.d.credits.returned(at, { ...m, code: 0 }, m.reason);
        this.track(station, r.ok ? 'returned' : `return refused: ${r.reason}`);
        if (!r.ok) return link.send({ type: 'refused', ref: m.id, reason: `return refused: ${r.reason}` });
        if (r.wrote) this.d.log.info({ station, device, amount: m.amount, reason: m.reason }, 'remote note in escrow returned');
        return link.send({ type: 'journalled', ref: m.id });
      }
      case 'event':
        this.track(station, m.event);
        this.d.onEvent?.(station, asEvent(m));
        return;
    }
  }

  /**
   * A relayed link: the agent only carries bytes, and says nothing about notes. A money question
   * on it is refused: the host's own driver asks the credit rule, as a seated station's.
   */
  private relay(link: Link, station: number, m: AgentMessage): void {
    const r = this.relays.get(station);
    if (!r || r.link !== link) return;
    switch (m.type) {
      case 'bytes':
        r.current?.receive(Buffer.from(m.data, 'base64'));
        return;
      case 'port':
        r.open = m.open;
        if (m.open) this.d.relayed?.wake(station);
        else r.current?.end(`the station's acceptor port went: ${m.detail ?? 'closed'}`);
        this.track(station, m.open ? 'port open' : 'port closed');
        return;
      case 'escrow':
      case 'credit':
      case 'returned':
        link.log.warn({ station, type: m.type }, 'a relaying agent sent a money message');
        return this.outOfRole(link, { type: 'refused', ref: m.id, reason: 'this link relays bytes: the host runs the driver' });
      default:
        return;
    }
  }

  /** The port the host's driver of a relayed station opens: the agent's, while it has it open. */
  private portFor(station: number): Promise<MessagePort> {
    const r = this.relays.get(station);
    if (!r?.open) return Promise.reject(new Error(`station ${station}'s agent has no acceptor port open`));
    r.current?.end('a new session of the driver');
    const link = r.link;
    const port = new MessagePort(`relay:${station}`, (bytes) => link.send({ type: 'bytes', data: Buffer.from(bytes).toString('base64') }));
    r.current = port;
    return Promise.resolve(port);
  }

  private hello(link: Link, m: Extract<AgentMessage, { type: 'hello-device' }>): void {
    if (link.station !== null) return this.outOfRole(link, { type: 'refused', reason: 'already greeted' });
    const relay = m.mode === 'relay';
    if (relay ? !this.d.relayed : this.d.relayOnly) {
      link.send({
        type: 'refused',
        reason: relay ? 'this host takes no relayed acceptors' : 'this table takes relayed acceptors only (station-agent --relay)',
      });
      return link.close(1008, 'mode');
    }
    if (m.protocol !== DEVICE_PROTOCOL_VERSION || !this.d.hasStation(m.station) || !this.d.stations.verify(m.station, m.secret)) {
      link.send({
        type: 'refused',
        reason: m.protocol !== DEVICE_PROTOCOL_VERSION ? `device protocol ${DEVICE_PROTOCOL_VERSION}` : 'unknown station credential',
      });
      return link.close(1008, 'unauthorized');
    }
    // The configuration's protocol, not the agent's: ID-003 carries no key, so greeting as it would unwrap eSSP.
    const pinned = this.d.protocolOf?.(m.station) ?? null;
    if (pinned !== null && m.acceptor !== pinned) {
      // The link's client log: any station credential can cause this line once a connection.
      link.log.warn(
        { station: m.station, claimed: m.acceptor, pinned },
        "station agent refused: its hello names another protocol than the table's for its acceptor",
      );
      link.send({ type: 'refused', reason: `this table's acceptor at station ${m.station} is ${pinned}, not ${m.acceptor}` });
      return link.close(1008, 'acceptor protocol');
    }
    // One agent per station: the newer link wins (the old one is a killed agent's, or a cut one).
    const older = this.links.get(m.station);
    if (older) this.replaced(older);
    link.station = m.station;
    this.links.set(m.station, link);
    const device = remoteDevice(m.station);
    this.status.set(m.station, { station: m.station, device, connected: true, protocol: m.acceptor, lastEvent: 'connected' });
    this.d.sas?.attach(m.station, link);
    if (relay) return this.helloRelay(link, m.station, m.acceptor);
    this.dropRelay(m.station, link);
    // Of several escrows the journal holds open at the device, every one but the last is held for a
    // person (notes-held.ts: behind a newer escrow): its acceptor took another note since, and
    // whether it went into the cashbox or back to the player no agent will say.
    const pending = pendingNoteFor(this.d.ledger, device);
    // Handed to this agent's driver: its word ends the note again (the host's notes held, service mode).
    if (pending) this.d.notes?.handed(device, pending.escrowId);
    const credited = pending ? null : lastCreditFor(this.d.ledger, device);
    link.send({
      type: 'device-welcome',
      pendingNote: pending ? { escrowId: pending.escrowId, amount: pending.amount, denomination: pending.denomination, currency: pending.currency } : null,
      lastCredit: credited ? { escrowId: credited.escrowId, amount: credited.amount, denomination: credited.denomination, currency: credited.currency } : null,
      enabled: this.enabled(m.station),
      accept: [...this.d.accepted()],
      ...this.sasWelcome(m.station),
    });
    link.log.info({ station: m.station, device, pending: pending?.escrowId ?? null }, 'station agent connected');
  }

  /**
   * A relaying agent greeted: the host's own driver for the station (opened once, with what the
   * ledger holds in escrow for it, as a seated station's) talks through this link's port.
   */
  private helloRelay(link: Link, station: number, protocol: 'id003' | 'ssp'): void {
    link.mode = 'relay';
    this.relays.get(station)?.current?.end('replaced by a newer link');
    this.relays.set(station, { link, open: false, current: null });
    const opener: PortOpener = () => this.portFor(station);
    this.d.relayed?.attachRelayed(station, protocol, opener, {
      encryption: 'always',
      ...(this.d.esspFixedKey !== undefined ? { fixedKey: this.d.esspFixedKey } : {}),
    });
    link.send({ type: 'device-welcome', pendingNote: null, enabled: this.enabled(station), accept: [...this.d.accepted()], ...this.sasWelcome(station) });
    link.log.info({ station, protocol }, 'station agent connected (relay)');
  }

  /**
   * A station that relayed its acceptor greets running the driver itself: the relay's entry and the
   * host's own driver of it go. Before, both stayed: the driver kept opening ports whose bytes went
   * to the replaced link, and said the acceptor lost while the agent's answered.
   */
  private dropRelay(station: number, link: Link): void {
    const r = this.relays.get(station);
    this.relays.delete(station);
    // Let go first, so the end of its port is not heard as a lost acceptor. The relaying link may
    // have closed before (its entry gone): the driver, opened once, stays until let go here.
    this.d.relayed?.detachRelayed(station).catch((err: unknown) => link.log.warn({ err, station }, "the host's driver of a relayed acceptor did not close"));
    r?.current?.end('the station agent runs the driver now');
  }

  /** Whether the agent is to open the station's SAS port (the configuration relays it). */
  private sasWelcome(station: number): { sas?: true } {
    return this.d.sas?.has(station) ? { sas: true } : {};
  }

  /**
   * A station's older link, replaced: ended now, as a revoked one is. ws holds a link whose peer
   * does not answer the close frame for the 30 s of the handshake, and its messages were still
   * handled as the station's: a machine that kept its first link unread and greeted again had the
   * older one credit a note after the station's revocation (which ends only the link in force).
   */
  private replaced(older: Link): void {
    older.ended = true;
    older.close(1000, 'replaced by a newer link');
  }

  private closed(link: Link): void {
    link.ended = true;
    const station = link.station;
    if (station === null || this.links.get(station) !== link) return;
    this.links.delete(station);
    this.d.sas?.detach(station, link);
    const r = this.relays.get(station);
    if (r?.link === link) {
      r.current?.end('the station agent link closed');
      this.relays.delete(station);
    }
    const s = this.status.get(station);
    if (s) s.connected = false;
    this.d.onEvent?.(station, { type: 'disconnected', reason: 'station agent link closed' });
    link.log.warn({ station }, 'station agent disconnected');
  }

  private track(station: number, what: string): void {
    const s = this.status.get(station);
    if (s) s.lastEvent = what;
  }
}

/** A relayed event as the faults read a local acceptor's. */
function asEvent(m: Extract<AgentMessage, { type: 'event' }>): BillAcceptorEvent {
  const reason = m.detail ?? m.event;
  switch (m.event) {
    case 'connected':
      return { type: 'connected', protocol: 'remote' };
    case 'disconnected':
      return { type: 'disconnected', reason };
    case 'jam':
      return { type: 'jam', where: 'unknown' };
    case 'failure':
      return { type: 'failure', reason };
    case 'unvaluedCredit':
      return { type: 'unvaluedCredit', reason };
    case 'rejected':
      return { type: 'rejected', reason };
    case 'idle':
      return { type: 'idle', enabled: true };
    default:
      return { type: m.event };
  }
}
