// A device on a serial port the operating system names (`/dev/ttyS0`, an on-board RS-232 port,
// the commonest wiring in cabinets; also `/dev/ttyUSB0` where the kernel's own USB-serial driver
// holds the bridge), through the `serialport` package. The line settings are the protocol's
// (ID-003 9600 8E1, SSP 9600 8N2, the shoe 9600 8N1), set by termios when the port opens. A port
// that goes away (a read error, the device gone) is a lost link, like an unplug: the driver's
// backoff opens it again.
import { SerialPort } from 'serialport';
import { BasePort, type LineSettings } from './byte-port.js';

export class SerialBytePort extends BasePort {
  readonly description: string;
  /** We are closing it: its 'close' is ours, not a lost link. */
  private closing = false;

  private constructor(private readonly port: SerialPort) {
    super();
    this.description = `serial:${port.path}`;
    port.on('data', (b: Buffer) => this.deliver(new Uint8Array(b.buffer, b.byteOffset, b.byteLength).slice()));
    // A close we did not ask for is a lost link, with or without serialport's DisconnectedError: a
    // pty whose other end went away is noticed by a read (EBADF) or only by the next write (EIO).
    port.on('close', (e?: Error | null) => this.lost(this.closing ? undefined : (e ?? new Error(`${this.description}: port lost`))));
    port.on('error', () => {
      // A failed read or write closes the port, and 'close' reports the loss.
    });
  }

  /** Opens `path` with the protocol's line settings; rejects (no such port, busy, no permission) without leaving it open. */
  static open(path: string, line: LineSettings): Promise<SerialBytePort> {
    return new Promise((resolve, reject) => {
      const port = new SerialPort({
        path,
        baudRate: line.baudRate,
        dataBits: line.dataBits,
        parity: line.parity,
        stopBits: line.stopBits,
        // Only this process may talk to the device: a second opener is refused (TIOCEXCL).
        lock: true,
        autoOpen: false,
      });
      port.open((e) => {
        if (e) reject(new Error(`serial:${path}: ${e.message}`));
        else resolve(new SerialBytePort(port));
      });
    });
  }

  write(bytes: Uint8Array): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`${this.description}: port closed`));
    // Resolved once the kernel has the bytes (its tty buffer feeds the UART). Not drain(): tcdrain
    // waits in libuv's thread pool for the far end to take them, and on a pty whose far end has
    // gone quiet it never returns, holding a pool thread that the port's close then waits behind.
    return new Promise((resolve, reject) => {
      this.port.write(Buffer.from(bytes), (e) => (e ? reject(e) : resolve()));
    });
  }

  protected shutdown(): Promise<void> {
    this.closing = true;
    return new Promise((resolve) => {
      if (!this.port.isOpen) resolve();
      else this.port.close(() => resolve());
    });
  }
}
