import fastifyWebsocket from '@fastify/websocket';
import { MAX_MESSAGE_BYTES } from '../../../protocol/index.js';
import { clientLog, ConnectionGuard } from '../../limits/connection-guard.js';
import type { HostApp, HttpServerDeps } from '../http-deps.js';

/**
 * The protocol over WebSocket at `/ws`: one screen session per socket, from a page of this host
 * only (`hosts()`: the names it answers to, known once it listens).
 */
export async function screenSocketRoute(app: HostApp, deps: HttpServerDeps, guard: ConnectionGuard, hosts: () => ReadonlySet<string>): Promise<void> {
  // Frames up to 4× the protocol limit are read and refused with a typed `oversized` error; a
  // larger one is not buffered at all: the socket closes with 1009 (message too big).
  await app.register(fastifyWebsocket, { options: { maxPayload: 4 * MAX_MESSAGE_BYTES } });
  app.get('/ws', { websocket: true }, (socket, req) => {
    const origin = req.headers.origin;
    // Browsers always send Origin: a page from anywhere else must not reach the host. Local
    // tools without a browser send none and are kept out by the launch token instead.
    if (origin !== undefined && !hosts().has(origin.replace(/^https?:\/\//, ''))) {
      clientLog(deps.log, req.socket).warn({ origin }, 'websocket from a foreign origin refused');
      socket.close(1008, 'origin');
      return;
    }
    const client = ConnectionGuard.address(req.socket) ?? 'unknown';
    const session = deps.openSession({
      client,
      send: (text) => socket.send(text),
      // Bytes encoded once for every screen; `written` once ws has handed them to the socket.
      write: (m, written) => socket.send(m.bytes, { binary: false }, () => written()),
      close: (code, reason) => socket.close(code, reason),
    });
    // Kept once its hello is accepted and while its session is open; closed at the hello deadline otherwise.
    guard.watch(req.socket, () => session.view() !== null && !session.closed());
    socket.on('message', (data, isBinary) => session.receive(isBinary ? new Uint8Array(data as Buffer) : data.toString()));
    socket.on('close', () => session.dispose());
    socket.on('error', (err) => deps.log.child({ client }).warn({ err, session: session.id }, 'websocket error'));
  });
}
