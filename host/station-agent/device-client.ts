import type { Agent } from 'node:https';
import { decodeHostDeviceMessage, DEVICE_PROTOCOL_VERSION, type AgentMessage, type HostDeviceMessage } from '../../protocol/index.js';
import type { EnrolmentFile } from '../stadium/enrolment-file.js';
import { pinnedSocket } from './pinned-socket.js';

/** A note as the device link names it: its escrow id, value in minor units and face value, currency. */
export interface LinkNote {
  escrowId: string;
  amount: number;
  denomination: number;
  currency: 'HKD' | 'MOP';
}

/**
 * The device link of a remote station spoken by hand, without an acceptor: tests and load
 * generators credit stations with it through exactly the messages a station agent's relay sends
 * (escrow, then credit), so the host's journalling is the real one. The security tests speak it
 * as a compromised station machine would: any message the protocol allows, in any order.
 */
export class DeviceClient {
  private readonly socket: ReturnType<typeof pinnedSocket>;
  private readonly waiting = new Map<string, (m: HostDeviceMessage) => void>();
  private welcome: Promise<Extract<HostDeviceMessage, { type: 'device-welcome' }>>;
  private seq = 0;
  /** Whether the host last said the acceptor may take notes (the welcome, then each `enable`). */
  private enabledNow: boolean | null = null;

  constructor(
    private readonly enrolment: EnrolmentFile,
    agent: Agent,
  ) {
    this.socket = pinnedSocket(enrolment, agent, '/station-device');
    this.welcome = new Promise((resolve, reject) => {
      // Every error is handled: the first one before the welcome fails ready(), later ones end in 'close'.
      this.socket.on('error', reject);
      this.socket.on('message', (data: Buffer) => {
        const d = decodeHostDeviceMessage(data.toString());
        if (!d.ok) return reject(new Error(d.error));
        const m = d.message;
        if (m.type === 'device-welcome') {
          this.enabledNow = m.enabled;
          return resolve(m);
        }
        if (m.type === 'enable') this.enabledNow = m.enabled;
        if (m.type === 'refused' && !m.ref) return reject(new Error(m.reason));
        if ((m.type === 'decision' || m.type === 'journalled' || m.type === 'refused') && m.ref) {
          this.waiting.get(m.ref)?.(m);
          this.waiting.delete(m.ref);
        }
      });
      this.socket.once('open', () =>
        this.send({ type: 'hello-device', protocol: DEVICE_PROTOCOL_VERSION, station: enrolment.station, secret: enrolment.secret, acceptor: 'id003' }),
      );
    });
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

  close(): void {
    this.socket.close();
  }

  private ask(m: Extract<AgentMessage, { id: string }>): Promise<HostDeviceMessage> {
    return new Promise((resolve) => {
      this.waiting.set(m.id, resolve);
      this.send(m);
    });
  }

  private send(m: AgentMessage): void {
    this.socket.send(JSON.stringify(m));
  }

  private id(): string {
    return `d${++this.seq}`;
  }
}
