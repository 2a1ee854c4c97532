// Raw TCP byte stream, as offered by the serial device servers of a casino floor (and by our
// simulators' `--listen tcp:…`). A dropped connection is a lost link like an unplug.
import net from 'node:net';
import { BasePort } from './byte-port.js';

/** A write not taken by the kernel in this long: the device server stopped reading. */
const WRITE_TIMEOUT_MS = 5000;
/** TCP keepalive probes start after this long idle. */
const KEEPALIVE_MS = 10_000;

export class TcpPort extends BasePort {
  readonly description: string;

  private constructor(
    private readonly socket: net.Socket,
    host: string,
    port: number,
    private readonly writeTimeoutMs: number,
  ) {
    super();
    this.description = `tcp:${host}:${port}`;
    socket.setNoDelay(true);
    // A device server that vanished without a FIN (power cut, cable pulled at its end) is found by
    // the kernel's probes, not only at the driver's next unanswered poll.
    socket.setKeepAlive(true, KEEPALIVE_MS);
    socket.on('data', (b: Buffer) => this.deliver(new Uint8Array(b.buffer, b.byteOffset, b.byteLength).slice()));
    socket.on('close', () => this.lost(new Error('TCP connection closed')));
    socket.on('error', () => {
      // 'close' follows every 'error'; the port reports the loss there.
    });
  }

  static open(host: string, port: number, options: { timeoutMs?: number; writeTimeoutMs?: number } = {}): Promise<TcpPort> {
    const timeoutMs = options.timeoutMs ?? 3000;
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host, port });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`tcp:${host}:${port}: connect timed out`));
      }, timeoutMs);
      socket.once('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.removeAllListeners('error');
        resolve(new TcpPort(socket, host, port, options.writeTimeoutMs ?? WRITE_TIMEOUT_MS));
      });
    });
  }

  /**
   * Resolves once the bytes left for the kernel. A device server that stops reading (its buffers
   * full, its end gone without a word) never calls back: past `writeTimeoutMs` the write fails and
   * the connection is dropped, a lost link the driver reconnects from (before, a driver's write and
   * everything behind it waited for ever).
   */
  write(bytes: Uint8Array): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`${this.description}: port closed`));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`${this.description}: write timed out after ${this.writeTimeoutMs} ms`));
        this.socket.destroy();
      }, this.writeTimeoutMs);
      timer.unref();
      this.socket.write(bytes, (e) => {
        clearTimeout(timer);
        if (e) reject(e);
        else resolve();
      });
    });
  }

  protected async shutdown(): Promise<void> {
    this.socket.destroy();
  }
}
