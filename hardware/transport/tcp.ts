// Raw TCP byte stream, as offered by the serial device servers of a casino floor (and by our
// simulators' `--listen tcp:…`). A dropped connection is a lost link like an unplug.
import net from 'node:net';
import { BasePort } from './byte-port.js';

export class TcpPort extends BasePort {
  readonly description: string;

  private constructor(
    private readonly socket: net.Socket,
    host: string,
    port: number,
  ) {
    super();
    this.description = `tcp:${host}:${port}`;
    socket.setNoDelay(true);
    socket.on('data', (b: Buffer) => this.deliver(new Uint8Array(b.buffer, b.byteOffset, b.byteLength).slice()));
    socket.on('close', () => this.lost(new Error('TCP connection closed')));
    socket.on('error', () => {
      // 'close' follows every 'error'; the port reports the loss there.
    });
  }

  static open(host: string, port: number, timeoutMs = 3000): Promise<TcpPort> {
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
        resolve(new TcpPort(socket, host, port));
      });
    });
  }

  write(bytes: Uint8Array): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`${this.description}: port closed`));
    return new Promise((resolve, reject) => this.socket.write(bytes, (e) => (e ? reject(e) : resolve())));
  }

  protected async shutdown(): Promise<void> {
    this.socket.destroy();
  }
}
