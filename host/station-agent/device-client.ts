import type { Agent } from 'node:https';
import { decodeHostDeviceMessage, DEVICE_PROTOCOL_VERSION, type AgentMessage, type HostDeviceMessage } from '../../protocol/index.js';
import type { EnrolmentFile } from '../stadium/enrolment-file.js';
import { pinnedSocket } from './pinned-socket.js';
import { directEnrolment } from './device-link.js';

/** A note as the device link names it: its escrow id, value in minor units and face value, currency. */
export interface LinkNote {
  escrowId: string;
  amount: number;
  denomination: number;
  currency: 'HKD' | 'MOP';
}

/**
 * A device link that failed under a question: closed (by the table, the network or this client)
 * or silent past the answer deadline. Names the station, what was waited for, and the close.
 */
export class DeviceLinkError extends Error {
  constructor(
    message: string,
    readonly station: number,
    /** The WebSocket close code (1006: the socket ended without a close frame); null for an answer deadline passed. */
    readonly code: number | null,
    readonly reason: string,
  ) {
    super(message);
    this.name = 'DeviceLinkError';
  }
}

export interface DeviceClientOptions {
  /**
   * How long the welcome and each answer may take (ms): past it the question fails and the link
   * is closed (every other question fails with it). None: only a close fails them.
   */
  answerMs?: number;
  /** How long the link's opening may take (ms; default `HANDSHAKE_MS`, 10 s): `pinnedSocket`. */
  handshakeMs?: number;
}

/** The welcome's place among the questions: a ref the protocol never carries (an id is 1 to 64 characters). */
const WELCOME = '';

interface Asked {
  resolve: (m: HostDeviceMessage) => void;
  reject: (e: DeviceLinkError) => void;
  what: string;
  timer: ReturnType<typeof setTimeout> | null;
}

/**
 * The device link of a remote station spoken by hand, without an acceptor: tests and load
 * generators credit stations with it through exactly the messages a station agent's relay sends
 * (escrow, then credit), so the host's journalling is the real one. The security tests speak it
 * as a compromised station machine would: any message the protocol allows, in any order.
 *
 * Nothing it hands out waits for ever: when the link closes, the welcome (if it had not come)
 * and every question not yet answered fail with a DeviceLinkError, and so does every question
 * asked after. Issue 30: the host closed links right after their upgrade, and the stadium bench's
 * clients waited on their welcome for good.
 */
export class DeviceClient {
  private readonly socket: ReturnType<typeof pinnedSocket>;
  private readonly waiting = new Map<string, Asked>();
  private welcome: Promise<Extract<HostDeviceMessage, { type: 'device-welcome' }>>;
  private seq = 0;
  /** Whether the host last said the acceptor may take notes (the welcome, then each `enable`). */
  private enabledNow: boolean | null = null;
  /** Why the link is gone, once it is: every question then fails with it. */
  private ended: DeviceLinkError | null = null;

  constructor(
    private readonly enrolment: EnrolmentFile,
    agent: Agent,
    private readonly o: DeviceClientOptions = {},
  ) {
    this.socket = pinnedSocket(directEnrolment(enrolment), agent, '/station-device', { handshakeMs: o.handshakeMs });
    this.welcome = new Promise((resolve, reject) => {
      let welcomed = false;
      this.waiting.set(WELCOME, {
        what: 'the welcome to its hello',
        resolve: () => undefined,
        reject,
        timer: this.deadline(WELCOME, 'the welcome to its hello'),
      });
      // Every error is handled: the first one before the welcome fails ready(), later ones end in 'close'.
      this.socket.on('error', (err) => {
        if (!welcomed)
          this.fail(
            WELCOME,
            new DeviceLinkError(`station ${enrolment.station}'s device link failed before the welcome: ${err.message}`, enrolment.station, null, err.message),
          );
      });
      this.socket.on('close', (code, reason) => this.closed(code, reason.toString()));
      this.socket.on('message', (data: Buffer) => {
        const d = decodeHostDeviceMessage(data.toString());
        if (!d.ok) {
          if (!welcomed)
            this.fail(
              WELCOME,
              new DeviceLinkError(
                `station ${enrolment.station}: the table's answer to the hello fails its schema: ${d.error}`,
                enrolment.station,
                null,
                d.error,
              ),
            );
          return;
        }
        const m = d.message;
        if (m.type === 'device-welcome') {
          this.enabledNow = m.enabled;
          welcomed = true;
          this.settled(WELCOME);
          return resolve(m);
        }
        if (m.type === 'enable') this.enabledNow = m.enabled;
        if (m.type === 'refused' && !m.ref) {
          if (!welcomed)
            this.fail(
              WELCOME,
              new DeviceLinkError(`station ${enrolment.station}: the table refused the hello: ${m.reason}`, enrolment.station, null, m.reason),
            );
          return;
        }
        if ((m.type === 'decision' || m.type === 'journalled' || m.type === 'refused') && m.ref) {
          const asked = this.waiting.get(m.ref);
          if (!asked) return;
          this.settled(m.ref);
          asked.resolve(m);
        }
      });
      this.socket.once('open', () =>
        this.send({ type: 'hello-device', protocol: DEVICE_PROTOCOL_VERSION, station: enrolment.station, secret: enrolment.secret, acceptor: 'id003' }),
      );
    });
    // Failed and never asked for (a caller that only closes it): not an unhandled rejection.
    this.welcome.catch(() => undefined);
  }

