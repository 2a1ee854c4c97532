// A station's SAS link on a real UART, `uart:PATH` (docs/sas.md "Framing"): the ninth bit carried
// by stick parity. The port speaks the fallback stream (wire.ts) on both sides, so the SAS link,
// its decoder and a remote station's relay do not know which kind of line they are on:
//
// - received, the kernel itself produces that stream (space parity, PARMRK: a byte whose ninth
//   bit is 1 arrives as FF 00 b, a data FF as FF FF), passed on unchanged;
// - sent, the stream is decoded back into characters: data bytes go as themselves (space parity:
//   ninth bit 0; a data FF is one byte on the wire), and a character with the wake-up bit — the
//   machine's only one is its loop-break chirp, SAS 6.02 §1.2.1, §4.2 — goes alone under mark
//   parity: drain, mark, write, drain, space, while nothing else is in flight (writes queue).
//
// A step that fails or hangs is a lost port: the link's backoff opens and configures it again.
import { SerialPort } from 'serialport';
import { BasePort } from '../transport/byte-port.js';
import { SasUartError, configureSasUart, setStickParity } from './uart-stty.js';
import { WakeupDecoder } from './wire.js';

/** What the port needs of the line under it: bytes out, a drain, the stick parity, bytes in. */
export interface UartLine {
  readonly device: string;
  write(bytes: Uint8Array): Promise<void>;
  /** Resolves when every byte written has left the UART (tcdrain). */
  drain(): Promise<void>;
  /** Mark parity (the ninth bit 1) or space (0). */
  setMark(mark: boolean): Promise<void>;
  onData(fn: (bytes: Uint8Array) => void): void;
  onClose(fn: (error?: Error) => void): void;
  close(): Promise<void>;
}

/** A run of data bytes (ninth bit 0), or one byte with the wake-up bit. */
type Piece = { data: number[] } | { wake: number };

/** The longest a chirp's parity switch may take before the port is given up as lost. */
const SWITCH_MS = 2_000;

export class SasUartPort extends BasePort {
  readonly description: string;
  /** Decodes what the SAS link writes (the fallback stream) back into characters; its state spans writes. */
  private readonly outgoing = new WakeupDecoder();
  private queue: Promise<void> = Promise.resolve();
  private closing = false;

  constructor(
    private readonly line: UartLine,
    private readonly options: { switchMs?: number } = {},
  ) {
    super();
    this.description = `uart:${line.device}`;
    line.onData((bytes) => this.deliver(bytes));
    line.onClose((e) => this.lost(this.closing ? undefined : (e ?? new SasUartError('lost', line.device, 'port lost'))));
  }

  /** Escapes in `stream` that were not of the encoding, dropped (never sent). */
  get badEscapes(): number {
    return this.outgoing.badEscapes;
  }

  write(stream: Uint8Array): Promise<void> {
    if (this.closed) return Promise.reject(new SasUartError('lost', this.line.device, 'port closed'));
    const pieces: Piece[] = [];
    this.outgoing.push(stream, (b, wake) => {
      const last = pieces.at(-1);
      if (wake) pieces.push({ wake: b });
      else if (last && 'data' in last) last.data.push(b);
      else pieces.push({ data: [b] });
    });
    const run = this.queue.then(() => this.send(pieces));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async send(pieces: Piece[]): Promise<void> {
    for (const p of pieces) {
      if (this.closed) throw new SasUartError('lost', this.line.device, 'port closed');
      try {
        if ('data' in p) await this.line.write(Uint8Array.from(p.data));
        else await within(this.wake(p.wake), this.options.switchMs ?? SWITCH_MS, this.line.device);
      } catch (e) {
        const error = e instanceof SasUartError ? e : new SasUartError('lost', this.line.device, e instanceof Error ? e.message : String(e));
        this.lost(error);
        this.line.close().catch(() => undefined);
        throw error;
      }
    }
  }

  /** One byte with the ninth bit 1: alone on the line under mark parity, then space again. */
  private async wake(byte: number): Promise<void> {
    await this.line.drain();
    await this.line.setMark(true);
    await this.line.write(Uint8Array.of(byte));
    await this.line.drain();
    await this.line.setMark(false);
  }

  protected shutdown(): Promise<void> {
    this.closing = true;
    return this.line.close();
  }
}

function within(p: Promise<void>, ms: number, device: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new SasUartError('timeout', device, `the wake-up bit's parity switch took over ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** The `serialport` package's port as a UartLine; its termios is stty's (uart-stty.ts). */
export function serialUartLine(port: SerialPort, device: string): UartLine {
  return {
    device,
    write: (bytes) => new Promise((resolve, reject) => port.write(Buffer.from(bytes), (e) => (e ? reject(e) : resolve()))),
    drain: () => new Promise((resolve, reject) => port.drain((e) => (e ? reject(e) : resolve()))),
    setMark: (mark) => setStickParity(device, mark),
    onData: (fn) => port.on('data', (b: Buffer) => fn(new Uint8Array(b.buffer, b.byteOffset, b.byteLength).slice())),
    onClose: (fn) => port.on('close', (e?: Error | null) => fn(e ?? undefined)),
    close: () => new Promise((resolve) => (port.isOpen ? port.close(() => resolve()) : resolve())),
  };
}

/** Opens `path` (exclusively), makes it a SAS line (uart-stty.ts) and gives its port; rejects with a SasUartError, never leaving it open. */
export async function openSasUart(path: string): Promise<SasUartPort> {
  // 8N1 at first, as the `serialport` package allows; stty then sets the parity the package cannot.
  const port = new SerialPort({ path, baudRate: 19_200, dataBits: 8, parity: 'none', stopBits: 1, lock: true, autoOpen: false });
  port.on('error', () => {
    // A failed read or write closes the port, and 'close' reports the loss.
  });
  await new Promise<void>((resolve, reject) => port.open((e) => (e ? reject(new SasUartError('open', path, e.message)) : resolve())));
  try {
    await configureSasUart(path);
  } catch (e) {
    await new Promise<void>((resolve) => port.close(() => resolve()));
    throw e;
  }
  return new SasUartPort(serialUartLine(port, path));
}
