import rateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import { allows, checkTokens, roleOf, type AdminTokens, type Role } from './admin-auth.js';
import { expectedSignature, HEADERS, KeyStore, signatureMatches, TERMINAL_ID } from './auth.js';
import { attachBackoffice, type BackofficeServerOptions } from './backoffice/index.js';
import { clientOf } from './backoffice/throttle.js';
import { hideServerErrors } from './error-bodies.js';
import { UpstreamMetrics } from './metrics.js';
import { adminRoutes, queryRoutes } from './query-routes.js';
import { ReceiptSigner } from './receipts.js';
import { ReplayGuard } from './replay-guard.js';
import * as s from './schemas.js';
import type { Db } from './sql.js';
import { terminalRoutes } from './terminal-routes.js';
import { DEFAULT_INGEST_BUDGET, IngestBudget, type IngestBudgetLimits } from './ingest-budget.js';
import { ticketRoutes, type ZodApp } from './ticket-routes.js';
import { thrownSaid } from './thrown-said.js';

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
  /** Each terminal's entries and bytes a minute (defaults in DEFAULT_INGEST_BUDGET), and its clock (tests). */
  ingestBudget?: Partial<IngestBudgetLimits> & { now?: () => number };
}

export interface RateLimits {
  ingest: number;
  query: number;
  admin: number;
  /** The tables' ticket calls (issue, print, redeem, confirm, cancel): a stadium table's stations share one address. */
  tickets: number;
  /** Per table and 10 minutes, not per address and minute: redemptions refused as unknown or already paid before all its redemptions are refused (`RefusalLimit`, upstream/tickets.ts). */
  ticketRefusals: number;
}

/** Per client address and minute. Ingest is generous (a kiosk sends a batch a second at most when catching up). */
export const DEFAULT_LIMITS: RateLimits = { ingest: 600, query: 120, admin: 10, tickets: 1200, ticketRefusals: 30 };

/** The window of `RateLimits.ticketRefusals`. */
export const TICKET_REFUSAL_WINDOW_MS = 10 * 60_000;

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: string;
  }
}

/**
 * The service's version in its OpenAPI document: the wire contract's, not the package's. 1.7.0: a
 * redemption may be refused `contested` (a host before it reads that answer as not fitting its
 * contract, and returns the ticket `offline`: refused all the same).
 */
export const API_VERSION = '1.7.0';

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
  const base = newFastify(options);
  // Before any route or plugin: each inherits it (a 5xx names the request, never the error's text).
  hideServerErrors(base);
  base.setValidatorCompiler(validatorCompiler);
  base.setSerializerCompiler(serializerCompiler);
  const app = base.withTypeProvider<ZodTypeProvider>();
  // Before the routes: its hook sees which terminal each batch and heartbeat came from.
  const backoffice = options.backoffice === false ? null : attachBackoffice(base, { db, ...options.backoffice });
  await describeApi(app);
  keepRawBody(app);

  /**
   * A scope of routes behind one per-client rate limit, counted before any other check. The client
   * is req.ip read through node:net as the back office's sign-in reads it (clientOf, throttle.ts:
   * an IPv4 address, an IPv6 /64, as the rate limiter's own default counts them): behind a trusted
   * proxy that writes the client's port, the limiter's default took req.ip as written, a bucket for
   * each connection.
   */
  const limited = (max: number, routes: (scope: typeof app) => void) =>
    app.register(async (plain) => {
      await plain.register(rateLimit, { max, timeWindow: 60_000, keyGenerator: (req) => clientOf(req.ip) });
      routes(plain.withTypeProvider<ZodTypeProvider>());
    });
  const signedBy = signatureCheck(keys, maxSkew);

  app.get('/healthz', { schema: { summary: 'liveness and database reachability', response: { 200: s.Health, 503: s.Health } } }, async (_req, reply) => {
    try {
      await db.query('SELECT 1');
      return { ok: true, database: db.kind };
    } catch (e) {
      return reply.code(503).send({ ok: false, database: db.kind, error: thrownSaid(e) });
    }
  });

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  limited(limits.query, (scope) => {
    requireRole(scope, tokens, 'metrics');
    scope.get('/metrics', { schema: { summary: 'Prometheus metrics (docs/operations.md)', security: [{ metrics: [] }] } }, async (_req, reply) => {
      reply.header('content-type', metrics.registry.contentType);
      return metrics.text();
    });
  });
  const { now: budgetClock, ...budgetLimits } = options.ingestBudget ?? {};
  const budget = new IngestBudget({ ...DEFAULT_INGEST_BUDGET, ...budgetLimits }, budgetClock);
  limited(limits.ingest, (scope) => terminalRoutes(scope, { db, signedBy, replays, metrics, receipts, budget, maxSkewMs: maxSkew }));
  // The validation authority (issue 47): tickets issued, printed, voided, redeemed, confirmed, cancelled.
  limited(limits.tickets, (scope) =>
    ticketRoutes(scope, { db, signedBy, replays, refusals: { count: limits.ticketRefusals, windowMs: TICKET_REFUSAL_WINDOW_MS } }),
  );
  limited(limits.query, (scope) => {
    requireRole(scope, tokens, 'query');
    queryRoutes(scope, db);
  });
  // Key issuing: its own tighter limit.
  limited(limits.admin, (scope) => {
    requireRole(scope, tokens, 'admin');
    adminRoutes(scope, db, keys);
  });
  if (backoffice) await backoffice.register();
  await app.ready();
  return app as unknown as FastifyInstance;
}