  ready(): Promise<Extract<HostDeviceMessage, { type: 'device-welcome' }>> {
    return this.welcome;
  }

  /** Whether the host last told this station's acceptor it may take notes (null before the welcome). */
  enabled(): boolean | null {
    return this.enabledNow;
  }

  /** A note through escrow and credit, as a driver relays it; resolves with the host's answers. */
  async insert(escrowId: string, denomination: number, currency: 'HKD' | 'MOP'): Promise<{ decision: string; credited: boolean; creditId: string | null }> {
    const note = { escrowId, amount: denomination * 100, denomination, currency };
    const d = await this.escrow(note);
    if (d.type !== 'decision' || d.decision !== 'stack') return { decision: d.type === 'decision' ? d.decision : d.type, credited: false, creditId: null };
    const creditId = this.id();
    const c = await this.credit(note, { id: creditId });
    return { decision: 'stack', credited: c.type === 'journalled', creditId };
  }

  /** The escrow question, as sent; resolves with the host's answer. */
  async escrow(note: LinkNote, o: { id?: string } = {}): Promise<HostDeviceMessage> {
    await this.welcome;
    return this.ask({ type: 'escrow', id: o.id ?? this.id(), ...note });
  }

  /** A credit report, as sent (`id`: the message's own id; a resend carries the first one's). */
  async credit(note: LinkNote, o: { id?: string; recovered?: boolean } = {}): Promise<HostDeviceMessage> {
    await this.welcome;
    return this.ask({ type: 'credit', id: o.id ?? this.id(), ...note, recovered: o.recovered ?? false });
  }

  /** A note in escrow back with the customer, as reported; resolves with the host's answer. */
  async returned(note: LinkNote, reason: string, o: { id?: string } = {}): Promise<HostDeviceMessage> {
    await this.welcome;
    return this.ask({ type: 'returned', id: o.id ?? this.id(), ...note, reason });
  }

  close(): void {
    this.socket.close();
  }

  private ask(m: Extract<AgentMessage, { id: string }>): Promise<HostDeviceMessage> {
    const what = `its ${m.type} ${m.id}${'escrowId' in m ? ` (escrow ${m.escrowId})` : ''}`;
    return new Promise((resolve, reject) => {
      if (this.ended) return reject(this.because(this.ended, what));
      this.waiting.set(m.id, { resolve, reject, what, timer: this.deadline(m.id, what) });
      this.send(m);
    });
  }

  /** The answer deadline of one question: past it, the question fails and the link is given up. */
  private deadline(key: string, what: string): ReturnType<typeof setTimeout> | null {
    const ms = this.o.answerMs;
    if (ms === undefined) return null;
    return setTimeout(() => {
      const reason = `no answer to ${what} within ${ms} ms`;
      this.fail(key, new DeviceLinkError(`station ${this.enrolment.station}'s device link: ${reason}`, this.enrolment.station, null, reason));
      // The link's order can no longer be trusted (a late answer would match nothing): given up, the rest fail with its close.
      this.ended ??= new DeviceLinkError(`station ${this.enrolment.station}'s device link was given up: ${reason}`, this.enrolment.station, null, reason);
      this.socket.terminate();
    }, ms);
  }

  /** The link closed: every question still waiting fails, naming the close, and so will every one asked after. */
  private closed(code: number, reason: string): void {
    const why = `closed (${code}${reason ? ` ${reason}` : ''})`;
    this.ended ??= new DeviceLinkError(`station ${this.enrolment.station}'s device link ${why}`, this.enrolment.station, code, reason);
    for (const key of [...this.waiting.keys()]) {
      const asked = this.waiting.get(key);
      if (asked) this.fail(key, this.because(this.ended, asked.what));
    }
  }

  private because(ended: DeviceLinkError, what: string): DeviceLinkError {
    return new DeviceLinkError(`${ended.message} before the table answered ${what}`, ended.station, ended.code, ended.reason);
  }

  private fail(key: string, e: DeviceLinkError): void {
    const asked = this.waiting.get(key);
    if (!asked) return;
    this.settled(key);
    asked.reject(e);
  }

  private settled(key: string): void {
    const asked = this.waiting.get(key);
    if (asked?.timer) clearTimeout(asked.timer);
    this.waiting.delete(key);
  }

  private send(m: AgentMessage): void {
    this.socket.send(JSON.stringify(m));
  }

  private id(): string {
    return `d${++this.seq}`;
  }
}
