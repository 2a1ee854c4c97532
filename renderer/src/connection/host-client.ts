import {
  PROTOCOL_VERSION,
  ViewComposer,
  decodeHostMessage,
  encode,
  type ClientMessage,
  type CommandBody,
  type ProtocolError,
  type ReportBody,
  type ViewName,
  type ViewState,
} from '../../../protocol/index.js';
import type { Transport } from './transport-contract.js';

/**
 * How many times a command is resent when it meets a newer version before its refusal is said: a
 * view that changes several times a second (the Devices page counts each poll of a device on its
 * trace; a service page follows every step of a deal) can move again within each round trip.
 */
export const RESENDS = 4;

export interface HostClientEvents {
  snapshot(view: ViewName, version: number, state: ViewState): void;
  error(error: ProtocolError): void;
  closed(): void;
}

/**
 * The screen's end of the protocol: hello with the launch token, subscribe to the one view,
 * keep the latest snapshot and its version, send commands against that version. Every frame
 * from the host is validated with the same schemas the host uses; an invalid one is dropped
 * and reported, never trusted.
 */
export class HostClient {
  private seq = 0;
  private version = -1;
  private readonly view: ViewName;
  /** A station's own part and the parts every station shares come apart; this puts the view together. */
  private readonly composer: ViewComposer;
  /**
   * Commands sent and not yet answered that may be resent against the current version when they
   * meet a newer one (up to RESENDS times): those that name everything they act on. Service pages change with
   * every round step, so a technician's press often meets a newer version, and each service
   * command names what it acts on (a void names its round). A station's cash-out (the whole
   * credit, whatever the view showed) and language choice act on the station itself: a press
   * as the next betting window opens must not be lost to the version race. A bet or a decision
   * is made against what the player saw and is never resent: its refusal is said instead.
   */
  private readonly resendable = new Map<string, { command: CommandBody; left: number }>();

  constructor(
    private readonly transport: Transport,
    view: ViewName,
    private readonly events: HostClientEvents,
  ) {
    this.view = view;
    // A patch that does not follow what the screen holds (one was lost) asks for the part whole.
    this.composer = new ViewComposer(view, { resync: (parts) => this.send({ type: 'resync', id: this.nextId(), view: this.view, parts }) });
    transport.onMessage((data) => this.receive(data));
    transport.onClose(() => events.closed());
  }

  start(token: string): void {
    this.send({ type: 'hello', id: this.nextId(), protocol: PROTOCOL_VERSION, token });
    this.send({ type: 'subscribe', id: this.nextId(), view: this.view });
  }

  /** Sends a command made against the snapshot on screen; before the first one there is nothing to act on. */
  command(command: CommandBody): boolean {
    if (this.version < 0) return false;
    const id = this.nextId();
    if (this.view === 'service' || command.name === 'cash-out' || command.name === 'set-language') {
      this.resendable.set(id, { command, left: RESENDS });
      // Only the last few matter: a reply arrives within a round trip.
      if (this.resendable.size > 16) this.resendable.delete(this.resendable.keys().next().value as string);
    }
    this.send({ type: 'command', id, view: this.view, version: this.version, command });
    return true;
  }

  /** Tells the host what befell the screen, for the kiosk's log (protocol 7: a lost WebGL context). */
  report(body: ReportBody): void {
    this.send({ type: 'report', id: this.nextId(), ...body });
  }

  /** The station's recall panel or replay opened (asked for from the host) or closed (no longer sent). */
  wantRecall(on: boolean): void {
    this.composer.want(on);
  }

  private receive(data: unknown): void {
    // Its own view's snapshots only: a table or a station page never builds service mode's schemas.
    const decoded = decodeHostMessage(data, this.view);
    if (!decoded.ok) {
      console.warn('invalid message from host', decoded.error.detail);
      this.events.error(decoded.error);
      return;
    }
    const m = decoded.message;
    if (m.type === 'snapshot' || m.type === 'public' || m.type === 'patch' || m.type === 'public-patch' || m.type === 'recall') {
      // The composer keeps the versions' order (an older whole part is ignored, a resynchronised one taken).
      const composed = this.composer.take(m);
      if (composed) {
        this.version = composed.version;
        this.events.snapshot(this.view, composed.version, composed.state);
      }
    } else if (m.type === 'ack') {
      this.resendable.delete(m.ref);
    } else if (m.type === 'error' && m.code === 'stale-version' && this.resent(m.ref, m.currentVersion)) {
      // Sent again against the newer version.
    } else if (m.type === 'error') {
      if (m.ref) this.resendable.delete(m.ref);
      console.warn('host refused a message', m.code, m.detail);
      this.events.error(m);
    }
  }

  private send(m: ClientMessage): void {
    this.transport.send(encode(m));
  }

  /** Resends the command `ref` against the newer version if it may be resent again; false: its refusal is to be said. */
  private resent(ref: string | undefined, currentVersion: number | undefined): boolean {
    const entry = ref === undefined ? undefined : this.resendable.get(ref);
    if (ref === undefined || !entry || entry.left <= 0) return false;
    this.resendable.delete(ref);
    if (currentVersion !== undefined) this.version = Math.max(this.version, currentVersion);
    const id = this.nextId();
    this.resendable.set(id, { command: entry.command, left: entry.left - 1 });
    this.send({ type: 'command', id, view: this.view, version: this.version, command: entry.command });
    return true;
  }

  private nextId(): string {
    return `m${++this.seq}`;
  }
}
