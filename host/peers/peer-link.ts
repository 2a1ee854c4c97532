import { Agent } from 'node:https';
import type { PeerCertificate } from 'node:tls';
import type { Logger } from 'pino';
import WebSocket from 'ws';
import { realClock } from '../../hardware/clock.js';
import type { TableId } from '../../terms/transfer-terms.js';
import type { TransferMessage } from '../transfers/messages.js';
import type { PeerEnrolment } from './peer-config.js';
import { MAX_MESSAGE_BYTES } from '../../protocol/index.js';
import { DEVICE_LINK_TIMING, keepAlive, type BoundedLink } from '../limits/bounded-socket.js';
import { linkRedial, type Redial } from '../limits/redial.js';
import { decodePeer, PEER_PROTOCOL_VERSION, PeerWelcome, type PeerInbound } from './peer-wire.js';

/** The TLS settings of a link to a peer: its certificate from the enrolment is the only trust anchor, and its SHA-256 must match. */
export function pinnedPeerAgent(peer: PeerEnrolment): Agent {
  return new Agent({
    ca: peer.certificate,
    checkServerIdentity: (_host: string, cert: PeerCertificate) =>
      cert.fingerprint256 === peer.fingerprint ? undefined : new Error(`the peer's certificate is not the one enrolled (${cert.fingerprint256})`),
    keepAlive: false,
  });
}

/** The largest frame the link takes from the peer it dialled: the listener's cap (host/server/lan-server.ts); over it the socket closes (1009) before buffering it. */
export const PEER_MAX_FRAME = 4 * MAX_MESSAGE_BYTES;

/**
 * What the link may hold unsent (bytes); past it the peer is not reading, and the link is cut and
 * dialled again. Some 4,000 transfer messages: twice the burst the peer's own listener takes
 * (PEER_LIMITS) before it closes the link, so an honest peer never meets it.
 */
export const PEER_SEND_BUFFER = 1024 * 1024;

export function pinnedPeerSocket(peer: PeerEnrolment, agent: Agent): WebSocket {
  const url = new URL('/peer', peer.url);
  url.protocol = 'wss:';
  // ws's default is 100 MiB: a peer answering with a 90 MiB frame had it buffered whole before the decoder refused it.
  return new WebSocket(url, { agent, handshakeTimeout: 10_000, perMessageDeflate: false, maxPayload: PEER_MAX_FRAME });
}

export interface PeerLinkOptions {
  /** This host's table id, as the peer enrolled it. */
  readonly self: TableId;
  readonly peer: PeerEnrolment;
  readonly log: Logger;
  /** Opens the socket (the pinned one); tests pass their own. */
  readonly connect?: () => WebSocket;
  readonly onLink?: (up: boolean) => void;
  /** The redial's jitter, in [0, 1) (default Math.random); a test passes a seeded one. */
  readonly random?: () => number;
  /** The ping interval (default 15 s, the device link's) and how long an open link may wait for the peer's welcome (default 10 s). */
  readonly timing?: { readonly pingMs?: number; readonly welcomeMs?: number };
}

/** How long an open link waits for the peer's welcome before it is cut (the pinned socket's own handshake time-out). */
export const PEER_WELCOME_MS = 10_000;

/**
 * The link this host dials to one peer table, and sends its transfer messages over: the peer's
 * certificate pinned, `hello-peer` with the secret the peer enrolled this host with, up only once
 * the peer's welcome names the table enrolled. Dialled again after a drop, backing off from
 * 200 ms, doubled, capped at 5 s, jittered (as a station agent's link). A message sent while it is
 * down is dropped: the transfer protocol asks again from its journal on its next tick.
 */
export class PeerLink {
  private socket: WebSocket | null = null;
  private up = false;
  private stopped = false;
  /** The dials: the backoff, the welcome's deadline, and whether the link held. */
  private readonly redial: Redial;
  private readonly agent: Agent | null;
  private readonly named: BoundedLink;
  /** Messages sent, and dropped because the link was down. */
  readonly counts = { sent: 0, dropped: 0, dials: 0 };

