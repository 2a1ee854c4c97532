import fastifyWebsocket from '@fastify/websocket';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import { MAX_MESSAGE_BYTES } from '../../protocol/index.js';
import { OUTBOX_LIMITS } from '../screens/outbox.js';
import { StationScreens } from '../screens/station-connections.js';
import { closeAndCut, keepAlive, SCREEN_PING_MS } from '../limits/bounded-socket.js';
import { ConnectionGuard, type ConnectionLimits } from '../limits/connection-guard.js';
import type { TableCertificate } from '../stadium/table-certificate.js';
import { tlsListener } from '../stadium/tls-listener.js';
import type { Edge } from './edge.js';
import { EdgeSession } from './edge-session.js';
import { textFrame, TurnBatch } from './socket-turn.js';

const TEXT_FRAME = { binary: false } as const;

/**
 * A connection that has not proved its station within 10 s (from its accept, then again from its
 * upgrade) is not a station's: longer than the host's own 5 s, the proof goes on to the host over
 * NATS and back (its attachment) before the station is welcomed.
 */
export const EDGE_HELLO_MS = 10_000;

/**
 * How long a connection the edge closed (its station moved to another edge or revoked, a refusal,
 * a full send buffer) has to answer the close frame before its socket is cut. A station answers at
 * once; one that never does (hostile, or its machine gone) held its slot under the caps for the 30 s
 * of ws's close handshake. A wait, not a cut at once as at the host's listener: the edge's writes
 * are corked to the turn's end (socket-turn.ts), so a cut at once would drop the close frame itself.
 */
export const EDGE_CLOSE_GRACE_MS = 1000;

/**
 * A station's session on its WebSocket. Its messages are written to the TLS socket under it (the
 * one the upgrade came on), held with the turn's others (`batch`), each message's frame made once
 * for every station; `ws` frames them itself only on a connection with an extension (the edge
 * offers none). No callback per write: the outbox reads the socket's `bufferedAmount` and goes on
 * at its `drain`.
 */
function stationSession(edge: Edge, socket: WebSocket, stream: Socket, batch: TurnBatch, screens: StationScreens, log: Logger): EdgeSession {
  const framed = socket.extensions === '';
  const session = new EdgeSession(
    edge,
    {
      send: (m) => {
        if (socket.readyState !== socket.OPEN) return;
        if (framed) return batch.write(stream, textFrame(m));
        batch.hold(stream);
        socket.send(m.bytes, TEXT_FRAME);
      },
      buffered: () => socket.bufferedAmount,
      // Every close is the edge's own (a move, a revocation, a refusal): the socket is cut if unanswered.
      close: (code, reason) => closeAndCut(socket, code, reason, EDGE_CLOSE_GRACE_MS),
    },
    log,
    // At least the socket's own high-water mark: the outbox waits for its `drain`, which only a stream past its mark emits.
    Math.max(OUTBOX_LIMITS.highWater, stream.writableHighWaterMark),
    screens,
  );
  stream.on('drain', () => session.outbox.drained());
  return session;
}

/**
 * The edge's listener for stations: TLS with the edge's own certificate (the stations pin it), `/ws`
 * only. Guarded as the host's own LAN listener is (`ConnectionGuard`): every TCP connection counted
 * from its accept against `caps` (per client address, in all) and closed unless its station proved
 * itself within `EDGE_HELLO_MS`, so sockets that never say a word cannot take the edge's file
 * descriptors (nor, upgraded, a nonce and a session each) from the real stations.
 */
export async function createEdgeServer(
  edge: Edge,
  deps: {
    log: Logger;
    certificate: TableCertificate;
    host: string;
    port: number;
    caps: { perAddress: number; total: number };
    helloMs?: number;
    pingMs?: number;
  },
): Promise<{
  origin: string;
  port: number;
  sessions: () => number;
  /** Connections open under the guard, and those it closed by reason. */
  connections: () => ReturnType<ConnectionGuard['stats']>;
  /** Messages and bytes written to the stations, summed over every connection opened. */
  sent: () => { messages: number; bytes: number };
  /** Writes to the stations' sockets so far: one a socket a turn that wrote to it (`TurnBatch`). */
  writes: () => number;
  close: () => Promise<void>;
  kill: () => Promise<void>;
}> {
  const app = tlsListener(deps.log, deps.certificate);
  const limits: ConnectionLimits = { helloMs: deps.helloMs ?? EDGE_HELLO_MS, ...deps.caps };
  const guard = new ConnectionGuard(limits, { listener: 'edge', log: deps.log });
  guard.attach(app.server);
  await app.register(fastifyWebsocket, { options: { maxPayload: 4 * MAX_MESSAGE_BYTES } });
  const { open, sockets, gone, batch } = serveStations(app, edge, deps, guard);
  await app.listen({ host: deps.host, port: deps.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : deps.port;
  return {
    origin: `https://${deps.host.includes(':') ? `[${deps.host}]` : deps.host}:${port}`,
    port,
    sessions: () => open.size,
    connections: () => guard.stats(),
    sent: () => {
      const n = { ...gone };
      for (const s of open) {
        n.messages += s.outbox.counters.sent;
        n.bytes += s.outbox.counters.bytes;
      }
      return n;
    },
    writes: () => batch.counters.uncorked,
    close: async () => {
      for (const s of open) s.close(1001, 'edge stopping');
      guard.close();
      await app.close();
    },
    // As a crash would: every socket cut without a close frame (the tests' edge killed mid-coup).
    kill: async () => {
      for (const s of sockets) s.terminate();
      guard.close();
      await app.close();
    },
  };
}

type EdgeServerDeps = Parameters<typeof createEdgeServer>[1];

/** The stations' connections at the edge: open sessions and sockets, and what the closed ones were sent. */
interface EdgeStations {
  open: Set<EdgeSession>;
  sockets: Set<{ terminate(): void }>;
  gone: { messages: number; bytes: number };
  batch: TurnBatch;
}

/** `/ws`: a station's session, watched by the guard until it proves itself and pinged for as long as it is open. */
function serveStations(app: ReturnType<typeof tlsListener>, edge: Edge, deps: EdgeServerDeps, guard: ConnectionGuard): EdgeStations {
  const open = new Set<EdgeSession>();
  const sockets = new Set<{ terminate(): void }>();
  const gone = { messages: 0, bytes: 0 };
  // Every station's writes of a turn held and let go together (one TLS record per socket per turn).
  const batch = new TurnBatch();
  // Each station's welcomed connections, bounded as at the host's own listener (SCREENS_PER_STATION).
  const screens = new StationScreens();
  app.get('/ws', { websocket: true }, (socket, req) => {
    if (req.headers.origin !== undefined) return socket.close(1008, 'origin');
    const session = stationSession(edge, socket, req.raw.socket, batch, screens, deps.log);
    open.add(session);
    sockets.add(socket);
    guard.watch(req.socket, () => session.welcomed());
    keepAlive(socket, deps.pingMs ?? SCREEN_PING_MS, { name: 'station screen link', log: deps.log });
    socket.on('message', (data, isBinary) => session.receive(isBinary ? new Uint8Array(data as Buffer) : data.toString()));
    socket.on('close', () => {
      open.delete(session);
      sockets.delete(socket);
      gone.messages += session.outbox.counters.sent;
      gone.bytes += session.outbox.counters.bytes;
      session.dispose();
    });
    socket.on('error', (err) => deps.log.warn({ err, session: session.id }, 'edge websocket error'));
  });
  return { open, sockets, gone, batch };
}
