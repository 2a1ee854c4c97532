import fastifyWebsocket from '@fastify/websocket';
import type { Logger } from 'pino';
import { MAX_MESSAGE_BYTES } from '../../protocol/index.js';
import { STATION_CLOSE_REASONS, type ScreenSession, type ScreenTransport } from '../screens/screen-session.js';
import { TokenBucket } from '../limits/token-bucket.js';
import type { TableCertificate } from '../stadium/table-certificate.js';
import { tlsListener } from '../stadium/tls-listener.js';
import type { PeerConnection } from '../peers/peer-listener.js';
import { closeAndCut, DEVICE_LINK_TIMING, keepAlive, SCREEN_PING_MS, sendBounded, type LinkTiming } from '../limits/bounded-socket.js';
import { clientLog, ConnectionGuard, type ConnectionLimits, type GuardClose } from '../limits/connection-guard.js';

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
  /**
   * A station agent's link (`/station-device`): its bill acceptor, and its SAS line; `allow` holds
   * each kind of message to its rate once read, and the bytes it relays to their line's; `log` is
   * the link's client's (its lines count against that client's budget).
   */
  openDevice: (
    send: (text: string, written: () => void) => void,
    close: (code: number, reason: string) => void,
    allow: (kind: 'device' | 'sas' | 'malformed', bytes: number) => RelayVerdict,
    log: Logger,
  ) => DeviceConnection;
  /** A peer table host's link carrying transfers (`/peer`, host/peers/); none when the table has no peers. */
  /** `log`: bound to the connection's client, so its refusals spend that client's log budget. */
  openPeer?: (send: (text: string) => void, close: (code: number, reason: string) => void, log: Logger) => PeerConnection;
  certificate: TableCertificate;
  /** The hello deadline and the caps of this listener (connection-guard.ts). */
  connections: ConnectionLimits;
  /** Each connection the guard closed, by reason (/metrics). */
  onGuardClose?: (reason: GuardClose) => void;
  /** A device link's send buffer cap and ping interval (default DEVICE_LINK_TIMING; tests: shorter). */
  deviceLink?: Partial<DeviceLinkTiming>;
  /** A remote station's screen link's ping interval (default SCREEN_PING_MS; tests: shorter). */
  screenPingMs?: number;
  /** A peer table's link's ping interval (default DEVICE_LINK_TIMING's, as the dialler pings; tests: shorter). */
  peerPingMs?: number;
}

/**
 * A device link's message or relayed bytes: handled, refused (dropped and counted), the link closed
 * for its refusals or malformed messages past their count (`close`), or for its message rate (`rate`).
 */
export type RelayVerdict = 'ok' | 'refused' | 'close' | 'rate';

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

/**
 * The bytes a link may relay a second, per line, at twice what the real line carries (the rest is
 * refused): what the host's driver or SAS machine does a second for a station is then no more than
 * twice what the station's own cable could make it do. A SAS line runs at 19,200 baud with the
 * wakeup bit, 11 bits a byte (start, 8 data, wakeup, stop): 1,745 bytes a second. ID-003 (9,600
 * baud, 8E1) and eSSP (9,600 baud, 8N2) are 11 bits a byte too: 873 a second. The burst holds two
 * full messages of a SAS line (3,072 bytes each) and one of an acceptor's: a relay that stalled a
 * second or two. Before this the message rates alone let a link relay ~600 KB a second of SAS
 * bytes, each handed to the SAS machine at once (~78 s of its work asked for a second).
 */
export const RELAYED_BYTE_LIMITS = {
  sas: { burst: 8192, perSecond: 3500 },
  device: { burst: 4096, perSecond: 1750 },
} as const;
/**
 * Messages refused over their bytes, or malformed (each its own count), a link may send (at once,
 * then a second) before it is closed: a screen's link is closed past its protocol errors and a
 * peer's at its first malformed frame; a station agent speaks the schema it was built with.
 */
export const RELAY_REFUSALS = { burst: 20, perSecond: 0.2 } as const;

/**
 * How long a link the listener closed has to answer the close frame before it is cut (ws waits
 * 30 s): a well-behaved station or peer answers at once and reads why; one that never answers
 * (hostile, or its machine gone) is counted under the listener's caps no longer than this.
 */
