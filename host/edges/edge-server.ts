import fastifyWebsocket from '@fastify/websocket';
import Fastify, { LogController } from 'fastify';
import type { Logger } from 'pino';
import { MAX_MESSAGE_BYTES } from '../../protocol/index.js';
import type { TableCertificate } from '../stadium/table-certificate.js';
import type { Edge } from './edge.js';
import { EdgeSession } from './edge-session.js';

const TEXT_FRAME = { binary: false } as const;

/** The edge's listener for stations: TLS with the edge's own certificate (the stations pin it), `/ws` only. */
export async function createEdgeServer(
  edge: Edge,
  deps: { log: Logger; certificate: TableCertificate; host: string; port: number },
): Promise<{
  origin: string;
  port: number;
  sessions: () => number;
  /** Messages and bytes written to the stations, summed over every connection opened. */
  sent: () => { messages: number; bytes: number };
  close: () => Promise<void>;
  kill: () => Promise<void>;
}> {
  const app = Fastify({
    loggerInstance: deps.log,
    logController: new LogController({ disableRequestLogging: true }),
    https: { key: deps.certificate.key, cert: deps.certificate.cert, minVersion: 'TLSv1.2' },
    bodyLimit: 1024,
    requestTimeout: 10_000,
  });
  await app.register(fastifyWebsocket, { options: { maxPayload: 4 * MAX_MESSAGE_BYTES } });
  const open = new Set<EdgeSession>();
  const sockets = new Set<{ terminate(): void }>();
  const gone = { messages: 0, bytes: 0 };
  app.get('/ws', { websocket: true }, (socket, req) => {
    if (req.headers.origin !== undefined) return socket.close(1008, 'origin');
    const session = new EdgeSession(
      edge,
      {
        remote: true,
        send: (text) => socket.send(text),
        write: (m, written) => socket.send(m.bytes, TEXT_FRAME, () => written()),
        close: (code, reason) => socket.close(code, reason),
      },
      deps.log,
    );
    open.add(session);
    sockets.add(socket);
    // A connection that has not proved who it is within 10 s is not a station's.
    const hello = setTimeout(() => !session.welcomed() && session.close(1008, 'no hello'), 10_000);
    socket.on('message', (data, isBinary) => session.receive(isBinary ? new Uint8Array(data as Buffer) : data.toString()));
    socket.on('close', () => {
      clearTimeout(hello);
      open.delete(session);
      sockets.delete(socket);
      gone.messages += session.outbox.counters.sent;
      gone.bytes += session.outbox.counters.bytes;
      session.dispose();
    });
    socket.on('error', (err) => deps.log.warn({ err, session: session.id }, 'edge websocket error'));
  });
  await app.listen({ host: deps.host, port: deps.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : deps.port;
  return {
    origin: `https://${deps.host.includes(':') ? `[${deps.host}]` : deps.host}:${port}`,
    port,
    sessions: () => open.size,
    sent: () => {
      const n = { ...gone };
      for (const s of open) {
        n.messages += s.outbox.counters.sent;
        n.bytes += s.outbox.counters.bytes;
      }
      return n;
    },
    close: async () => {
      for (const s of open) s.close(1001, 'edge stopping');
      await app.close();
    },
    // As a crash would: every socket cut without a close frame (the tests' edge killed mid-coup).
    kill: async () => {
      for (const s of sockets) s.terminate();
      await app.close();
    },
  };
}
