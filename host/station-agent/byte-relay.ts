import type { Logger } from 'pino';
import type WebSocket from 'ws';
import { realClock, type Clock } from '../../hardware/clock.js';
import { openBillAcceptorPort } from '../../hardware/open.js';
import type { Currency } from '../../hardware/billacceptor/notes.js';
import type { BillAcceptorSimControls } from '../../hardware/billacceptor/sim-controls.js';
import type { SimCable } from '../../hardware/open.js';
import type { BytePort, PortOpener } from '../../hardware/transport/byte-port.js';
import type { AgentMessage, HostDeviceMessage } from '../../protocol/index.js';
import type { EnrolmentFile } from '../stadium/enrolment-file.js';
import { portRedial, type Redial } from '../limits/redial.js';
import { closeAtStop, openSettled } from './close-at-stop.js';
import { DeviceLink } from './device-link.js';
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

/** The most bytes one message carries (a few frames of either protocol). */
const CHUNK = 2048;

/**
 * The station's bill acceptor relayed byte for byte: the table host runs the driver, as for a
 * seated station, and this agent only carries the serial bytes over the TLS link to the pinned
 * table (`hello-device` with `mode: relay`, then `port` and `bytes`). The agent decides nothing
 * and is asked nothing about money: the device is then as trustworthy as a cable, and an eSSP
 * validator's encryption runs end to end between the host and the validator (docs/security.md).
 * The port is opened once the host has greeted the link and kept open across the link's drops (the
 * device keeps its state; the host's driver resynchronises by polling); a port that goes is
 * opened again with backoff and the host is told (the backoff starts over only after a port that
 * held open, PORT_HELD_MS: one that goes as it opens is not opened every 250 ms).
 */
export class ByteRelay {
  private readonly link: DeviceLink;
  private readonly sas: SasRelay | null;
  private port: BytePort | null = null;
  /** The open in flight: a stop waits for it, so the port it hands over is closed before the stop resolves. */
  private opened: Promise<void> | null = null;
  private readonly opener: PortOpener;
  private readonly clock: Clock;
  private readonly sim: (BillAcceptorSimControls & SimCable) | undefined;
  private stopped = false;
  /** The port's tries (portRedial). */
  private readonly redial: Redial;

  constructor(private readonly o: ByteRelayOptions) {
    const opened = (o.openPort ?? openBillAcceptorPort)(o.spec, { protocol: o.protocol, currency: o.currency });
    this.opener = opened.opener;
    this.sim = opened.simulator;
    this.clock = o.clock ?? realClock;
    this.redial = portRedial(this.clock);
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
    this.stopped = true;
    this.redial.stop();
    this.link.stop();
    await this.sas?.stop();
    await openSettled(this.opened, this.clock);
    await closeAtStop(this.port, this.o.log, 'acceptor');
  }

  private send(m: AgentMessage): void {
    this.link.send(m);
  }

  private receive(m: HostDeviceMessage): void {
    if (this.sas?.receive(m)) return;
    if (m.type === 'device-welcome') {
      if (this.port) this.send({ type: 'port', open: true });
      else this.open();
      return;
    }
    if (m.type === 'bytes') {
      const port = this.port;
      if (!port) return;
      port
        .write(Buffer.from(m.data, 'base64'))
        .catch((e: unknown) => this.o.log.warn({ err: e instanceof Error ? e.message : String(e) }, 'write to the acceptor failed'));
      return;
    }
    if (m.type === 'refused') this.o.log.warn({ reason: m.reason }, 'the table refused a message');
  }

  private open(): void {
    if (this.opened || this.port || this.stopped) return;
    this.opened = this.openPort().finally(() => (this.opened = null));
  }

  private async openPort(): Promise<void> {
    let port: BytePort;
    try {
      port = await this.opener();
    } catch (e) {
      if (this.stopped) return; // nothing to tell a stopped link, nothing to retry
      this.o.log.warn({ err: e instanceof Error ? e.message : String(e) }, "the acceptor's port did not open");
      this.send({ type: 'port', open: false, detail: (e instanceof Error ? e.message : String(e)).slice(0, 400) });
      this.redial.lost(() => this.open());
      return;
    }
    // Stopped while it opened: its stop found no port to close, and waits for this one's close (sas-relay.ts does the same).
    if (this.stopped) return closeAtStop(port, this.o.log, 'acceptor');
    this.redial.up();
    this.port = port;
    port.onData((bytes) => {
      for (let i = 0; i < bytes.length; i += CHUNK) this.send({ type: 'bytes', data: Buffer.from(bytes.subarray(i, i + CHUNK)).toString('base64') });
    });
    port.onClose((err) => {
      if (this.port !== port || this.stopped) return;
      this.port = null;
      this.send({ type: 'port', open: false, detail: (err?.message ?? 'closed').slice(0, 400) });
      this.redial.lost(() => this.open());
    });
    this.send({ type: 'port', open: true });
  }
}
