import fastifyWebsocket from '@fastify/websocket';
import Fastify, { LogController } from 'fastify';
import type { Logger } from 'pino';
import { MAX_MESSAGE_BYTES } from '../../protocol/index.js';
import type { ScreenSession, ScreenTransport } from '../screens/screen-session.js';
import { TokenBucket } from '../screens/token-bucket.js';
import type { TableCertificate } from '../stadium/table-certificate.js';
import type { PeerConnection } from '../peers/peer-listener.js';
import { clientLog, ConnectionGuard, type ConnectionLimits, type GuardClose } from './connection-guard.js';

/** One connection of a station agent's bill acceptor, as the host's remote acceptors take it. */
export interface DeviceConnection {
  receive(text: string): void;
  dispose(): void;
  /** Whether the agent's hello-device was accepted (the connection guard keeps it then). */
  greeted(): boolean;
}

export interface LanServerDeps {
  log: Logger;
  /** A remote station's screen: the same session as a local window's, but it must present a station credential. */
  openSession: (transport: ScreenTransport) => ScreenSession;
  /** A station agent's link (`/station-device`): its bill acceptor, and its SAS line; `allow` holds each kind of message to its rate once read. */
  openDevice: (
    send: (text: string, written: () => void) => void,
    close: (code: number, reason: string) => void,
    allow: (kind: 'device' | 'sas') => boolean,
  ) => DeviceConnection;
  /** A peer table host's link carrying transfers (`/peer`, host/peers/); none when the table has no peers. */
  /** `log`: bound to the connection's client, so its refusals spend that client's log budget. */
  openPeer?: (send: (text: string) => void, close: (code: number, reason: string) => void, log: Logger) => PeerConnection;
  certificate: TableCertificate;
  /** The hello deadline and the caps of this listener (connection-guard.ts). */
  connections: ConnectionLimits;
  /** Each connection the guard closed, by reason (/metrics). */
  onGuardClose?: (reason: GuardClose) => void;
}

/** A station agent's acceptor messages: at once, and a second sustained (a note is four or five messages). */
export const DEVICE_LIMITS = { burst: 40, perSecond: 10 } as const;
/** Its SAS line's (docs/sas.md, "Remote stations"): a system polls every few tens of milliseconds, a chunk a poll. */
export const SAS_RELAY_LIMITS = { burst: 200, perSecond: 200 } as const;

/**
 * A station agent's link before its messages are read: its acceptor's and its SAS line's rates
 * together (each is held to its own once read: host/devices/remote-acceptors.ts).
 */
export const DEVICE_LINK_LIMITS = {
  burst: DEVICE_LIMITS.burst + SAS_RELAY_LIMITS.burst,
  perSecond: DEVICE_LIMITS.perSecond + SAS_RELAY_LIMITS.perSecond,
} as const;

/** A screen's messages are JSON text frames: one options object for every send. */
const TEXT_FRAME = { binary: false } as const;

/**
 * The table's listener on the casino LAN, for remote stations only: TLS with the table's own
 * certificate (the stations pin it), a WebSocket for each remote station's screen (`/ws`) and
 * one for its bill acceptor (`/station-device`). Nothing else is served here: no screen files
 * (the station agent serves its own), no launch token is accepted (ScreenSession refuses a
 * `hello` from a remote transport), and a browser's cross-origin request is refused.
 */
export async function createLanServer(
  deps: LanServerDeps,
  host: string,
  port: number,
): Promise<{ host: string; port: number; close: () => Promise<void>; connections: () => ReturnType<ConnectionGuard['stats']> }> {
  const app = lanApp(deps);
  // Counted from the TCP accept, before TLS: a socket that never even starts its handshake is closed too.
  const guard = new ConnectionGuard(deps.connections, { listener: 'lan', log: deps.log, ...(deps.onGuardClose ? { onClose: deps.onGuardClose } : {}) });
  guard.attach(app.server);
  await app.register(fastifyWebsocket, { options: { maxPayload: 4 * MAX_MESSAGE_BYTES } });
  app.get('/healthz', async () => ({ status: 'ok' }));
  serveScreens(app, deps, guard);
  serveDevices(app, deps, guard);
  const openPeer = deps.openPeer;
  if (openPeer) servePeers(app, openPeer, deps, guard);
  await app.listen({ host, port });
  const address = app.server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  return {
    host,
    port: bound,
    connections: () => guard.stats(),
    close: async () => {
      guard.close();
      await app.close();
    },
  };
}

