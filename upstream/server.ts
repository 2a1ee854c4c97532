import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { enrolTerminal, EnrolError, expectedSignature, HEADERS, KeyStore, signatureMatches, TERMINAL_ID } from './auth.js';
import { HEX64 } from './chain.js';
import { ingest, raiseAlarm, type IngestBatch } from './ingest.js';
import * as q from './queries.js';
import { allows, checkTokens, roleOf, type AdminTokens, type Role } from './admin-auth.js';
import { ReplayGuard } from './replay-guard.js';
import type { Db } from './sql.js';

export interface ServerOptions {
  db: Db;
  /**
   * Bearer tokens for the query and admin routes. Without them those routes refuse every caller,
   * loopback included: behind a TLS proxy on the same host every client is loopback.
   */
  tokens?: AdminTokens;
  /**
   * Which proxies' X-Forwarded-For to believe (Fastify's `trustProxy`): the proxy's addresses or
   * CIDRs. Default false: `req.ip` is the socket's peer. It decides only what
   * the rate limits count per client and what the logs show, never who is authorised.
   */
  trustProxy?: false | string[];
  /** Requests per minute per client address (defaults in DEFAULT_LIMITS). */
  limits?: Partial<RateLimits>;
  /** Largest accepted clock difference of a signed request (default 5 min). */
  maxSkewMs?: number;
  bodyLimit?: number;
  logger?: Logger | boolean;
}

export interface RateLimits {
  ingest: number;
  query: number;
  admin: number;
}

/** Per client address and minute. Ingest is generous (a kiosk sends a batch a second at most when catching up). */
export const DEFAULT_LIMITS: RateLimits = { ingest: 600, query: 120, admin: 10 };

const ingestSchema = {
  type: 'object',
  required: ['terminalId', 'prevHash', 'entries'],
  additionalProperties: false,
  properties: {
    terminalId: { type: 'string', pattern: TERMINAL_ID.source },
    prevHash: { type: 'string', pattern: HEX64.source },
    entries: {
      type: 'array',
      minItems: 1,
      maxItems: 5000,
      items: {
        type: 'object',
        required: ['seq', 'hash', 'body'],
        additionalProperties: false,
        properties: {
          seq: { type: 'integer', minimum: 1 },
          hash: { type: 'string', pattern: HEX64.source },
          body: { type: 'string', minLength: 2, maxLength: 1_000_000 },
        },
      },
    },
  },
} as const;

// Enrolment only: a new key for an enrolled terminal is its own route (rotate-key).
const enrolSchema = {
  type: 'object',
  required: ['terminalId'],
  additionalProperties: false,
  properties: { terminalId: { type: 'string', pattern: TERMINAL_ID.source } },
} as const;

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: string;
  }
}

