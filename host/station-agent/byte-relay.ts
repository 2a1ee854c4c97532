import type { Logger } from 'pino';
import type WebSocket from 'ws';
import { realClock, type Clock } from '../../hardware/clock.js';
import { openBillAcceptorPort } from '../../hardware/open.js';
import type { Currency } from '../../hardware/billacceptor/notes.js';
import type { BillAcceptorSimControls } from '../../hardware/billacceptor/sim-controls.js';
import type { SimCable } from '../../hardware/open.js';
import type { AgentMessage, HostDeviceMessage } from '../../protocol/index.js';
import type { EnrolmentFile } from '../stadium/enrolment-file.js';
import { DeviceLink } from './device-link.js';
import { PortRelay, type PortWords } from './port-relay.js';
import { SasRelay } from './sas-relay.js';

export interface ByteRelayOptions {
  enrolment: EnrolmentFile;
  /** The acceptor: `sim`, `usb:VID:PID[:serial]`, `tcp:HOST:PORT` or `serial:PATH` (hardware/open.ts). */
  spec: string;
  protocol: 'id003' | 'ssp';
  currency: Currency;
  log: Logger;
  /** Opens the link to the host (the pinned socket); tests pass their own. */
  connect: () => WebSocket;
  /** The station's SAS link to relay (`serial:PATH` or `tcp:HOST:PORT`; docs/sas.md, "Remote stations"), opened when the host runs its machine. */
  sas?: string;
  /** For tests: the acceptor's port (default: the spec's, hardware/open.ts). */
  openPort?: typeof openBillAcceptorPort;
  /** For tests: the clock of the ports' retries (default: real time). */
  clock?: Clock;
}

const ACCEPTOR_PORT: PortWords = {
  port: (open, detail) => (detail === undefined ? { type: 'port', open } : { type: 'port', open, detail }),
  bytes: (data) => ({ type: 'bytes', data }),
  name: 'acceptor',
  openFailed: "the acceptor's port did not open",
  writeFailed: 'write to the acceptor failed',
};

/**
 * The station's bill acceptor relayed byte for byte: the table host runs the driver, as for a
 * seated station, and this agent only carries the serial bytes over the TLS link to the pinned
 * table (`hello-device` with `mode: relay`, then `port` and `bytes`). The agent decides nothing
 * and is asked nothing about money: the device is then as trustworthy as a cable, and an eSSP
 * validator's encryption runs end to end between the host and the validator (docs/security.md).
 * The port is opened once the host has greeted the link and kept open across the link's drops (the
 * device keeps its state; the host's driver resynchronises by polling); a port that goes is
 * opened again with backoff and the host is told (a PortRelay, as the SAS link's).
 */
export class ByteRelay {
  private readonly link: DeviceLink;
  private readonly sas: SasRelay | null;
  /** The acceptor's port, relayed. */
  private readonly acceptor: PortRelay;
  private readonly clock: Clock;
  private readonly sim: (BillAcceptorSimControls & SimCable) | undefined;

  constructor(private readonly o: ByteRelayOptions) {
    const opened = (o.openPort ?? openBillAcceptorPort)(o.spec, { protocol: o.protocol, currency: o.currency });
    this.sim = opened.simulator;
    this.clock = o.clock ?? realClock;
    this.acceptor = new PortRelay(opened.opener, (m) => this.send(m), o.log, this.clock, ACCEPTOR_PORT);
    this.sas = o.sas ? new SasRelay(o.sas, (m) => this.send(m), o.log, undefined, this.clock) : null;
    this.link = new DeviceLink({
      enrolment: o.enrolment,
      acceptor: o.protocol,
      mode: 'relay',
      log: o.log,
      connect: o.connect,
      onMessage: (m) => this.receive(m),
    });
  }

  start(): void {
    this.link.start();
  }

  /** The simulator behind a `sim` acceptor (tests, demos). */
  simulator(): (BillAcceptorSimControls & SimCable) | null {
    return this.sim ?? null;
  }

  /** Whether the link to the host is up (greeted). */
  connected(): boolean {
    return this.link.connected();
  }

  onLink(listener: (up: boolean) => void): () => void {
    return this.link.onLink(listener);
  }

  /** Resolves once an open in flight has settled (at most `OPEN_WAIT_MS`) and the ports are closed; nothing is sent nor armed after it. */
  async stop(): Promise<void> {
    this.acceptor.halt();
    this.link.stop();
    await this.sas?.stop();
    await this.acceptor.close();
  }

  private send(m: AgentMessage): void {
    this.link.send(m);
  }

  private receive(m: HostDeviceMessage): void {
    if (this.sas?.receive(m)) return;
    if (m.type === 'device-welcome') {
      this.acceptor.welcome();
      return;
    }
    if (m.type === 'bytes') {
      this.acceptor.write(m.data);
      return;
    }
    if (m.type === 'refused') this.o.log.warn({ reason: m.reason }, 'the table refused a message');
  }
}
