// Serves a simulator's device side over raw TCP, like a serial device server on a casino floor:
// one client at a time (a new one replaces the old), and dropping the client is a link loss.
import net from 'node:net';
import type { DeviceSide } from './device-side.js';

export interface DeviceServer {
  readonly host: string;
  readonly port: number;
  readonly connected: boolean;
  /** Drop the current client connection (the driver must reconnect). */
  dropClient(): void;
  close(): Promise<void>;
}

export function serveDevice(side: DeviceSide, host = '127.0.0.1', port = 0): Promise<DeviceServer> {
  let client: net.Socket | null = null;
  const server = net.createServer((socket) => {
    client?.destroy();
    client = socket;
    socket.setNoDelay(true);
    side.attach((bytes) => {
      if (!socket.destroyed) socket.write(bytes);
    });
    socket.on('data', (b: Buffer) => side.receive(new Uint8Array(b.buffer, b.byteOffset, b.byteLength).slice()));
    socket.on('close', () => {
      if (client === socket) {
        client = null;
        side.attach(null);
      }
    });
    socket.on('error', () => undefined);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const addr = server.address() as net.AddressInfo;
      resolve({
        host,
        port: addr.port,
        get connected() {
          return client !== null;
        },
        dropClient: () => client?.destroy(),
        close: () =>
          new Promise<void>((res) => {
            client?.destroy();
            server.close(() => res());
          }),
      });
    });
  });
}
