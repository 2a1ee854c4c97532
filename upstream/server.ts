import fastifySwagger from '@fastify/swagger';
import { timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import { z } from 'zod';
import { enrolTerminal, EnrolError, expectedSignature, HEADERS, KeyStore, signatureMatches, TERMINAL_ID } from './auth.js';
import { ingest, raiseAlarm } from './ingest.js';
import { UpstreamMetrics } from './metrics.js';
import * as q from './queries.js';
import * as s from './schemas.js';
import type { Db } from './sql.js';

export interface ServerOptions {
  db: Db;
  /** Bearer token for the query and admin routes; without one they answer loopback callers only. */
  adminToken?: string;
  /** Bearer token for `/metrics`; without one it answers loopback callers only. */
  metricsToken?: string;
  /** Largest accepted clock difference of a signed request (default 5 min). */
  maxSkewMs?: number;
  bodyLimit?: number;
  /** HTTPS: key and certificate in PEM (TLS 1.2 at least). */
  tls?: { key: string | Buffer; cert: string | Buffer };
  logger?: Logger | boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: string;
  }
}

const LOOPBACK = ['127.0.0.1', '::1', '::ffff:127.0.0.1'];

function bearerMatches(req: FastifyRequest, token: string | undefined): boolean {
  if (!token) return LOOPBACK.includes(req.ip);
  const given = Buffer.from(/^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '');
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}

/** The service's version in its OpenAPI document: the wire contract's, not the package's. */
export const API_VERSION = '1.1.0';

