// The host simulator's ends of a link: a pseudo-terminal of a socat pair, or a TCP listener the
// machine dials (as a station dials a terminal server). Transport only; the protocol is host.ts's.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { SerialBytePort } from '../../../hardware/transport/serial.js';
import type { HostIo } from './host.js';

/** A linked pair of pseudo-terminals made by socat, `host` and `machine`, for as long as it runs. */
export async function ptyPair(dir: string): Promise<{ host: string; machine: string; socat: ChildProcess }> {
  const host = path.join(dir, 'sas-host');
  const machine = path.join(dir, 'sas-machine');
  const socat = spawn('socat', [`pty,raw,echo=0,link=${host}`, `pty,raw,echo=0,link=${machine}`], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  socat.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  await new Promise<void>((resolve, reject) => {
    socat.once('error', (e) => reject(new Error(`socat could not start (${e.message}): run tsx scripts/check-system.ts`)));
    socat.once('exit', (code) => reject(new Error(`socat exited with ${code}: ${stderr}`)));
    const started = Date.now();
    const poll = setInterval(() => {
      if (existsSync(host) && existsSync(machine)) {
        clearInterval(poll);
        resolve();
      } else if (Date.now() - started > 5000) {
        clearInterval(poll);
        reject(new Error(`socat made no pty pair in 5 s: ${stderr}`));
      }
    }, 20);
  });
  socat.removeAllListeners('exit');
  return { host, machine, socat };
}

/** The host's end of a pty (the kiosk's serial transport carries bytes; the protocol is all host.ts's). */
export async function openPtyHost(file: string): Promise<HostIo> {
  const port = await SerialBytePort.open(file, { baudRate: 19_200, dataBits: 8, parity: 'none', stopBits: 1 });
  return {
    write: (bytes) => port.write(bytes),
    onData: (fn) => void port.onData(fn),
    close: () => port.close(),
  };
}

/** A TCP listener on loopback; `connected` is its first connection, `next()` each one after. */
export async function listenTcpHost(): Promise<{ port: number; connected: Promise<HostIo>; next(): Promise<HostIo>; close(): Promise<void> }> {
  const server = net.createServer();
  const sockets = new Set<net.Socket>();
  const arrived: HostIo[] = [];
  const waiting: ((io: HostIo) => void)[] = [];
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.setNoDelay(true);
    const listeners: ((b: Uint8Array) => void)[] = [];
    socket.on('data', (b: Buffer) => listeners.forEach((fn) => fn(new Uint8Array(b))));
    socket.on('error', () => undefined);
    const io: HostIo = {
      write: (bytes) => new Promise((ok, fail) => socket.write(bytes, (err) => (err ? fail(err) : ok()))),
      onData: (fn) => void listeners.push(fn),
      close: async () => void socket.destroy(),
    };
    const w = waiting.shift();
    if (w) w(io);
    else arrived.push(io);
  });
  const next = (): Promise<HostIo> => {
    const io = arrived.shift();
    return io ? Promise.resolve(io) : new Promise((resolve) => waiting.push(resolve));
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP port');
  return {
    port: address.port,
    connected: next(),
    next,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