/** The upstream service's HTTP API (see docs/upstream.md). */
export async function buildServer(options: ServerOptions): Promise<FastifyInstance> {
  const { db } = options;
  const maxSkew = options.maxSkewMs ?? 5 * 60_000;
  const keys = new KeyStore(db);
  const replays = new ReplayGuard(maxSkew);
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const tokens = options.tokens ? checkTokens(options.tokens) : undefined;
  const bodyLimit = options.bodyLimit ?? 8 * 1024 * 1024;
  const trustProxy = options.trustProxy ?? false;
  const app = (typeof options.logger === 'object'
    ? Fastify({ loggerInstance: options.logger, bodyLimit, trustProxy })
    : Fastify({ logger: options.logger ?? false, bodyLimit, trustProxy })) as unknown as FastifyInstance;

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
  const limited = (max: number, routes: (scope: FastifyInstance) => void) =>
    app.register(async (scope) => {
      await scope.register(rateLimit, { max, timeWindow: 60_000 });
      routes(scope);
    });
  // preParsing: after the rate limit (a route-level onRequest hook, which runs after this
  // scope's onRequest hooks) has counted the attempt, before an unauthorised body is read.
  const requireRole = (scope: FastifyInstance, need: Role) =>
    scope.addHook('preParsing', async (req, reply) => {
      if (!tokens) return reply.code(403).send({ error: 'forbidden', message: 'this service has no admin credential configured' });
      if (!allows(roleOf(req, tokens), need)) return reply.code(403).send({ error: 'forbidden', message: `${need} token required` });
    });

  app.get('/healthz', async (_req, reply) => {
    try {
      await db.query('SELECT 1');
      return { ok: true, database: db.kind };
    } catch (e) {
      return reply.code(503).send({ ok: false, database: db.kind, error: e instanceof Error ? e.message : String(e) });
    }
  });

  limited(limits.ingest, (scope) => {
    scope.post('/v1/ingest', { schema: { body: ingestSchema } }, async (req, reply) => {
      const terminal = String(req.headers[HEADERS.terminal] ?? '');
      const ts = String(req.headers[HEADERS.timestamp] ?? '');
      const sig = String(req.headers[HEADERS.signature] ?? '');
      const key = TERMINAL_ID.test(terminal) ? await keys.key(terminal) : null;
      if (!key) return reply.code(401).send({ error: 'unknown-terminal', message: 'terminal not enrolled or revoked' });
      if (!/^\d{1,16}$/.test(ts) || Math.abs(Date.now() - Number(ts)) > maxSkew) {
        return reply.code(401).send({ error: 'clock-skew', message: 'timestamp missing or too far from the server clock' });
      }
      if (!signatureMatches(expectedSignature(key, 'POST', '/v1/ingest', terminal, ts, req.rawBody ?? ''), sig)) {
        return reply.code(401).send({ error: 'bad-signature', message: 'signature does not match' });
      }
      const batch = req.body as IngestBatch;
      if (batch.terminalId !== terminal) {
        await raiseAlarm(db, terminal, 'foreign-stream', { claimed: batch.terminalId });
        return reply.code(403).send({ error: 'foreign-stream', message: 'a terminal may write only its own stream' });
      }
      if (!replays.firstUse(sig, Number(ts))) {
        // Refused, but with the head: a network path that delivered the kiosk's request twice
        // gives the kiosk this answer, and the head is all it needs to go on (ledger/sync-client.ts).
        const head = await q.head(db, terminal);
        req.log.warn({ terminal }, 'replayed request refused');
        return reply.code(409).send({ error: 'replay', message: 'this signed request was already received', ...head });
      }
      const r = await ingest(db, batch);
      if (r.status !== 200) req.log.warn({ terminal, result: r }, 'ingest refused');
      return reply.code(r.status).send(r);
    });
  });

  const tid = (req: FastifyRequest) => {
    const id = (req.params as { id: string }).id;
    if (!TERMINAL_ID.test(id)) throw Object.assign(new Error('bad terminal id'), { statusCode: 400 });
    return id;
  };
  const int = (v: unknown, dflt: number, max: number) => {
    const n = v === undefined ? dflt : Number(v);
    if (!Number.isSafeInteger(n) || n < 0 || n > max) throw Object.assign(new Error(`bad number ${String(v)}`), { statusCode: 400 });
    return n;
  };

  // Queries: read only, the query (or admin) token.
  limited(limits.query, (scope) => {
    requireRole(scope, 'query');
    scope.get('/v1/terminals', async () => q.listTerminals(db));
    scope.get('/v1/terminals/:id/entries', async (req) => {
      const qs = req.query as { from?: string; limit?: string; type?: string };
      return q.entries(db, tid(req), int(qs.from, 1, Number.MAX_SAFE_INTEGER), int(qs.limit, 100, 5000), qs.type);
    });
    scope.get('/v1/terminals/:id/meters', async (req) => q.meters(db, tid(req), (req.query as { scope?: string }).scope));
    scope.get('/v1/terminals/:id/rounds', async (req) => q.rounds(db, tid(req), int((req.query as { limit?: string }).limit, 10, 500)));
    scope.get('/v1/terminals/:id/verify', async (req) => q.verifyChain(db, tid(req)));
    scope.get('/v1/terminals/:id/gaps', async (req) => q.findGaps(db, tid(req)));
    scope.get('/v1/alarms', async (req) => q.alarms(db, (req.query as { terminal?: string }).terminal));
  });

  // Key issuing: the admin token only, its own tighter limit, answers never cached.
  limited(limits.admin, (scope) => {
    requireRole(scope, 'admin');
    scope.addHook('onSend', async (_req, reply) => {
      reply.header('cache-control', 'no-store');
    });
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
    scope.post('/v1/admin/terminals', { schema: { body: enrolSchema } }, async (req, reply) =>
      issue(reply, (req.body as { terminalId: string }).terminalId, false),
    );
    scope.post('/v1/admin/terminals/:id/rotate-key', async (req, reply) => issue(reply, tid(req), true));
  });
  return app;
}