  constructor(private readonly o: PeerLinkOptions) {
    this.agent = o.connect ? null : pinnedPeerAgent(o.peer);
    this.named = { name: `link to peer table ${o.peer.table}`, log: o.log };
    this.redial = linkRedial(this.pingMs(), o.random ?? Math.random, realClock);
  }

  get table(): TableId {
    return this.o.peer.table;
  }

  start(): void {
    this.dial();
  }

  connected(): boolean {
    return this.up;
  }

  send(message: TransferMessage): boolean {
    const ws = this.socket;
    if (!this.up || !ws || ws.readyState !== ws.OPEN) {
      this.counts.dropped++;
      return false;
    }
    // A peer that welcomed the link and stopped reading: what it has not taken grew without bound while the link counted as up.
    if (ws.bufferedAmount > PEER_SEND_BUFFER) {
      this.o.log.warn(
        { peer: this.o.peer.table, unsent: ws.bufferedAmount, cap: PEER_SEND_BUFFER },
        'a peer table does not read what this host sends: link cut',
      );
      this.counts.dropped++;
      this.cut();
      return false;
    }
    const carry: PeerInbound = { type: 'transfer', message };
    ws.send(JSON.stringify(carry));
    this.counts.sent++;
    return true;
  }

  /** Drops the socket now (a cut): the link dials again after its backoff. */
  cut(): void {
    this.socket?.terminate();
  }

  stop(): void {
    this.stopped = true;
    this.redial.stop();
    this.socket?.terminate();
    this.agent?.destroy();
  }

  private pingMs(): number {
    return this.o.timing?.pingMs ?? DEVICE_LINK_TIMING.pingMs;
  }

  private dial(): void {
    if (this.stopped) return;
    this.counts.dials++;
    const ws = this.o.connect ? this.o.connect() : pinnedPeerSocket(this.o.peer, this.agent ?? pinnedPeerAgent(this.o.peer));
    this.socket = ws;
    ws.on('open', () => {
      // A peer that reads and never answers (wedged, its kernel still taking bytes) is cut by the
      // pings; one that answers them and never welcomes, at the deadline: each held the link down.
      keepAlive(ws, this.pingMs(), this.named);
      const welcomeMs = this.o.timing?.welcomeMs ?? PEER_WELCOME_MS;
      this.redial.expectWelcome(welcomeMs, () => {
        if (this.socket !== ws) return;
        this.o.log.warn({ peer: this.o.peer.table, welcomeMs }, 'link to a peer table not welcomed in time: terminated');
        ws.terminate();
      });
      const hello: PeerInbound = { type: 'hello-peer', protocol: PEER_PROTOCOL_VERSION, table: this.o.self, secret: this.o.peer.secret };
      ws.send(JSON.stringify(hello));
    });
    ws.on('message', (data, isBinary) => this.receive(ws, isBinary ? '' : String(data)));
    ws.on('error', (err) => this.o.log.warn({ peer: this.o.peer.table, err: err.message }, 'link to a peer table failed'));
    ws.on('close', (code, reason) => {
      if (this.socket !== ws) return;
      this.socket = null;
      this.setUp(false);
      if (!this.stopped && code >= 4000) this.o.log.warn({ peer: this.o.peer.table, code, reason: String(reason) }, 'a peer table closed the link');
      this.redial.lost(() => this.dial());
    });
  }

  private receive(ws: WebSocket, text: string): void {
    const d = decodePeer(PeerWelcome, text);
    if (!d.ok || d.message.table !== this.o.peer.table || d.message.protocol !== PEER_PROTOCOL_VERSION || this.up) {
      this.o.log.error(
        { peer: this.o.peer.table, error: d.ok ? `welcome from ${d.message.table}` : d.error },
        'a peer table answered otherwise than its enrolment: link dropped',
      );
      ws.terminate();
      return;
    }
    // The backoff starts over only once the link has held (close): a peer that welcomes and cuts is no link.
    this.redial.up();
    this.setUp(true);
  }

  private setUp(up: boolean): void {
    if (this.up === up) return;
    this.up = up;
    this.o.log.info({ peer: this.o.peer.table, up }, up ? 'linked to a peer table' : 'link to a peer table down');
    this.o.onLink?.(up);
  }
}
