// The back office (issue 49; docs/backoffice.md): a web page the upstream serves, with its own
// sign-in, the floor live, worked alarms and the gaming day's reports.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { audit } from './audit.js';
import { hijackKeepingCookie } from './guard.js';
import { backofficeHosts, refuseOtherHosts } from './hosts.js';
import { FloorHub, type FloorStreamLimits } from './floor-hub.js';
import { reportRoutes } from './report-routes.js';
import { registerBackofficeApi, type BackofficeOptions } from './routes.js';
import { tableDetail } from './table-detail.js';
import { configRequestRoutes } from './config-routes.js';
import { roundEvidence } from './round-evidence.js';

export interface BackofficeServerOptions extends Omit<BackofficeOptions, 'db'> {
  /** The built page (`npm run build:backoffice`); default dist/backoffice of the repository. */
  pageDir?: string;
  /** The live floor's pace and per-client bound (floor-hub.ts); the defaults are production's. */
  floorStream?: FloorStreamLimits;
  /**
   * The host names the back office answers to besides `localhost` and any address (hosts.ts): a
   * request under /backoffice by another name is refused 421 before any route (DNS rebinding).
   */
  hosts?: readonly string[];
}

const DEFAULT_PAGE = fileURLToPath(new URL('../../dist/backoffice', import.meta.url));
const TableParams = z.strictObject({ id: z.string().regex(/^[A-Za-z0-9._:-]{1,64}$/) });
/**
 * A table and one of its rounds, from the URL: parsed, never trusted (the engine's round ids are
 * `<table>-<time>-<n>`). 100 characters at most: Fastify's router ends a parameter there.
 */
const RoundParams = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9._:-]{1,64}$/),
  round: z.string().regex(/^[A-Za-z0-9._:-]{1,100}$/),
});
const EvidenceQuery = z.strictObject({ download: z.enum(['1']).optional() });
const REFUSED = {
  'no-table': 404,
  'no-round': 404,
  'round-of-another-table': 404,
  'round-open': 409,
  'round-unreadable': 422,
  'round-too-large': 422,
} as const;
const REFUSAL_TEXT = {
  'no-table': 'no such terminal',
  'no-round': 'the table has no such round',
  'round-of-another-table': 'the round was played at another table',
  'round-open': 'the round has not closed yet',
  'round-unreadable': "the round's journal entries do not read as a ledger writes them",
  'round-too-large':
    'the round is too large to show (more entries, bytes or seqs than any round a ledger journals): every entry of it is kept, GET /v1/terminals/:id/entries reads them',
} as const;

/**
 * Attaches the back office to the upstream: a hook that tells the live floor which terminal a
 * batch or heartbeat came from (added before the ingest routes, so it covers them), and
 * `register`, called once the other routes are in, which adds the API and the page.
 */
export function attachBackoffice(app: FastifyInstance, options: BackofficeOptions & BackofficeServerOptions): { register(): Promise<void> } {
  const now = options.now ?? Date.now;
  // Checked first: a list that is no list of names stops the start before anything listens.
  refuseOtherHosts(app, backofficeHosts(options.hosts));
  const hub = new FloorHub(options.db, now, options.floorStream, app.log);
  app.addHook('onResponse', async (req, reply) => {
    if (reply.statusCode !== 200 || (req.url !== '/v1/ingest' && req.url !== '/v1/heartbeat')) return;
    const terminal = req.headers['x-etg-terminal'];
    if (typeof terminal === 'string') hub.touched(terminal);
  });
  app.addHook('onReady', async () => hub.start());
  app.addHook('onClose', async () => hub.stop());
  return {
    async register() {
      await registerBackofficeApi(app, { ...options, sessionEnded: (id) => hub.sessionEnded(id) }, (inner, signedIn) => {
        const api = inner.withTypeProvider<ZodTypeProvider>();
        api.get('/floor', { schema: { hide: true } }, async (req, reply) => {
          if (!(await signedIn(req, reply, 'floor'))) return reply;
          return hub.rows();
        });
        api.get('/floor/events', { schema: { hide: true } }, async (req, reply) => {
          const s = await signedIn(req, reply, 'floor');
          if (!s) return reply;
          // Fastify answers HEAD with this handler too (the one read whose HEAD is answered:
          // guard.ts, HEAD_ANSWERED): the stream's headers and the end, never a stream (one held
          // open for ever, with nothing written, among the user's).
          if (req.method === 'HEAD') return reply.header('content-type', 'text/event-stream; charset=utf-8').header('cache-control', 'no-store').send();
          hijackKeepingCookie(reply);
          await hub.subscribe(reply.raw, { session: s.id, user: s.name, address: req.ip });
        });
        api.get('/tables/:id', { schema: { hide: true, params: TableParams } }, async (req, reply) => {
          if (!(await signedIn(req, reply, 'floor'))) return reply;
          const detail = await tableDetail(options.db, hub.projection, req.params.id);
          return detail ?? reply.code(404).send({ error: 'no-table', message: 'no such terminal' });
        });
        // One round's evidence bundle, as the table's ledger gives it (round-evidence.ts); `download=1` names it as a file.
        api.get('/tables/:id/rounds/:round/evidence', { schema: { hide: true, params: RoundParams, querystring: EvidenceQuery } }, async (req, reply) => {
          const s = await signedIn(req, reply, 'evidence');
          if (!s) return reply;
          const { id, round } = req.params;
          const bundle = await roundEvidence(options.db, id, round, new Date(now()));
          await audit(options.db, {
            actor: s.name,
            address: req.ip,
            action: 'round.evidence',
            detail: { terminal: id, round, ...(typeof bundle === 'string' ? { refused: bundle } : {}) },
          });
          if (typeof bundle === 'string') return reply.code(REFUSED[bundle]).send({ error: bundle, message: REFUSAL_TEXT[bundle] });
          if (req.query.download === '1') reply.header('content-disposition', `attachment; filename="evidence-${id}-${round}.json"`);
          return bundle;
        });
        configRequestRoutes(inner, options.db, signedIn);
        reportRoutes(inner, options.db, signedIn, now);
      });
      const root = options.pageDir ?? DEFAULT_PAGE;
      if (existsSync(root)) {
        await app.register(fastifyStatic, { root, prefix: '/backoffice/', index: 'index.html' });
        app.addHook('onSend', async (req, reply) => {
          if (req.url.startsWith('/backoffice/') && !req.url.startsWith('/backoffice/api/')) {
            // default-src covers neither: the page's forms are sent by script alone (fetch), and it
            // names no <base>. Without them, markup slipped into the page could post the sign-in
            // form's password to another site, or move every relative address there (a review of 6 December).
            reply.header(
              'content-security-policy',
              "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; form-action 'none'; base-uri 'none'; frame-ancestors 'none'",
            );
            reply.header('x-content-type-options', 'nosniff');
          }
        });
      } else {
        app.get('/backoffice/', { schema: { hide: true } }, async (_req, reply) =>
          reply.code(503).type('text/plain').send('the back office page is not built: npm run build:backoffice'),
        );
      }
    },
  };
}

export { putUser, disableUser, listUsers, UserError, type BackofficeUser } from './users.js';
export { BackofficeRole } from './roles.js';
export { MIN_PASSWORD_LENGTH, SCRYPT } from './password.js';
export { ordersFor } from './config-requests.js';
export { backofficeHosts } from './hosts.js';
