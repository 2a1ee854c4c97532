import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { LogController, type FastifyReply } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { Language, MAX_MESSAGE_BYTES } from '../../protocol/index.js';
import { TIMER_KINDS, type TimerKind } from '../../engine/table/state.js';
import { z } from 'zod';

export type ServiceExportKind = 'meters.csv' | 'meters.json' | 'meters.html' | 'evidence' | 'enrolment';
import type { ScreenSession, ScreenTransport } from '../screens/screen-session.js';
import { clientLog, ConnectionGuard, type ConnectionLimits, type GuardClose } from './connection-guard.js';
import { allowedHosts, screenCsp } from './security-headers.js';

export interface HttpServerDeps {
  openSession: (transport: ScreenTransport) => ScreenSession;
  log: Logger;
  /** The built renderer (`dist/renderer`); without it the host still serves the protocol. */
  rendererDir: string;
  health: () => Record<string, unknown>;
  /** The hello deadline and the caps of this listener (connection-guard.ts). */
  connections: ConnectionLimits;
  /** Each connection the guard closed, by reason (/metrics). */
  onGuardClose?: (reason: GuardClose) => void;
  /**
   * Prometheus metrics at `/metrics`, answered only to `Authorization: Bearer <token>` (the
   * token of `--metrics-token-file`, not a screen's); absent: no metrics route.
   */
  metrics?: { token: string; contentType: string; text: () => Promise<string> };
  /**
   * Simulated mode's control channel for tests and demos (`--sim-controls`): insert a note at a
   * simulated acceptor. Absent unless asked for; needs its own token; loopback only, like all.
   */
  simControls?: {
    token: string;
    insertNote(station: number, note: number): string | null;
    /** The next card the simulated dealer pulls reads as unreadable; null, or why not. */
    unreadableNext(): string | null;
    /** The dealer draws a card now that the table did not ask for (a dealing error to correct); null, or why not. */
    misdraw(): string | null;
    /** Jams a station's simulated bill acceptor (a fault the screens must word), or clears it. */
    billFault(station: number, fault: 'jam' | 'clear'): string | null;
    /** The countdown of this kind running now ends at once; null, or why not. */
    endCountdown(kind: TimerKind): string | null;
    /** The countdown of this kind running now waits for endCountdown; null, or why not. */
    freezeCountdown(kind: TimerKind): string | null;
  };
  /**
   * Service mode's exports (meters CSV/JSON, a round's evidence bundle), answered only for the
   * export token of the signed-in service session (`?t=`); null refuses.
   */
  serviceExport?: (
    token: string,
    kind: ServiceExportKind,
    roundId?: string,
    language?: Language,
  ) => { contentType: string; filename: string; body: string; inline?: boolean } | null;
}

/** Paths that serve the screen page; the page reads its view from the path. */
const SCREEN_ROUTES = ['/table', '/station/:n', '/service'];

/**
 * The host's loopback web server: the screens' static files, the protocol over WebSocket at
 * `/ws`, and `/healthz`. Listening on 127.0.0.1 only.
 */
