import rateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import { z } from 'zod';
import { allows, checkTokens, roleOf, type AdminTokens, type Role } from './admin-auth.js';
import { enrolTerminal, EnrolError, expectedSignature, HEADERS, KeyStore, signatureMatches, TERMINAL_ID } from './auth.js';
import { raiseAlarm } from './alarm.js';
import { attachBackoffice, ordersFor, type BackofficeServerOptions } from './backoffice/index.js';
import { ingest } from './ingest.js';
import { UpstreamMetrics } from './metrics.js';
import * as q from './queries.js';
import { ReceiptSigner } from './receipts.js';
import { ReplayGuard } from './replay-guard.js';
import * as s from './schemas.js';
import { ticketQueryRoutes, ticketRoutes } from './ticket-routes.js';
import type { Db } from './sql.js';
import { noteCurrency } from './table-currency.js';

export interface ServerOptions {
  db: Db;
  /**
   * Bearer tokens for the query, admin and metrics routes. Without them those routes refuse every
   * caller, loopback included: behind a TLS proxy on the same host every client is loopback.
   */
  tokens?: AdminTokens;
  /**
   * Which proxies' X-Forwarded-For to believe (Fastify's `trustProxy`): the proxy's addresses or
   * CIDRs. Default false: `req.ip` is the socket's peer. It decides only what the rate limits
   * count per client and what the logs show, never who is authorised.
   */
  trustProxy?: false | string[];
  /** Requests per minute per client address (defaults in DEFAULT_LIMITS). */
  limits?: Partial<RateLimits>;
  /** Largest accepted clock difference of a signed request (default 5 min). */
  maxSkewMs?: number;
  bodyLimit?: number;
  /** HTTPS: key and certificate in PEM (TLS 1.2 at least). */
  tls?: { key: string | Buffer; cert: string | Buffer };
  logger?: Logger | boolean;
  /** The back office's page and API (docs/backoffice.md); on unless `false`. */
  backoffice?: BackofficeServerOptions | false;
}

export interface RateLimits {
  ingest: number;
  query: number;
  admin: number;
  /** The tables' ticket calls (issue, print, redeem, confirm, cancel): a stadium table's stations share one address. */
  tickets: number;
}

/** Per client address and minute. Ingest is generous (a kiosk sends a batch a second at most when catching up). */
export const DEFAULT_LIMITS: RateLimits = { ingest: 600, query: 120, admin: 10, tickets: 1200 };

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: string;
  }
}

/** The service's version in its OpenAPI document: the wire contract's, not the package's. */
export const API_VERSION = '1.5.0';

