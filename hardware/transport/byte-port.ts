// A byte-stream port: what every device protocol talks to. Implemented by the USB-serial bridges
// (CDC-ACM, FTDI, CP210x over a UsbDeviceLike), by the raw TCP transport and by an in-memory
// loopback to a simulator.

export interface LineSettings {
  baudRate: number;
  dataBits: 7 | 8;
  parity: 'none' | 'odd' | 'even';
  stopBits: 1 | 2;
}

export const LINE_8E1_9600: LineSettings = { baudRate: 9600, dataBits: 8, parity: 'even', stopBits: 1 };
export const LINE_8N2_9600: LineSettings = { baudRate: 9600, dataBits: 8, parity: 'none', stopBits: 2 };
export const LINE_8N1_9600: LineSettings = { baudRate: 9600, dataBits: 8, parity: 'none', stopBits: 1 };

/** Whether two UARTs understand each other: same framing, baud rates within 3 %. */
export function sameLine(a: LineSettings, b: LineSettings): boolean {
  return Math.abs(a.baudRate - b.baudRate) <= 0.03 * b.baudRate && a.dataBits === b.dataBits && a.parity === b.parity && a.stopBits === b.stopBits;
}

export interface BytePort {
  readonly description: string;
  readonly closed: boolean;
  write(bytes: Uint8Array): Promise<void>;
  /** Received bytes. Chunks arrive in order; a chunk the bridge flagged as damaged is dropped. */
  onData(fn: (bytes: Uint8Array) => void): () => void;
  /** Called once, when the link is lost (unplug, socket drop) or closed by us. */
  onClose(fn: (error?: Error) => void): () => void;
  close(): Promise<void>;
}

export type PortOpener = () => Promise<BytePort>;

/** Shared plumbing for BytePort implementations. */
export abstract class BasePort implements BytePort {
  abstract readonly description: string;
  private dataFns = new Set<(b: Uint8Array) => void>();
  private closeFns = new Set<(e?: Error) => void>();
  private isClosed = false;

  get closed(): boolean {
    return this.isClosed;
  }

  abstract write(bytes: Uint8Array): Promise<void>;
  protected abstract shutdown(): Promise<void>;

  onData(fn: (bytes: Uint8Array) => void): () => void {
    this.dataFns.add(fn);
    return () => this.dataFns.delete(fn);
  }

  onClose(fn: (error?: Error) => void): () => void {
    if (this.isClosed) queueMicrotask(() => fn());
    else this.closeFns.add(fn);
    return () => this.closeFns.delete(fn);
  }

  protected deliver(bytes: Uint8Array): void {
    if (this.isClosed || bytes.length === 0) return;
    for (const fn of [...this.dataFns]) fn(bytes);
  }

  /** Marks the link lost; idempotent. */
  protected lost(error?: Error): void {
    if (this.isClosed) return;
    this.isClosed = true;
    const fns = [...this.closeFns];
    this.closeFns.clear();
    this.dataFns.clear();
    for (const fn of fns) fn(error);
  }

  async close(): Promise<void> {
    if (this.isClosed) return;
    try {
      await this.shutdown();
    } finally {
      this.lost();
    }
  }
}

export class PortClosedError extends Error {
  constructor(what: string) {
    super(`${what}: port closed`);
    this.name = 'PortClosedError';
  }
}
