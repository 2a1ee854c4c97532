import type { Logger } from 'pino';
import type { PortOpener } from '../../hardware/transport/byte-port.js';
import { MessagePort } from '../../hardware/transport/message-port.js';
import type { AgentMessage, HostDeviceMessage } from '../../protocol/index.js';

/** The agent's link a SAS relay rides on: the station it was greeted as (its credential) and its send. */
export interface SasRelayLink {
  send(m: HostDeviceMessage): void;
  /** The link's own log (the station's client budget, host/logger.ts); the host's when it has none. */
  readonly log?: Logger;
}

/** The most bytes one message carries (its base64 stays under the schema's 4,096 characters). */
const CHUNK = 2048;

type SasMessage = Extract<AgentMessage, { type: 'sas-port' | 'sas-bytes' }>;

/**
 * The SAS links of remote stations, relayed by their agents (docs/sas.md, "Remote stations"): the
 * agent opens the station's own SAS port (serial, pty, TCP) on the station's machine and carries
 * its bytes over its authenticated link to the table host, where the station's SAS machine runs
 * on them through a MessagePort, as a seated station's runs on its serial port. The relay is the
 * acceptor's (byte-relay.ts, remote-acceptors.ts), with the same distrust: the bytes are a serial
 * line's, undecided until the machine side has decoded and checked them (wire.ts, machine.ts; the
 * fuzz); a link carries only the station its credential greeted it as (no message names one), and
 * only where the table's configuration gives that station a SAS link through its agent.
 */
export class RemoteSas {
  /** Each configured station's current relay: the link, whether its agent has the SAS port open, and the port the machine has now. */
  private readonly relays = new Map<number, { link: SasRelayLink; open: boolean; current: MessagePort | null; said?: string }>();
  private readonly openListeners = new Set<(station: number) => void>();

  constructor(
    /** The remote stations the configuration gives a SAS link through their agent (`remoteSas`). */
    private readonly stations: ReadonlySet<number>,
    private readonly log: Logger,
  ) {}

  /** Whether the station's SAS machine runs here on bytes its agent relays. */
  has(station: number): boolean {
    return this.stations.has(station);
  }

  /** A link greeted as `station` (its credential checked): it is the station's SAS relay now, a newer one replacing the old. */
  attach(station: number, link: SasRelayLink): void {
    if (!this.has(station)) return;
    const before = this.relays.get(station);
    before?.current?.end('replaced by a newer link');
    this.relays.set(station, { link, open: false, current: null });
  }

  /** The link closed: the machine's port goes with it (a lost cable; the machine's link-down follows if the system then hears nothing). */
  detach(station: number, link: SasRelayLink): void {
    const r = this.relays.get(station);
    if (r?.link !== link) return;
    r.current?.end('the station agent link closed');
    this.relays.delete(station);
  }

  /** A SAS message on a link greeted as `station`; a refusal's reason, or null. */
  receive(station: number, link: SasRelayLink, m: SasMessage): string | null {
    if (!this.has(station)) return `station ${station} has no SAS link through its agent`;
    const r = this.relays.get(station);
    if (r?.link !== link) return null; // a replaced link: its last bytes are not the station's any more
    if (m.type === 'sas-bytes') {
      if (r.open) r.current?.receive(Buffer.from(m.data, 'base64'));
      return null;
    }
    const wasOpen = r.open;
    r.open = m.open;
    if (!m.open) r.current?.end(`the station's SAS port went: ${m.detail ?? 'closed'}`);
    else if (!wasOpen) for (const l of this.openListeners) l(station);
    // Said when it changes (or says why anew), in the station's own log: the agent may send these at the SAS line's rate.
    const said = `${m.open}:${m.detail ?? ''}`;
    if (said !== r.said) (link.log ?? this.log).info({ station, open: m.open, detail: m.detail }, "a remote station's SAS port");
    r.said = said;
    return null;
  }

  /** The opener of the station's SAS link (hardware/sas/link.ts): the agent's port, while it has it open. */
  opener(station: number): PortOpener {
    return () => {
      const r = this.relays.get(station);
      if (!r?.open) return Promise.reject(new Error(`station ${station}'s agent has no SAS port open`));
      r.current?.end('a new session of the SAS machine');
      const link = r.link;
      const port = new MessagePort(`agent-sas:${station}`, (bytes) => {
        for (let i = 0; i < bytes.length; i += CHUNK) link.send({ type: 'sas-bytes', data: Buffer.from(bytes.subarray(i, i + CHUNK)).toString('base64') });
      });
      r.current = port;
      return Promise.resolve(port);
    };
  }

  /** Told when a station's agent has opened its SAS port (the link opens it now rather than after its backoff). */
  onOpen(listener: (station: number) => void): () => void {
    this.openListeners.add(listener);
    return () => this.openListeners.delete(listener);
  }
}