/** The upstream service's HTTP API (see docs/upstream.md; GET /openapi.json describes every route). */
export async function buildServer(options: ServerOptions): Promise<FastifyInstance> {
  const { db } = options;
  const maxSkew = options.maxSkewMs ?? 5 * 60_000;
  const keys = new KeyStore(db);
  const metrics = new UpstreamMetrics(db);
  const bodyLimit = options.bodyLimit ?? 8 * 1024 * 1024;
  const base = (typeof options.logger === 'object'
    ? Fastify({ loggerInstance: options.logger, bodyLimit })
    : Fastify({ logger: options.logger ?? false, bodyLimit })) as unknown as FastifyInstance;
  base.setValidatorCompiler(validatorCompiler);
  base.setSerializerCompiler(serializerCompiler);
  const app = base.withTypeProvider<ZodTypeProvider>();

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Macau ETG upstream', description: 'Receives every kiosk journal exactly once; queries for casino IT.', version: API_VERSION },
      components: {
        securitySchemes: {
          admin: { type: 'http', scheme: 'bearer', description: 'the admin token (--admin-token-file); loopback callers without one configured' },
          terminal: { type: 'apiKey', in: 'header', name: HEADERS.signature, description: 'HMAC-SHA256 request signature (docs/upstream.md)' },
          metrics: { type: 'http', scheme: 'bearer', description: 'the metrics token (--metrics-token-file); loopback callers without one configured' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });

  // The signature covers the exact bytes received, so keep them next to the parsed body.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body as string;
    req.rawBody = text;
    try {
      done(null, text.length ? JSON.parse(text) : {});
    } catch {
      const err = new Error('body is not JSON') as Error & { statusCode: number };
      err.statusCode = 400;
      done(err, undefined);
    }
  });

  /** A signed request of a live terminal for `path`: its id, or null with the 401 sent. */
  const signedBy = async (req: FastifyRequest, reply: FastifyReply, path: string): Promise<string | null> => {
    const terminal = String(req.headers[HEADERS.terminal] ?? '');
    const ts = String(req.headers[HEADERS.timestamp] ?? '');
    const sig = String(req.headers[HEADERS.signature] ?? '');
    const key = TERMINAL_ID.test(terminal) ? await keys.key(terminal) : null;
    if (!key) {
      await reply.code(401).send({ error: 'unknown-terminal', message: 'terminal not enrolled or revoked' });
      return null;
    }
    if (!/^\d{1,16}$/.test(ts) || Math.abs(Date.now() - Number(ts)) > maxSkew) {
      await reply.code(401).send({ error: 'clock-skew', message: 'timestamp missing or too far from the server clock' });
      return null;
    }
    if (!signatureMatches(expectedSignature(key, 'POST', path, terminal, ts, req.rawBody ?? ''), sig)) {
      await reply.code(401).send({ error: 'bad-signature', message: 'signature does not match' });
      return null;
    }
    return terminal;
  };

  app.get('/healthz', { schema: { summary: 'liveness and database reachability', response: { 200: s.Health, 503: s.Health } } }, async (_req, reply) => {
    try {
      await db.query('SELECT 1');
      return { ok: true, database: db.kind };
    } catch (e) {
      return reply.code(503).send({ ok: false, database: db.kind, error: e instanceof Error ? e.message : String(e) });
    }
  });

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  app.get('/metrics', { schema: { summary: 'Prometheus metrics (docs/operations.md)', security: [{ metrics: [] }] } }, async (req, reply) => {
    if (!bearerMatches(req, options.metricsToken)) return reply.code(403).send({ error: 'forbidden', message: 'metrics token required' });
    reply.header('content-type', metrics.registry.contentType);
    return metrics.text();
  });

  app.post(
    '/v1/ingest',
    {
      schema: {
        summary: "a batch of a terminal's journal, signed",
        security: [{ terminal: [] }],
        body: s.IngestBody,
        response: {
          200: s.IngestAck,
          401: s.ErrorBody,
          403: s.ErrorBody,
          409: z.union([s.IngestGap, s.IngestDivergence]),
          422: s.IngestRefused,
        },
      },
    },
    async (req, reply) => {
      const terminal = await signedBy(req, reply, '/v1/ingest');
      if (!terminal) {
        metrics.ingested.inc({ result: 'unauthorised' });
        return reply;
      }
      await db.query('UPDATE terminals SET last_seen_at = now() WHERE terminal_id = $1', [terminal]);
      const batch = req.body;
      if (batch.terminalId !== terminal) {
        await raiseAlarm(db, terminal, 'foreign-stream', { claimed: batch.terminalId });
        metrics.ingested.inc({ result: 'foreign-stream' });
        return reply.code(403).send({ error: 'foreign-stream', message: 'a terminal may write only its own stream' });
      }
      const r = await ingest(db, batch);
      metrics.ingested.inc({ result: r.status === 200 ? '200' : r.error });
      if (r.status !== 200) {
        req.log.warn({ terminal, result: r }, 'ingest refused');
        const { status, ...body } = r;
        return reply.code(status).send(body);
      }
      const { status: _ok, ...ack } = r;
      return ack;
    },
  );

  app.post(
    '/v1/heartbeat',
    {
      schema: {
        summary: "a kiosk's heartbeat with its health snapshot, signed",
        security: [{ terminal: [] }],
        body: s.HeartbeatBody,
        response: { 200: s.HeartbeatAck, 401: s.ErrorBody, 403: s.ErrorBody },
      },
    },
    async (req, reply) => {
      const terminal = await signedBy(req, reply, '/v1/heartbeat');
      if (!terminal) return reply;
      if (req.body.terminalId !== terminal) return reply.code(403).send({ error: 'foreign-stream', message: 'a terminal may report only for itself' });
      await db.query('UPDATE terminals SET last_seen_at = now(), last_health = $2::jsonb WHERE terminal_id = $1', [terminal, JSON.stringify(req.body.health)]);
      metrics.heartbeats.inc();
      return { ok: true as const, serverTime: new Date().toISOString() };
    },
  );

  // Queries and administration.
  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    scope.addHook('onRequest', async (req, reply) => {
      if (!bearerMatches(req, options.adminToken)) return reply.code(403).send({ error: 'forbidden', message: 'admin token required' });
    });
    const admin = { security: [{ admin: [] }] };
    scope.get(
      '/v1/terminals',
      { schema: { ...admin, summary: 'terminals with head, last contact and last health', response: { 200: z.array(s.Terminal) } } },
      async () => q.listTerminals(db),
    );
    scope.get(
      '/v1/terminals/:id/entries',
      {
        schema: {
          ...admin,
          summary: 'stored entries with their bodies',
          params: s.TerminalParams,
          querystring: s.EntriesQuery,
          response: { 200: z.array(s.Entry) },
        },
      },
      async (req) => q.entries(db, req.params.id, req.query.from, req.query.limit, req.query.type),
    );
    scope.get(
      '/v1/terminals/:id/meters',
      {
        schema: {
          ...admin,
          summary: 'meters as the kiosk derived them',
          params: s.TerminalParams,
          querystring: s.MetersQuery,
          response: { 200: z.array(s.Meter) },
        },
      },
      async (req) => q.meters(db, req.params.id, req.query.scope),
    );
    scope.get(
      '/v1/terminals/:id/rounds',
      {
        schema: {
          ...admin,
          summary: 'settled and voided rounds, newest first',
          params: s.TerminalParams,
          querystring: s.RoundsQuery,
          response: { 200: z.array(s.Round) },
        },
      },
      async (req) => q.rounds(db, req.params.id, req.query.limit),
    );
    scope.get(
      '/v1/terminals/:id/verify',
      { schema: { ...admin, summary: 'the whole stored chain re-hashed from genesis', params: s.TerminalParams, response: { 200: s.ChainReport } } },
      async (req) => q.verifyChain(db, req.params.id),
    );
    scope.get(
      '/v1/terminals/:id/gaps',
      { schema: { ...admin, summary: 'missing sequence ranges', params: s.TerminalParams, response: { 200: z.array(s.Gap) } } },
      async (req) => q.findGaps(db, req.params.id),
    );
    scope.get(
      '/v1/alarms',
      { schema: { ...admin, summary: 'divergences, bad chains, foreign streams', querystring: s.AlarmsQuery, response: { 200: z.array(s.Alarm) } } },
      async (req) => q.alarms(db, req.query.terminal),
    );
    scope.post(
      '/v1/admin/terminals',
      { schema: { ...admin, summary: 'enrol a terminal (the key is shown once)', body: s.EnrolBody, response: { 200: s.Credentials, 409: s.ErrorBody } } },
      async (req, reply) => {
        try {
          return await enrolTerminal(db, req.body.terminalId, req.body.rotate === true);
        } catch (e) {
          if (e instanceof EnrolError) return reply.code(409).send({ error: 'enrol', message: e.message });
          throw e;
        }
      },
    );
  });
  await app.ready();
  return app as unknown as FastifyInstance;
}