export async function createHttpServer(
  deps: HttpServerDeps,
  port: number,
): Promise<{ port: number; close: () => Promise<void>; connections: () => ReturnType<ConnectionGuard['stats']> }> {
  const app = Fastify({
    loggerInstance: deps.log,
    // Screens poll nothing and load a handful of files: per-request lines would only bury faults.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 16 * 1024,
    // A request's body trickled in byte by byte holds its connection no longer than this.
    requestTimeout: 10_000,
  });
  // Counted from the TCP accept: a connection says its hello (or asks something) in time, or is closed.
  const guard = new ConnectionGuard(deps.connections, { listener: 'local', log: deps.log, ...(deps.onGuardClose ? { onClose: deps.onGuardClose } : {}) });
  guard.attach(app.server);
  let hosts = new Set<string>();

  app.addHook('onRequest', async (req, reply) => {
    if (!hosts.has(req.headers.host ?? '')) {
      // The path only: a screen's URL carries its launch token in the query, which never reaches a log.
      clientLog(deps.log, req.socket).warn({ host: req.headers.host, path: req.url.split('?')[0] }, 'request for a foreign host refused');
      return reply.code(421).send({ error: 'misdirected request' });
    }
  });

  app.get('/healthz', async () => ({ status: 'ok', ...deps.health() }));

  const metrics = deps.metrics;
  if (metrics) {
    const want = Buffer.from(metrics.token);
    app.get('/metrics', async (req, reply) => {
      const given = Buffer.from(/^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '');
      if (given.length !== want.length || !timingSafeEqual(given, want)) return reply.code(401).send({ error: 'metrics token required' });
      return reply
        .header('Content-Type', metrics.contentType)
        .header('Cache-Control', 'no-store')
        .send(await metrics.text());
    });
  }

  const sim = deps.simControls;
  if (sim) {
    app.post<{ Body: { station?: unknown; note?: unknown } }>('/sim/insert-note', async (req, reply) => {
      if (req.headers['x-sim-token'] !== sim.token) return reply.code(401).send({ error: 'sim token required' });
      const { station, note } = req.body ?? {};
      if (typeof station !== 'number' || typeof note !== 'number') return reply.code(400).send({ error: 'station and note (face value) are numbers' });
      const refused = sim.insertNote(station, note);
      return refused ? reply.code(409).send({ error: refused }) : { ok: true };
    });
    for (const [path, act] of [
      ['/sim/unreadable-next', sim.unreadableNext],
      ['/sim/misdraw', sim.misdraw],
    ] as const) {
      app.post(path, async (req, reply) => {
        if (req.headers['x-sim-token'] !== sim.token) return reply.code(401).send({ error: 'sim token required' });
        const refused = act();
        return refused ? reply.code(409).send({ error: refused }) : { ok: true };
      });
    }
    for (const [path, act] of [
      ['/sim/end-countdown', sim.endCountdown],
      ['/sim/freeze-countdown', sim.freezeCountdown],
    ] as const) {
      app.post<{ Body: { kind?: unknown } }>(path, async (req, reply) => {
        if (req.headers['x-sim-token'] !== sim.token) return reply.code(401).send({ error: 'sim token required' });
        const kind = z.enum(TIMER_KINDS).safeParse(req.body?.kind);
        if (!kind.success) return reply.code(400).send({ error: `kind is one of ${TIMER_KINDS.join(', ')}` });
        const refused = act(kind.data);
        return refused ? reply.code(409).send({ error: refused }) : { ok: true };
      });
    }
    app.post<{ Body: { station?: unknown; fault?: unknown } }>('/sim/bill-fault', async (req, reply) => {
      if (req.headers['x-sim-token'] !== sim.token) return reply.code(401).send({ error: 'sim token required' });
      const { station, fault } = req.body ?? {};
      if (typeof station !== 'number' || (fault !== 'jam' && fault !== 'clear'))
        return reply.code(400).send({ error: 'station is a number, fault is jam or clear' });
      const refused = sim.billFault(station, fault);
      return refused ? reply.code(409).send({ error: refused }) : { ok: true };
    });
  }

  const serviceExport = deps.serviceExport;
  if (serviceExport) {
    const answer = (kind: ServiceExportKind) => async (req: { query: unknown; params: unknown; url: string; socket: Socket }, reply: FastifyReply) => {
      const query = req.query as { t?: unknown; lang?: unknown };
      const params = req.params as { roundId?: string; station?: string };
      const roundId = params.roundId ?? params.station;
      const language = Language.safeParse(query.lang);
      const file = typeof query.t === 'string' ? serviceExport(query.t, kind, roundId, language.success ? language.data : undefined) : null;
      if (!file) {
        // The path only: the query holds the export token.
        clientLog(deps.log, req.socket).warn({ path: req.url.split('?')[0] }, 'service export refused');
        return reply.code(403).send({ error: 'sign in to service mode to export' });
      }
      const name = file.filename.replace(/[^\w.-]/g, '_');
      reply
        .header('Content-Type', file.contentType)
        .header('Content-Disposition', `${file.inline ? 'inline' : 'attachment'}; filename="${name}"`)
        .header('Cache-Control', 'no-store');
      // The printable report is a page of its own: styles inline, no script, nothing loaded.
      if (file.inline) reply.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; font-src 'self'");
      return reply.send(file.body);
    };
    app.get('/service/export/meters.csv', answer('meters.csv'));
    app.get('/service/export/meters.json', answer('meters.json'));
    app.get('/service/export/meters.html', answer('meters.html'));
    app.get('/service/export/evidence/:roundId', answer('evidence'));
    app.get('/service/export/enrolment/:station', answer('enrolment'));
  }

  // Frames up to 4× the protocol limit are read and refused with a typed `oversized` error; a
  // larger one is not buffered at all: the socket closes with 1009 (message too big).
  await app.register(fastifyWebsocket, { options: { maxPayload: 4 * MAX_MESSAGE_BYTES } });
  app.get('/ws', { websocket: true }, (socket, req) => {
    const origin = req.headers.origin;
    // Browsers always send Origin: a page from anywhere else must not reach the host. Local
    // tools without a browser send none and are kept out by the launch token instead.
    if (origin !== undefined && !hosts.has(origin.replace(/^https?:\/\//, ''))) {
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
    // Kept once its hello is accepted; closed at the hello deadline otherwise.
    guard.watch(req.socket, () => session.view() !== null);
    socket.on('message', (data, isBinary) => session.receive(isBinary ? new Uint8Array(data as Buffer) : data.toString()));
    socket.on('close', () => session.dispose());
    socket.on('error', (err) => deps.log.child({ client }).warn({ err, session: session.id }, 'websocket error'));
  });

  if (existsSync(deps.rendererDir)) {
    await app.register(fastifyStatic, { root: deps.rendererDir, prefix: '/', index: false });
    for (const route of SCREEN_ROUTES) {
      app.get(route, (req, reply) => {
        reply.header('Content-Security-Policy', screenCsp([`ws://${req.headers.host}`]));
        reply.header('Cache-Control', 'no-store');
        return reply.sendFile('index.html', { cacheControl: false });
      });
    }
  } else {
    deps.log.warn({ rendererDir: deps.rendererDir }, 'renderer not built: screens are not served (run npm run build:renderer)');
  }

  await app.listen({ host: '127.0.0.1', port });
  const address = app.server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  hosts = allowedHosts(bound);
  return {
    port: bound,
    connections: () => guard.stats(),
    close: async () => {
      guard.close();
      await app.close();
    },
  };
}