export const LAN_CLOSE_GRACE_MS = 1000;

/** A device link's send buffer cap and ping interval, the same at both ends (bounded-socket.ts). */
export type DeviceLinkTiming = LinkTiming;
export { DEVICE_LINK_TIMING };
/** The host's end of a device link, as its log lines name it. */
const DEVICE_LINK_NAME = 'station device link';

/** A screen's messages are JSON text frames: one options object for every send. */
const TEXT_FRAME = { binary: false } as const;

/**
 * The table's listener on the casino LAN, for remote stations and peer tables only: TLS with the
 * table's own certificate (the stations pin it), a WebSocket for each remote station's screen
 * (`/ws`) and one for its devices (`/station-device`), a peer table's link (`/peer`, when the
 * table has peers) and `/healthz`. Nothing else is served here: no screen files
 * (the station agent serves its own), no launch token is accepted (ScreenSession refuses a
 * `hello` from a remote transport), and a browser's cross-origin request is refused.
 */
export async function createLanServer(
  deps: LanServerDeps,
  host: string,
  port: number,
): Promise<{ host: string; port: number; close: () => Promise<void>; connections: () => ReturnType<ConnectionGuard['stats']> }> {
  const app = tlsListener(deps.log, deps.certificate);
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

type LanApp = ReturnType<typeof tlsListener>;

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
    if (refuseBrowsers(req.headers.origin, log, (c, r) => closeAndCut(socket, c, r, LAN_CLOSE_GRACE_MS))) return;
    const session = deps.openSession({
      remote: true,
      client: ConnectionGuard.address(req.socket) ?? 'unknown',
      send: (text) => socket.send(text),
      write: (m, written) => socket.send(m.bytes, TEXT_FRAME, () => written()),
      close: (code, reason) => {
        // Its slot under the listener's caps is free at once (its credential), or once it had the grace to answer (its conduct): never the 30 s of a close handshake.
        const now = reason === STATION_CLOSE_REASONS.revoked || reason === STATION_CLOSE_REASONS.replaced;
        closeAndCut(socket, code, reason, now ? 0 : LAN_CLOSE_GRACE_MS);
      },
    });
    // Earned while its session is open: one the host closed (its close frame unanswered, ws waits 30 s) may be evicted for a newcomer.
    guard.watch(req.socket, () => session.view() !== null && !session.closed());
    keepAlive(socket, deps.screenPingMs ?? SCREEN_PING_MS, { name: 'station screen link', log });
    socket.on('message', (data, isBinary) => session.receive(isBinary ? new Uint8Array(data as Buffer) : data.toString()));
    socket.on('close', () => session.dispose());
    socket.on('error', (err) => log.warn({ err, session: session.id }, 'LAN websocket error'));
  });
}

/** `/station-device`: a station agent's bill acceptor and SAS line, text frames only, at their lines' rates. */
function serveDevices(app: LanApp, deps: LanServerDeps, guard: ConnectionGuard): void {
  const timing = { ...DEVICE_LINK_TIMING, ...deps.deviceLink };
  app.get('/station-device', { websocket: true }, (socket, req) => {
    const log = clientLog(deps.log, req.socket);
    if (refuseBrowsers(req.headers.origin, log, (c, r) => closeAndCut(socket, c, r, LAN_CLOSE_GRACE_MS))) return;
    const device = deps.openDevice(
      (text, written) => sendBounded(socket, text, timing.maxBufferedBytes, { name: DEVICE_LINK_NAME, log }, written),
      (code, reason) => {
        // Nothing more of a link cut for its rate or its credential is read; any other is cut once it had the grace to answer: never the 30 s of a close handshake.
        const now = reason === 'rate limit' || reason === 'credential revoked';
        closeAndCut(socket, code, reason, now ? 0 : LAN_CLOSE_GRACE_MS);
      },
      linkRates(log),
      log,
    );
    guard.watch(req.socket, () => device.greeted());
    keepAlive(socket, timing.pingMs, { name: DEVICE_LINK_NAME, log });
    // Its acceptor's and its SAS line's messages at most (each held to its own rate once read).
    const rate = new TokenBucket(DEVICE_LINK_LIMITS.burst, DEVICE_LINK_LIMITS.perSecond, () => performance.now());
    // Once the listener closed the link, nothing more of it is handed to the station (it is cut when its grace ends).
    let closing = false;
    socket.on('message', (data, isBinary) => {
      if (closing) return;
      if (isBinary) {
        closing = true;
        closeAndCut(socket, 1003, 'text frames only', LAN_CLOSE_GRACE_MS);
      } else if (!rate.take()) {
        log.warn({ ...DEVICE_LINK_LIMITS }, 'station device link over its message rate: closed');
        closeAndCut(socket, 1008, 'rate limit');
      } else device.receive(data.toString());
    });
    socket.on('close', () => device.dispose());
    socket.on('error', (err) => log.warn({ err }, 'station device websocket error'));
  });
}