/** The HTTPS server with the table's certificate: small bodies, no request logs. */
function lanApp(deps: LanServerDeps) {
  return Fastify({
    loggerInstance: deps.log,
    logController: new LogController({ disableRequestLogging: true }),
    https: { key: deps.certificate.key, cert: deps.certificate.cert, minVersion: 'TLSv1.2' },
    bodyLimit: 1024,
    requestTimeout: 10_000,
  });
}

type LanApp = ReturnType<typeof lanApp>;

/** Station agents are not browsers: a page that reached the LAN port is refused (true when closed). */
function refuseBrowsers(origin: string | undefined, log: Logger, close: (code: number, reason: string) => void): boolean {
  if (origin === undefined) return false;
  log.warn({ origin }, 'LAN websocket from a browser refused');
  close(1008, 'origin');
  return true;
}

/** `/ws`: a remote station's screen session. */
function serveScreens(app: LanApp, deps: LanServerDeps, guard: ConnectionGuard): void {
  app.get('/ws', { websocket: true }, (socket, req) => {
    const log = clientLog(deps.log, req.socket);
    if (refuseBrowsers(req.headers.origin, log, (c, r) => socket.close(c, r))) return;
    const session = deps.openSession({
      remote: true,
      client: ConnectionGuard.address(req.socket) ?? 'unknown',
      send: (text) => socket.send(text),
      write: (m, written) => socket.send(m.bytes, TEXT_FRAME, () => written()),
      close: (code, reason) => socket.close(code, reason),
    });
    guard.watch(req.socket, () => session.view() !== null);
    socket.on('message', (data, isBinary) => session.receive(isBinary ? new Uint8Array(data as Buffer) : data.toString()));
    socket.on('close', () => session.dispose());
    socket.on('error', (err) => log.warn({ err, session: session.id }, 'LAN websocket error'));
  });
}

/** `/station-device`: a station agent's bill acceptor, text frames only, at an acceptor's rate. */
function serveDevices(app: LanApp, deps: LanServerDeps, guard: ConnectionGuard): void {
  app.get('/station-device', { websocket: true }, (socket, req) => {
    const log = clientLog(deps.log, req.socket);
    if (refuseBrowsers(req.headers.origin, log, (c, r) => socket.close(c, r))) return;
    const now = () => performance.now();
    const rates = {
      device: new TokenBucket(DEVICE_LIMITS.burst, DEVICE_LIMITS.perSecond, now),
      sas: new TokenBucket(SAS_RELAY_LIMITS.burst, SAS_RELAY_LIMITS.perSecond, now),
    };
    const device = deps.openDevice(
      (text, written) => socket.send(text, () => written()),
      (code, reason) => {
        socket.close(code, reason);
        if (reason === 'rate limit') socket.terminate();
      },
      (kind) => rates[kind].take(),
    );
    guard.watch(req.socket, () => device.greeted());
    // Its acceptor's and its SAS line's messages at most (each held to its own rate once read).
    const rate = new TokenBucket(DEVICE_LINK_LIMITS.burst, DEVICE_LINK_LIMITS.perSecond, () => performance.now());
    socket.on('message', (data, isBinary) => {
      if (isBinary) socket.close(1003, 'text frames only');
      else if (!rate.take()) {
        log.warn({ ...DEVICE_LINK_LIMITS }, 'station device link over its message rate: closed');
        socket.close(1008, 'rate limit');
        socket.terminate();
      } else device.receive(data.toString());
    });
    socket.on('close', () => device.dispose());
    socket.on('error', (err) => log.warn({ err }, 'station device websocket error'));
  });
}

/** `/peer`: a peer table host's transfer link. */
function servePeers(app: LanApp, openPeer: NonNullable<LanServerDeps['openPeer']>, deps: LanServerDeps, guard: ConnectionGuard): void {
  app.get('/peer', { websocket: true }, (socket, req) => {
    const log = clientLog(deps.log, req.socket);
    if (refuseBrowsers(req.headers.origin, log, (c, r) => socket.close(c, r))) return;
    const peer = openPeer(
      (text) => socket.send(text),
      (code, reason) => {
        socket.close(code, reason);
        socket.terminate();
      },
      log,
    );
    guard.watch(req.socket, () => peer.greeted());
    socket.on('message', (data, isBinary) => peer.receive(isBinary ? '' : data.toString(), isBinary));
    socket.on('close', () => peer.dispose());
    socket.on('error', (err) => log.warn({ err }, 'peer websocket error'));
  });
}