/** The upstream service's HTTP API (see docs/upstream.md; GET /openapi.json describes every route). */
export async function buildServer(options: ServerOptions): Promise<FastifyInstance> {
  const { db } = options;
  const maxSkew = options.maxSkewMs ?? 5 * 60_000;
  const keys = new KeyStore(db);
  const replays = new ReplayGuard(maxSkew);
  const metrics = new UpstreamMetrics(db);
  const receipts = await ReceiptSigner.load(db);
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const tokens = options.tokens ? checkTokens(options.tokens) : undefined;
  const common = { bodyLimit: options.bodyLimit ?? 8 * 1024 * 1024, trustProxy: options.trustProxy ?? false };
  const logging = typeof options.logger === 'object' ? { loggerInstance: options.logger } : { logger: options.logger ?? false };
  // Fastify types an HTTPS instance apart from an HTTP one; the routes below use neither's raw
  // server, so both are handled as the default instance.
  const base: FastifyInstance = options.tls
    ? (Fastify({
        ...common,
        ...logging,
        https: { key: options.tls.key, cert: options.tls.cert, minVersion: 'TLSv1.2' as const },
      }) as unknown as FastifyInstance)
    : (Fastify({ ...common, ...logging }) as unknown as FastifyInstance);
  base.setValidatorCompiler(validatorCompiler);
  base.setSerializerCompiler(serializerCompiler);
  const app = base.withTypeProvider<ZodTypeProvider>();
  // Before the routes: its hook sees which terminal each batch and heartbeat came from.
  const backoffice = options.backoffice === false ? null : attachBackoffice(base, { db, ...options.backoffice });

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Macau ETG upstream', description: 'Receives every kiosk journal exactly once; queries for casino IT.', version: API_VERSION },
      components: {
        securitySchemes: {
          admin: { type: 'http', scheme: 'bearer', description: 'the admin token (--admin-token-file), or the read-only query token on the query routes' },
          terminal: { type: 'apiKey', in: 'header', name: HEADERS.signature, description: 'HMAC-SHA256 request signature (docs/upstream.md)' },
          metrics: { type: 'http', scheme: 'bearer', description: 'the metrics token (--metrics-token-file), or the query or admin token' },
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

  /** A scope of routes behind one per-address rate limit, counted before any other check. */
  const limited = (max: number, routes: (scope: typeof app) => void) =>
    app.register(async (plain) => {
      await plain.register(rateLimit, { max, timeWindow: 60_000 });
      routes(plain.withTypeProvider<ZodTypeProvider>());
    });
  // preParsing: after the rate limit (a route-level onRequest hook, which runs after this
  // scope's onRequest hooks) has counted the attempt, before an unauthorised body is read.
  const requireRole = (scope: typeof app, need: Role) =>
    scope.addHook('preParsing', async (req, reply) => {
      if (!tokens) return reply.code(403).send({ error: 'forbidden', message: 'this service has no admin credential configured' });
      if (!allows(roleOf(req, tokens), need)) return reply.code(403).send({ error: 'forbidden', message: `${need} token required` });
    });

  /** A signed request of a live terminal for `path`: its id and signature, or null with the 401 sent. */
  const signedBy = async (req: FastifyRequest, reply: FastifyReply, path: string): Promise<{ terminal: string; sig: string; ts: number } | null> => {
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
    return { terminal, sig, ts: Number(ts) };
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

  limited(limits.query, (scope) => {
    requireRole(scope, 'metrics');
    scope.get('/metrics', { schema: { summary: 'Prometheus metrics (docs/operations.md)', security: [{ metrics: [] }] } }, async (_req, reply) => {
      reply.header('content-type', metrics.registry.contentType);
      return metrics.text();
    });
  });

  limited(limits.ingest, (scope) => {
    scope.post(
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
            409: z.union([s.IngestGap, s.IngestDivergence, s.IngestReplay]),
            422: s.IngestRefused,
          },
        },
      },
      async (req, reply) => {
        const signed = await signedBy(req, reply, '/v1/ingest');
        if (!signed) {
          metrics.ingested.inc({ result: 'unauthorised' });
          return reply;
        }
        const { terminal } = signed;
        await db.query('UPDATE terminals SET last_seen_at = now() WHERE terminal_id = $1', [terminal]);
        const batch = req.body;
        if (batch.terminalId !== terminal) {
          await raiseAlarm(db, terminal, 'foreign-stream', { claimed: batch.terminalId });
          metrics.ingested.inc({ result: 'foreign-stream' });
          return reply.code(403).send({ error: 'foreign-stream', message: 'a terminal may write only its own stream' });
        }
        if (!replays.firstUse(signed.sig, signed.ts)) {
          // Refused, but with the head: a network path that delivered the kiosk's request twice
          // gives the kiosk this answer, and the head is all it needs to go on (ledger/sync-client.ts).
          const head = await q.head(db, terminal);
          metrics.ingested.inc({ result: 'replay' });
          req.log.warn({ terminal }, 'replayed request refused');
          return reply.code(409).send({ error: 'replay', message: 'this signed request was already received', ...head });
        }
        const r = await ingest(db, batch);
        metrics.ingested.inc({ result: r.status === 200 ? '200' : r.error });
        if (r.status !== 200) {
          req.log.warn({ terminal, result: r }, 'ingest refused');
          const { status, ...body } = r;
          return reply.code(status).send(body);
        }
        const { status: _ok, ...ack } = r;
        // The receipt: the service's signature over the head it now holds (upstream/receipts.ts).
        return { ...ack, receipt: receipts.sign(terminal, ack.ackedSeq, ack.headHash) };
      },
    );

    scope.get(
      '/v1/receipt-key',
      { schema: { summary: 'the public key the receipts verify with (Ed25519, DER, base64)', response: { 200: s.ReceiptKey } } },
      async () => ({ publicKey: receipts.publicKey, keyId: receipts.keyId }),
    );

    scope.post(
      '/v1/head',
      {
        schema: {
          summary: 'the receipt of the head the service holds of the signing terminal (etg ledger verify --upstream)',
          security: [{ terminal: [] }],
          body: s.HeadBody,
          response: { 200: s.HeadAnswer, 401: s.ErrorBody, 403: s.ErrorBody },
        },
      },
      async (req, reply) => {
        const signed = await signedBy(req, reply, '/v1/head');
        if (!signed) return reply;
        if (req.body.terminalId !== signed.terminal)
          return reply.code(403).send({ error: 'foreign-stream', message: 'a terminal may ask only for its own head' });
        const head = await q.head(db, signed.terminal);
        return { receipt: receipts.sign(signed.terminal, head.ackedSeq, head.headHash) };
      },
    );

    scope.post(
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
        const signed = await signedBy(req, reply, '/v1/heartbeat');
        if (!signed) return reply;
        const { terminal } = signed;
        if (req.body.terminalId !== terminal) return reply.code(403).send({ error: 'foreign-stream', message: 'a terminal may report only for itself' });
        await db.query('UPDATE terminals SET last_seen_at = now(), last_health = $2::jsonb WHERE terminal_id = $1', [
          terminal,
          JSON.stringify(req.body.health),
        ]);
        const sync = req.body.health.sync;
        await noteCurrency(db, terminal, req.body.health.currency, sync && sync !== 'off' ? (sync.lagEntries ?? 0) : 0);
        metrics.heartbeats.inc();
        return { ok: true as const, serverTime: new Date().toISOString() };
      },
    );

    scope.post(
      '/v1/config-orders',
      {
        schema: {
          summary: "the back office's configuration changes a second person approved, for this table to make at its next shoe",
          security: [{ terminal: [] }],
          body: s.ConfigOrdersBody,
          response: { 200: s.ConfigOrders, 401: s.ErrorBody, 403: s.ErrorBody },
        },
      },
      async (req, reply) => {
        const signed = await signedBy(req, reply, '/v1/config-orders');
        if (!signed) return reply;
        if (req.body.terminalId !== signed.terminal)
          return reply.code(403).send({ error: 'foreign-stream', message: 'a terminal may ask only for its own orders' });
        const texts = await ordersFor(db, signed.terminal);
        return { orders: texts.map((order) => ({ order, signature: receipts.signOrder(signed.terminal, order) })) };
      },
    );
  });

  // The validation authority (issue 47): tickets issued, printed, voided, redeemed, confirmed, cancelled.
  limited(limits.tickets, (scope) => ticketRoutes(scope, { db, signedBy, replays }));

  // Queries: read only, the query (or admin) token.
  const query = { security: [{ admin: [] }] };
  limited(limits.query, (scope) => {
    requireRole(scope, 'query');
    scope.get(
      '/v1/terminals',
      { schema: { ...query, summary: 'terminals with head, last contact and last health', response: { 200: z.array(s.Terminal) } } },
      async () => q.listTerminals(db),
    );
    scope.get(
      '/v1/terminals/:id/entries',
      {
        schema: {
          ...query,
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
          ...query,
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
          ...query,
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
      { schema: { ...query, summary: 'the whole stored chain re-hashed from genesis', params: s.TerminalParams, response: { 200: s.ChainReport } } },
      async (req) => q.verifyChain(db, req.params.id),
    );
    scope.get(
      '/v1/terminals/:id/gaps',
      { schema: { ...query, summary: 'missing sequence ranges', params: s.TerminalParams, response: { 200: z.array(s.Gap) } } },
      async (req) => q.findGaps(db, req.params.id),
    );
    scope.get(
      '/v1/alarms',
      { schema: { ...query, summary: 'divergences, bad chains, foreign streams', querystring: s.AlarmsQuery, response: { 200: z.array(s.Alarm) } } },
      async (req) => q.alarms(db, req.query.terminal),
    );
    ticketQueryRoutes(scope, db);
  });

  // Key issuing: the admin token only, its own tighter limit, answers never cached.
  limited(limits.admin, (scope) => {
    requireRole(scope, 'admin');
    scope.addHook('onSend', async (_req, reply) => {
      reply.header('cache-control', 'no-store');
    });
    const admin = { security: [{ admin: [] }] };
    const issue = async (reply: FastifyReply, terminalId: string, rotate: boolean) => {
      try {
        const issued = await enrolTerminal(db, terminalId, rotate);
        keys.forget(terminalId);
        return issued;
      } catch (e) {
        if (e instanceof EnrolError) return reply.code(409).send({ error: 'enrol', message: e.message });
        throw e;
      }
    };
    scope.post(
      '/v1/admin/terminals',
      { schema: { ...admin, summary: 'enrol a terminal (the key is shown once)', body: s.EnrolBody, response: { 200: s.Credentials, 409: s.ErrorBody } } },
      async (req, reply) => issue(reply, req.body.terminalId, false),
    );
    scope.post(
      '/v1/admin/terminals/:id/rotate-key',
      {
        schema: {
          ...admin,
          summary: 'a new key for an enrolled terminal (shown once; the old one is refused at once)',
          params: s.TerminalParams,
          response: { 200: s.Credentials, 409: s.ErrorBody },
        },
      },
      async (req, reply) => issue(reply, req.params.id, true),
    );
  });
  if (backoffice) await backoffice.register();
  await app.ready();
  return app as unknown as FastifyInstance;
}