/** A link's rates once its messages are read: each kind's messages, and the bytes each line relays (refused past its budget, closed past RELAY_REFUSALS); malformed ones counted apart, closed past the same. */
export function linkRates(log: Logger): (kind: 'device' | 'sas' | 'malformed', bytes: number) => RelayVerdict {
  const now = () => performance.now();
  const messages = {
    device: new TokenBucket(DEVICE_LIMITS.burst, DEVICE_LIMITS.perSecond, now),
    sas: new TokenBucket(SAS_RELAY_LIMITS.burst, SAS_RELAY_LIMITS.perSecond, now),
  };
  const bytes = {
    device: new TokenBucket(RELAYED_BYTE_LIMITS.device.burst, RELAYED_BYTE_LIMITS.device.perSecond, now),
    sas: new TokenBucket(RELAYED_BYTE_LIMITS.sas.burst, RELAYED_BYTE_LIMITS.sas.perSecond, now),
  };
  const refusals = new TokenBucket(RELAY_REFUSALS.burst, RELAY_REFUSALS.perSecond, now);
  const malformed = new TokenBucket(RELAY_REFUSALS.burst, RELAY_REFUSALS.perSecond, now);
  let refused = 0;
  return (kind, n) => {
    // A message the schema refuses, or one out of its link's role (RemoteAcceptors.outOfRole): of neither line (held to the acceptor's message rate, the lower), and counted.
    if (kind === 'malformed') {
      // Over the rate: said as the rate (before, 'close', and the link was closed as malformed messages).
      if (!messages.device.take()) return 'rate';
      if (malformed.take()) return 'refused';
      log.warn({ limits: RELAY_REFUSALS }, 'station device link kept sending malformed messages: closed');
      return 'close';
    }
    if (!messages[kind].take()) return 'rate';
    if (n === 0 || bytes[kind].take(n)) return 'ok';
    refused++;
    if (refused === 1) log.warn({ line: kind, bytes: n, limits: RELAYED_BYTE_LIMITS[kind] }, 'station device link over its relayed bytes: refused');
    if (refusals.take()) return 'refused';
    log.warn({ line: kind, refused, limits: RELAYED_BYTE_LIMITS[kind] }, 'station device link kept relaying over its bytes: closed');
    return 'close';
  };
}

/** `/peer`: a peer table host's transfer link. */
function servePeers(app: LanApp, openPeer: NonNullable<LanServerDeps['openPeer']>, deps: LanServerDeps, guard: ConnectionGuard): void {
  app.get('/peer', { websocket: true }, (socket, req) => {
    const log = clientLog(deps.log, req.socket);
    if (refuseBrowsers(req.headers.origin, log, (c, r) => closeAndCut(socket, c, r, LAN_CLOSE_GRACE_MS))) return;
    const peer = openPeer(
      (text) => socket.send(text),
      (code, reason) => closeAndCut(socket, code, reason),
      log,
    );
    guard.watch(req.socket, () => peer.greeted());
    // The listener only ever sends a peer its welcome: a peer's machine gone (power, cable) is found out by its pings alone.
    keepAlive(socket, deps.peerPingMs ?? DEVICE_LINK_TIMING.pingMs, { name: 'peer link', log });
    socket.on('message', (data, isBinary) => peer.receive(isBinary ? '' : data.toString(), isBinary));
    socket.on('close', () => peer.dispose());
    socket.on('error', (err) => log.warn({ err }, 'peer websocket error'));
  });
}
