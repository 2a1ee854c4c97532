import type { Logger } from 'pino';
import type { Clock } from '../../hardware/clock.js';
import type { BytePort, PortOpener } from '../../hardware/transport/byte-port.js';
import type { AgentMessage } from '../../protocol/index.js';
import { portRedial, type Redial } from '../limits/redial.js';
import { closeAtStop, openSettled } from './close-at-stop.js';

/** The most bytes one message carries (a few frames of either protocol; its base64 stays under the schema's 4,096 characters). */
const CHUNK = 2048;

/** What a relayed port says to the host and in the log. */
export interface PortWords {
  /** The host told the port is open or went (`port`, `sas-port`). */
  port(open: boolean, detail?: string): AgentMessage;
  /** Bytes the device sent, base64 (`bytes`, `sas-bytes`). */
  bytes(data: string): AgentMessage;
  /** The port's name in a stop's log line (`acceptor`, `sas`). */
  readonly name: string;
  /** The log's words when the port does not open, and when a write to it fails. */
  readonly openFailed: string;
  readonly writeFailed: string;
}

/**
 * One station port carried by its agent, byte for byte and unread (the acceptor's, byte-relay.ts;
 * the SAS link's, sas-relay.ts): opened once the table host has greeted the link, kept across the
 * link's drops (the device keeps its state; the host's driver resynchronises); a port that goes is
 * opened again with backoff and the host is told (the backoff starts over only after a port that
 * held open, PORT_HELD_MS: one that goes as it opens is not opened every 250 ms).
 */
export class PortRelay {
  private port: BytePort | null = null;
  /** The open in flight: a stop waits for it, so the port it hands over is closed before the stop resolves. */
  private opened: Promise<void> | null = null;
  private stopped = false;
  /** The port's tries (portRedial). */
  private readonly redial: Redial;

  constructor(
    private readonly opener: PortOpener,
    private readonly send: (m: AgentMessage) => void,
    private readonly log: Logger,
    private readonly clock: Clock,
    private readonly words: PortWords,
  ) {
    this.redial = portRedial(clock);
  }

  /** The host greeted the link: the port is opened, or the host told again that it is open. */
  welcome(): void {
    if (this.port) this.send(this.words.port(true));
    else this.open();
  }

  /** Bytes from the host's driver to the device (none while the port is not open). */
  write(data: string): void {
    this.port
      ?.write(Buffer.from(data, 'base64'))
      .catch((e: unknown) => this.log.warn({ err: e instanceof Error ? e.message : String(e) }, this.words.writeFailed));
  }

  /** The first half of a stop: nothing is opened, sent nor armed after it. */
  halt(): void {
    this.stopped = true;
    this.redial.stop();
  }

  /** The second half: once an open in flight has settled (at most `OPEN_WAIT_MS`), the port is closed. */
  async close(): Promise<void> {
    await openSettled(this.opened, this.clock);
    await closeAtStop(this.port, this.log, this.words.name);
  }

  async stop(): Promise<void> {
    this.halt();
    await this.close();
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
      this.log.warn({ err: detail }, this.words.openFailed);
      this.send(this.words.port(false, detail));
      this.redial.lost(() => this.open());
      return;
    }
    // Stopped while it opened: its stop found no port to close, and waits for this one's close.
    if (this.stopped) return closeAtStop(port, this.log, this.words.name);
    this.redial.up();
    this.port = port;
    port.onData((bytes) => {
      for (let i = 0; i < bytes.length; i += CHUNK) this.send(this.words.bytes(Buffer.from(bytes.subarray(i, i + CHUNK)).toString('base64')));
    });
    port.onClose((err) => {
      if (this.port !== port || this.stopped) return;
      this.port = null;
      this.send(this.words.port(false, (err?.message ?? 'closed').slice(0, 400)));
      this.redial.lost(() => this.open());
    });
    this.send(this.words.port(true));
  }
}