/** The Fastify instance, over HTTPS when the options carry a key and certificate. */
function newFastify(options: ServerOptions): FastifyInstance {
  const common = { bodyLimit: options.bodyLimit ?? 8 * 1024 * 1024, trustProxy: options.trustProxy ?? false };
  const logging = typeof options.logger === 'object' ? { loggerInstance: options.logger } : { logger: options.logger ?? false };
  // Fastify types an HTTPS instance apart from an HTTP one; the routes use neither's raw server,
  // so both are handled as the default instance.
  return options.tls
    ? (Fastify({
        ...common,
        ...logging,
        https: { key: options.tls.key, cert: options.tls.cert, minVersion: 'TLSv1.2' as const },
      }) as unknown as FastifyInstance)
    : (Fastify({ ...common, ...logging }) as unknown as FastifyInstance);
}

/** The OpenAPI document (GET /openapi.json) and its security schemes. */
async function describeApi(app: ZodApp): Promise<void> {
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
}

/** The signature covers the exact bytes received, so keep them next to the parsed body. */
function keepRawBody(app: ZodApp): void {
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
}

/**
 * A scope's callers must hold a token of `need`'s role or above. preParsing: after the rate limit
 * (a route-level onRequest hook, which runs after this scope's onRequest hooks) has counted the
 * attempt, before an unauthorised body is read.
 */
function requireRole(scope: ZodApp, tokens: AdminTokens | undefined, need: Role): void {
  scope.addHook('preParsing', async (req, reply) => {
    if (!tokens) return reply.code(403).send({ error: 'forbidden', message: 'this service has no admin credential configured' });
    if (!allows(roleOf(req, tokens), need)) return reply.code(403).send({ error: 'forbidden', message: `${need} token required` });
  });
}

/** A signed request of a live terminal for `path`: its id and signature, or null with the 401 sent. */
function signatureCheck(keys: KeyStore, maxSkew: number) {
  return async (req: FastifyRequest, reply: FastifyReply, path: string): Promise<{ terminal: string; sig: string; ts: number } | null> => {
    const terminal = String(req.headers[HEADERS.terminal] ?? '');
    const ts = String(req.headers[HEADERS.timestamp] ?? '');
    const sig = String(req.headers[HEADERS.signature] ?? '');
    const key = TERMINAL_ID.test(terminal) ? await keys.key(terminal) : null;
    if (!key) {
      await reply.code(401).send({ error: 'unknown-terminal', message: 'terminal not enrolled or revoked' });
      return null;
    }
    if (!/^\d{1,16}$/.test(ts) || Math.abs(Date.now() - Number(ts)) > maxSkew) {
      // With this clock's time: a table refused for its clock learns how far off it is (host/tickets/floor-clock.ts), and prints no ticket meanwhile.
      await reply.code(401).send({ error: 'clock-skew', message: 'timestamp missing or too far from the server clock', serverTime: new Date().toISOString() });
      return null;
    }
    if (!signatureMatches(expectedSignature(key, 'POST', path, terminal, ts, req.rawBody ?? ''), sig)) {
      await reply.code(401).send({ error: 'bad-signature', message: 'signature does not match' });
      return null;
    }
    return { terminal, sig, ts: Number(ts) };
  };
}
