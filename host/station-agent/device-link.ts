import type { Logger } from 'pino';
import type WebSocket from 'ws';
import { decodeHostDeviceMessage, DEVICE_PROTOCOL_VERSION, type AgentMessage, type HostDeviceMessage } from '../../protocol/index.js';
import { DEVICE_LINK_TIMING, keepAlive, sendBounded, type BoundedLink, type LinkTiming } from '../limits/bounded-socket.js';
import type { EnrolmentFile } from '../stadium/enrolment-file.js';
import { realClock, type Clock } from '../../hardware/clock.js';
import { linkRedial, type Redial } from '../limits/redial.js';
import { HANDSHAKE_MS } from './pinned-socket.js';

type Hello = Extract<AgentMessage, { type: 'hello-device' }>;

export interface DeviceLinkOptions {
  enrolment: EnrolmentFile;
  acceptor: Hello['acceptor'];
  /** `relay`: the agent relays the acceptor's bytes (ByteRelay); absent: it runs the driver (DeviceRelay). */
  mode?: Hello['mode'];
  log: Logger;
  /** Opens the link to the host (the pinned socket); tests pass their own. */
  connect: () => WebSocket;
  /** Each message from the host that passes its schema; the link is marked up before a `device-welcome` is passed on. */
  onMessage: (m: HostDeviceMessage) => void;
  /** The redial's jitter, in [0, 1) (default Math.random); a test passes a seeded one. */
  random?: () => number;
  /** The send buffer cap and ping interval (default DEVICE_LINK_TIMING, the host's own; tests: smaller). */
  timing?: Partial<LinkTiming>;
  /** The redial's clock and timers (default the real ones); a test runs them by hand. */
  timers?: Clock;
  /** How long an open link may wait for the host's `device-welcome` before it is cut (default HANDSHAKE_MS). */
  welcomeMs?: number;
}

/**
 * The enrolment a device link may greet with: one at the table's own host. The hello carries the
 * station's secret, which never goes to an edge (docs/stadium.md, "Edges on NATS"): an edge holds
 * its own TLS key, so its pin passes, and an edge that heard the secret could be the station on
 * the host's LAN listener. Thrown before anything is dialled.
 */
export function directEnrolment(e: EnrolmentFile): EnrolmentFile {
  if (e.edge)
    throw new Error(
      `station ${e.station}'s enrolment names an edge (${e.host}): the device link carries the station's secret and goes only to the table's own host; ` +
        "give the agent the station's direct enrolment at the table for its acceptor (etg station-agent --device-enrolment FILE)",
    );
  return e;
}

/**
 * A station agent's device link to its table host, whichever side runs the acceptor's driver:
 * dials, says `hello-device` with the station's enrolment, counts the link up at the host's
 * `device-welcome`, and dials again after a drop with a capped, jittered backoff. What crosses it
 * (bytes, or escrows and credits) is the user's (byte-relay.ts, device-relay.ts).
 */
export class DeviceLink {
  private socket: WebSocket | null = null;
  private up = false;
  private stopped = false;
  /** The dials: the backoff, the welcome's deadline, and whether the link held. */
  private readonly redial: Redial;
  private readonly upListeners = new Set<(up: boolean) => void>();
  private readonly timing: LinkTiming;
  private readonly named: BoundedLink;

  constructor(private readonly o: DeviceLinkOptions) {
    directEnrolment(o.enrolment);
    this.timing = { ...DEVICE_LINK_TIMING, ...o.timing };
    this.named = { name: 'device link to the table', log: o.log };
    this.redial = linkRedial(this.timing.pingMs, o.random ?? Math.random, o.timers ?? realClock);
  }

  start(): void {
    this.dial();
  }

  /** Whether the link to the host is up (greeted). */
  connected(): boolean {
    return this.up;
  }

  onLink(listener: (up: boolean) => void): () => void {
    this.upListeners.add(listener);
    return () => this.upListeners.delete(listener);
  }

  /**
   * Sends if the link is open; whether it was and still is. A host that keeps the connection and
   * stops reading has the link cut once it holds more than the cap unsent: it is dialled again as
   * after any loss. What the cut drops is dropped whole with the link, never one message picked
   * out of it: SAS bytes are worthless late (the casino system polls again), acceptor bytes are
   * polled again by the host's driver, and a note's escrow, credit or return waits unanswered and
   * is asked again on the next link (device-relay.ts), the host journalling each id once.
   */
  send(m: AgentMessage): boolean {
    const ws = this.socket;
    if (!ws) return false;
    return sendBounded(ws, JSON.stringify(m), this.timing.maxBufferedBytes, this.named);
  }

  stop(): void {
    this.stopped = true;
    this.redial.stop();
    this.socket?.terminate();
  }

  private dial(): void {
    if (this.stopped) return;
    const ws = this.o.connect();
    this.socket = ws;
    ws.on('open', () => {
      // The backoff is not reset here: a host (or whatever answers at its address) that takes the
      // link and stalls would be dialled again after the first wait every time, a TLS handshake
      // every 100-200 ms. Only a link welcomed and held resets it (close).
      // A host that reads and never answers (wedged, its kernel still taking bytes in) is cut too.
      keepAlive(ws, this.timing.pingMs, this.named);
      // One that answers pings and never welcomes would hold the link down for ever.
      const welcomeMs = this.o.welcomeMs ?? HANDSHAKE_MS;
      this.redial.expectWelcome(welcomeMs, () => {
        if (this.socket !== ws) return;
        this.o.log.warn({ welcomeMs }, 'device link to the table not welcomed in time: terminated');
        ws.terminate();
      });
      this.send({
        type: 'hello-device',
        protocol: DEVICE_PROTOCOL_VERSION,
        station: this.o.enrolment.station,
        secret: this.o.enrolment.secret,
        acceptor: this.o.acceptor,
        ...(this.o.mode ? { mode: this.o.mode } : {}),
      });
    });
    ws.on('message', (data) => this.receive(String(data)));
    ws.on('error', (err) => this.o.log.warn({ err: err.message }, 'link to the table failed'));
    ws.on('close', () => {
      if (this.socket !== ws) return;
      this.socket = null;
      this.setUp(false);
      this.redial.lost(() => this.dial());
    });
  }

  private setUp(up: boolean): void {
    if (this.up === up) return;
    this.up = up;
    for (const l of this.upListeners) l(up);
  }

  private receive(text: string): void {
    const d = decodeHostDeviceMessage(text);
    if (!d.ok) return this.o.log.warn({ error: d.error }, 'a message from the table fails its schema');
    if (d.message.type === 'device-welcome') {
      this.redial.up();
      this.setUp(true);
    }
    this.o.onMessage(d.message);
  }
}
