import fastifyWebsocket from '@fastify/websocket';
import Fastify, { LogController } from 'fastify';
import type { Logger } from 'pino';
import { MAX_MESSAGE_BYTES } from '../../protocol/index.js';
import type { ScreenSession, ScreenTransport } from '../screens/screen-session.js';
import type { TableCertificate } from '../stadium/table-certificate.js';

/** One connection of a station agent's bill acceptor, as the host's remote acceptors take it. */
export interface DeviceConnection {
  receive(text: string): void;
  dispose(): void;
}

export interface LanServerDeps {
  log: Logger;
  /** A remote station's screen: the same session as a local window's, but it must present a station credential. */
  openSession: (transport: ScreenTransport) => ScreenSession;
  /** A station agent's bill acceptor link (`/station-device`). */
  openDevice: (send: (text: string, written: () => void) => void, close: (code: number, reason: string) => void) => DeviceConnection;
  certificate: TableCertificate;
}

/**
 * The table's listener on the casino LAN, for remote stations only: TLS with the table's own
 * certificate (the stations pin it), a WebSocket for each remote station's screen (`/ws`) and
 * one for its bill acceptor (`/station-device`). Nothing else is served here: no screen files
 * (the station agent serves its own), no launch token is accepted (ScreenSession refuses a
 * `hello` from a remote transport), and a browser's cross-origin request is refused.
 */
/** A screen's messages are JSON text frames: one options object for every send. */
const TEXT_FRAME = { binary: false } as const;

export async function createLanServer(deps: LanServerDeps, host: string, port: number): Promise<{ host: string; port: number; close: () => Promise<void> }> {
  const app = Fastify({
    loggerInstance: deps.log,
    logController: new LogController({ disableRequestLogging: true }),
    https: { key: deps.certificate.key, cert: deps.certificate.cert, minVersion: 'TLSv1.2' },
    bodyLimit: 1024,
  });
  await app.register(fastifyWebsocket, { options: { maxPayload: 4 * MAX_MESSAGE_BYTES } });
  app.get('/healthz', async () => ({ status: 'ok' }));
  const refuseBrowsers = (origin: string | undefined, close: (code: number, reason: string) => void): boolean => {
    // Station agents are not browsers: a page that reached the LAN port is refused.
    if (origin === undefined) return false;
    deps.log.warn({ origin }, 'LAN websocket from a browser refused');
    close(1008, 'origin');
    return true;
  };
  app.get('/ws', { websocket: true }, (socket, req) => {
    if (refuseBrowsers(req.headers.origin, (c, r) => socket.close(c, r))) return;
    const session = deps.openSession({
      remote: true,
      send: (text) => socket.send(text),
      write: (m, written) => socket.send(m.bytes, TEXT_FRAME, () => written()),
      close: (code, reason) => socket.close(code, reason),
    });
    socket.on('message', (data, isBinary) => session.receive(isBinary ? new Uint8Array(data as Buffer) : data.toString()));
    socket.on('close', () => session.dispose());
    socket.on('error', (err) => deps.log.warn({ err, session: session.id }, 'LAN websocket error'));
  });
  app.get('/station-device', { websocket: true }, (socket, req) => {
    if (refuseBrowsers(req.headers.origin, (c, r) => socket.close(c, r))) return;
    const device = deps.openDevice(
      (text, written) => socket.send(text, () => written()),
      (code, reason) => socket.close(code, reason),
    );
    socket.on('message', (data, isBinary) => {
      if (isBinary) socket.close(1003, 'text frames only');
      else device.receive(data.toString());
    });
    socket.on('close', () => device.dispose());
    socket.on('error', (err) => deps.log.warn({ err }, 'station device websocket error'));
  });
  await app.listen({ host, port });
  const address = app.server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  return { host, port: bound, close: () => app.close() };
}
