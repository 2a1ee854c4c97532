// A station's SAS machine on a link the operating system or the network gives it: `serial:PATH`
// (a pty, or a UART set up as docs/sas.md "Framing" says) or `tcp:HOST:PORT` (a terminal server
// that carries the fallback stream). The machine and its exception queue outlive the port: a
// dropped connection is opened again with the drivers' backoff (hardware/link.ts), and the host
// that comes back finds the exceptions it had not acknowledged.
import { realClock, type Clock } from '../clock.js';
import { Link } from '../link.js';
import type { BytePort, LineSettings, PortOpener } from '../transport/byte-port.js';
import { SerialBytePort } from '../transport/serial.js';
import { parseSpec } from '../transport/spec.js';
import { TcpPort } from '../transport/tcp.js';
import { SasMachine, type SasMachineOptions } from './machine.js';
import { WakeupDecoder, encodeWire } from './wire.js';

/** SAS's line (§1.2): 19,200 baud, 8 data bits; the ninth bit is the fallback stream's escapes (wire.ts), not parity. */
export const LINE_SAS: LineSettings = { baudRate: 19_200, dataBits: 8, parity: 'none', stopBits: 1 };

/** The opener of a SAS link spec: `serial:PATH` or `tcp:HOST:PORT`. */
export function sasOpener(spec: string): PortOpener {
  const s = parseSpec(spec);
  if (s.kind === 'serial') return () => SerialBytePort.open(s.path, LINE_SAS);
  if (s.kind === 'tcp') return () => TcpPort.open(s.host, s.port);
  throw new Error(`a SAS link is serial:PATH or tcp:HOST:PORT, not "${spec}"`);
}

export interface SasLinkOptions extends Omit<SasMachineOptions, 'write'> {
  reconnectBaseMs?: number;
  reconnectMaxMs?: number;
}

export class SasLink {
  readonly machine: SasMachine;
  private readonly link: Link;
  private port: BytePort | null = null;

  constructor(opener: PortOpener, options: SasLinkOptions) {
    const clock: Clock = options.clock ?? realClock;
    this.machine = new SasMachine({ ...options, clock, write: (bytes, wake) => this.write(bytes, wake) });
    this.link = new Link(
      opener,
      { session: (port, signal) => this.session(port, signal), down: () => undefined, up: () => undefined },
      {
        clock,
        reconnectBaseMs: options.reconnectBaseMs ?? 250,
        reconnectMaxMs: options.reconnectMaxMs ?? 5_000,
      },
    );
  }

  start(): void {
    this.machine.start();
    this.link.start();
  }

  /** Opens the port now rather than after the reconnect's backoff (a relayed port just came back). */
  wake(): void {
    this.link.wake();
  }

  async close(): Promise<void> {
    this.machine.stop();
    await this.link.stop();
  }

  private write(bytes: Uint8Array, wake: boolean): void {
    // A write that fails is a lost port, which its close reports; the host will poll again.
    this.port?.write(encodeWire(bytes, wake)).catch(() => undefined);
  }

  /** One connection: characters in until the port closes (or we stop). */
  private session(port: BytePort, signal: AbortSignal): Promise<void> {
    const decoder = new WakeupDecoder();
    const sink = (b: number, wake: boolean): void => this.machine.char(b, wake);
    this.port = port;
    this.link.markUp(); // the port is open; whether the host speaks is the machine's link-up
    return new Promise<void>((resolve) => {
      const offData = port.onData((chunk) => decoder.push(chunk, sink));
      const done = (): void => {
        offData();
        offClose();
        signal.removeEventListener('abort', done);
        if (this.port === port) this.port = null;
        resolve();
      };
      const offClose = port.onClose(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }
}

/** Opens a station's SAS link (`serial:PATH` or `tcp:HOST:PORT`) and starts it. */
export function openSasLink(spec: string, options: SasLinkOptions): SasLink {
  const link = new SasLink(sasOpener(spec), options);
  link.start();
  return link;
}
