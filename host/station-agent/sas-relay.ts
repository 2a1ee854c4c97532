import type { Logger } from 'pino';
import { realClock, type Clock } from '../../hardware/clock.js';
import { sasOpener } from '../../hardware/sas/link.js';
import type { BytePort, PortOpener } from '../../hardware/transport/byte-port.js';
import type { AgentMessage, HostDeviceMessage } from '../../protocol/index.js';
import { portRedial, type Redial } from '../limits/redial.js';
import { closeAtStop, openSettled } from './close-at-stop.js';

/** The most bytes one message carries (its base64 stays under the schema's 4,096 characters). */
const CHUNK = 2048;

/**
 * The station's SAS link carried by its agent (docs/sas.md, "Remote stations"), as the acceptor's
 * bytes are (byte-relay.ts): the agent opens the station's own SAS port (`serial:PATH` or
 * `tcp:HOST:PORT`) once the table host has greeted the link and said it runs the station's SAS
 * machine (`device-welcome` with `sas`), and carries its bytes both ways unread. The port is kept
 * across the link's drops; one that goes is opened again with backoff and the host is told (the
 * backoff starts over only after a port that held open, PORT_HELD_MS).
 */
export class SasRelay {
  private port: BytePort | null = null;
  /** The open in flight: a stop waits for it, so the port it hands over is closed before the stop resolves. */
  private opened: Promise<void> | null = null;
  private stopped = false;
  /** The port's tries (portRedial). */
  private readonly redial: Redial;
  private readonly opener: PortOpener;

  constructor(
    spec: string,
    private readonly send: (m: AgentMessage) => void,
    private readonly log: Logger,
    opener?: PortOpener,
    private readonly clock: Clock = realClock,
  ) {
    this.opener = opener ?? sasOpener(spec);
    this.redial = portRedial(clock);
  }

  /** A message from the host; whether it was the SAS relay's. */
  receive(m: HostDeviceMessage): boolean {
    if (m.type === 'device-welcome') {
      if (m.sas !== true) return false;
      if (this.port) this.send({ type: 'sas-port', open: true });
      else this.open();
      return false; // the acceptor's relay reads the welcome too
    }
    if (m.type !== 'sas-bytes') return false;
    this.port
      ?.write(Buffer.from(m.data, 'base64'))
      .catch((e: unknown) => this.log.warn({ err: e instanceof Error ? e.message : String(e) }, 'write to the SAS port failed'));
    return true;
  }

  /** Resolves once an open in flight has settled (at most `OPEN_WAIT_MS`) and the port is closed; nothing is sent nor armed after it. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.redial.stop();
    await openSettled(this.opened, this.clock);
    await closeAtStop(this.port, this.log, 'sas');
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
      const detail = (e instanceof Error ? e.message : String(e)).slice(0, 400);
      this.log.warn({ err: detail }, "the station's SAS port did not open");
      this.send({ type: 'sas-port', open: false, detail });
      this.redial.lost(() => this.open());
      return;
    }
    // Stopped while it opened: its stop found no port to close, and waits for this one's close.
    if (this.stopped) return closeAtStop(port, this.log, 'sas');
    this.redial.up();
    this.port = port;
    port.onData((bytes) => {
      for (let i = 0; i < bytes.length; i += CHUNK) this.send({ type: 'sas-bytes', data: Buffer.from(bytes.subarray(i, i + CHUNK)).toString('base64') });
    });
    port.onClose((err) => {
      if (this.port !== port || this.stopped) return;
      this.port = null;
      this.send({ type: 'sas-port', open: false, detail: (err?.message ?? 'closed').slice(0, 400) });
      this.redial.lost(() => this.open());
    });
    this.send({ type: 'sas-port', open: true });
  }
}
