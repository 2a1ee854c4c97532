import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { LogController, type FastifyRequest } from 'fastify';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { Logger } from 'pino';
import type WebSocket from 'ws';
import { decodeClientMessage, encode, MAX_MESSAGE_BYTES, protocolError, StationTables, stationView } from '../../protocol/index.js';
import { ConnectionGuard, type ConnectionLimits } from '../limits/connection-guard.js';
import type { EnrolmentFile } from '../stadium/enrolment-file.js';
import { screenCsp } from '../server/security-headers.js';
import { relayTable, type TableRelayOptions } from './table-relay.js';

export interface ScreenRelayOptions {
  /** The tables joined, the home first: each enrolment, and how to open a link to its `/ws` over its pinned TLS settings. */
  tables: readonly { enrolment: EnrolmentFile; connect: () => WebSocket }[];
  log: Logger;
  /** The built renderer (`dist/renderer`): the station's screen is served from this machine. */
  rendererDir: string;
  port?: number;
  /** A table's flood limit per screen link (tests set it low). */
  flood?: TableRelayOptions['flood'];
  /** How the screen port admits connections (default SCREEN_PORT_LIMITS; tests: a shorter deadline). */
  connections?: ConnectionLimits;
}

/**
 * The station's screen port admits this many connections at once (all from the loopback, so the
 * per-address cap is the total), each to say its hello within 5 s (the host's own deadline): a
 * screen of 8 tables holds 8 WebSockets, a reload's overlap as many again, and a browser's page
 * load a few HTTP connections. Before (a review), a connection that never said its hello was held
 * for ever: any local process could pile silent sockets up until the agent ran out of descriptors.
 */
export const SCREEN_PORT_LIMITS: ConnectionLimits = { helloMs: 5000, perAddress: 64, total: 64 };

/**
 * The station's own screen, served to the browser on this machine (loopback only) and relayed
 * to each table it joined: the browser proves it is the window the agent opened with a local
 * launch token, and the agent presents the station's credential at each table in its place, so
 * the secret never reaches the browser and the browser never reaches the LAN (table-relay.ts).
 * `/ws` is the home table's link (a screen of one table is the single-table station screen, as
 * before), `/ws/N` the Nth table's, and `/tables` says which table each link is, from the
 * enrolments: a table never names itself to the screen.
 */
export async function startScreenRelay(o: ScreenRelayOptions): Promise<{ url: string; token: string; port: number; close: () => Promise<void> }> {
  const home = o.tables[0];
  if (!home) throw new Error('a station screen needs one table at least');
  const token = randomBytes(24).toString('base64url');
  const tokenOk = (given: string) => {
    const a = Buffer.from(given);
    const b = Buffer.from(token);
    return a.length === b.length && timingSafeEqual(a, b);
  };
  const tables = StationTables.parse({ tables: o.tables.map((t, i) => ({ tableId: t.enrolment.tableId, station: t.enrolment.station, home: i === 0 })) });
  const view = stationView(home.enrolment.station);
  const app = Fastify({ loggerInstance: o.log, logController: new LogController({ disableRequestLogging: true }), bodyLimit: 1024 });
  await app.register(fastifyWebsocket, { options: { maxPayload: 4 * MAX_MESSAGE_BYTES } });
  // Counted from the TCP accept: a connection says its hello with the launch token in time (or asks for a file), or is closed.
  const guard = new ConnectionGuard(o.connections ?? SCREEN_PORT_LIMITS, { listener: 'station-screen', log: o.log });
  guard.attach(app.server);
  let hosts = new Set<string>();
  app.addHook('onRequest', async (req, reply) => {
    if (!hosts.has(req.headers.host ?? '')) return reply.code(421).send({ error: 'misdirected request' });
  });
  const screenLink = (table: (typeof o.tables)[number]) => (local: WebSocket, req: FastifyRequest) => {
    const origin = req.headers.origin;
    if (origin !== undefined && !hosts.has(origin.replace(/^https?:\/\//, ''))) return local.close(1008, 'origin');
    const refuse = (code: 'unauthorized' | 'hello-required', detail: string) => {
      local.send(encode(protocolError(code, detail)));
      local.close(1008, code);
    };
    // Kept once its hello names the launch token; closed at the hello deadline otherwise.
    let greeted = false;
    guard.watch(req.socket, () => greeted);
    // The first message is the screen's hello with the local launch token; the rest is the table relay's.
    local.once('message', (data) => {
      const d = decodeClientMessage(String(data));
      if (!d.ok || d.message.type !== 'hello') return refuse('hello-required', 'hello with the local launch token first');
      if (!tokenOk(d.message.token)) return refuse('unauthorized', 'unknown launch token');
      greeted = true;
      relayTable(local, { enrolment: table.enrolment, connect: table.connect, log: o.log, ...(o.flood ? { flood: o.flood } : {}) }, d.message);
    });
  };
  app.get('/ws', { websocket: true }, screenLink(home));
  o.tables.forEach((table, i) => app.get(`/ws/${i}`, { websocket: true }, screenLink(table)));
  app.get('/tables', (req, reply) => {
    const given = new URL(req.url, 'http://local').searchParams.get('token') ?? '';
    if (!tokenOk(given)) return reply.code(401).send({ error: 'unknown launch token' });
    reply.header('Cache-Control', 'no-store');
    return tables;
  });
  if (existsSync(o.rendererDir)) {
    await app.register(fastifyStatic, { root: o.rendererDir, prefix: '/', index: false });
    app.get(`/${view}`, (req, reply) => {
      reply.header('Content-Security-Policy', screenCsp([`ws://${req.headers.host}`]));
      reply.header('Cache-Control', 'no-store');
      return reply.sendFile('index.html', { cacheControl: false });
    });
  } else o.log.warn({ rendererDir: o.rendererDir }, 'renderer not built: the station screen is not served (npm run build:renderer)');
  await app.listen({ host: '127.0.0.1', port: o.port ?? 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (o.port ?? 0);
  hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  // A screen of several tables is told so in its address; one of one table is the station screen as before.
  const several = o.tables.length > 1 ? '&tables=1' : '';
  return {
    url: `http://127.0.0.1:${port}/${view}?token=${encodeURIComponent(token)}${several}`,
    token,
    port,
    close: async () => {
      guard.close();
      await app.close();
    },
  };
}
