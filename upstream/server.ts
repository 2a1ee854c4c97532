import { timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { enrolTerminal, EnrolError, expectedSignature, HEADERS, KeyStore, signatureMatches, TERMINAL_ID } from './auth.js';
import { HEX64 } from './chain.js';
import { ingest, raiseAlarm, type IngestBatch } from './ingest.js';
import * as q from './queries.js';
import type { Db } from './sql.js';

export interface ServerOptions {
  db: Db;
  /** Bearer token for the query and admin routes; without one they answer loopback callers only. */
  adminToken?: string;
  /** Largest accepted clock difference of a signed request (default 5 min). */
  maxSkewMs?: number;
  bodyLimit?: number;
  logger?: Logger | boolean;
}

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
  const bodyLimit = options.bodyLimit ?? 8 * 1024 * 1024;
  const app = (typeof options.logger === 'object'
    ? Fastify({ loggerInstance: options.logger, bodyLimit })
    : Fastify({ logger: options.logger ?? false, bodyLimit })) as unknown as FastifyInstance;

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

  const admin = (req: FastifyRequest): boolean => {
    if (!options.adminToken) return ['127.0.0.1', '::1', '::ffff:127.0.0.1'].includes(req.ip);
    const given = Buffer.from(/^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '');
    const want = Buffer.from(options.adminToken);
    return given.length === want.length && timingSafeEqual(given, want);
  };

  app.get('/healthz', async (_req, reply) => {
    try {
      await db.query('SELECT 1');
      return { ok: true, database: db.kind };
    } catch (e) {
      return reply.code(503).send({ ok: false, database: db.kind, error: e instanceof Error ? e.message : String(e) });
    }
  });

  app.post('/v1/ingest', { schema: { body: ingestSchema } }, async (req, reply) => {
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
    const r = await ingest(db, batch);
    if (r.status !== 200) req.log.warn({ terminal, result: r }, 'ingest refused');
    return reply.code(r.status).send(r);
  });

  // Queries and administration.
  app.register(async (scope) => {
    scope.addHook('onRequest', async (req, reply) => {
      if (!admin(req)) return reply.code(403).send({ error: 'forbidden', message: 'admin token required' });
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
    scope.post('/v1/admin/terminals', async (req, reply) => {
      const b = (req.body ?? {}) as { terminalId?: string; rotate?: boolean };
      try {
        return await enrolTerminal(db, String(b.terminalId ?? ''), b.rotate === true);
      } catch (e) {
        if (e instanceof EnrolError) return reply.code(409).send({ error: 'enrol', message: e.message });
        throw e;
      }
    });
  });
  return app;
}
