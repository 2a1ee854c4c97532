import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../sql.js';
import { ConfigProposal, configRequests, ConfigRequestError, decideConfig, proposeConfig } from './config-requests.js';
import type { Permission } from './roles.js';
import type { Session } from './sessions.js';

const TableParams = z.strictObject({ id: z.string().regex(/^[A-Za-z0-9._:-]{1,64}$/) });
const RequestParams = z.strictObject({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
const ListQuery = z.strictObject({
  terminal: z
    .string()
    .regex(/^[A-Za-z0-9._:-]{1,64}$/)
    .optional(),
});

type SignedIn = (req: FastifyRequest, reply: FastifyReply, need: Permission) => Promise<Session | null>;

/**
 * The configuration requests' routes (issue 49 item 6): anyone signed in sees them; proposing,
 * approving and withdrawing need `table-config` (and, being POSTs, the CSRF token); an approval by
 * the request's own author is refused here and, should a route ever forget, by the database.
 */
export function configRequestRoutes(api: FastifyInstance, db: Db, signedIn: SignedIn): void {
  const scope = api.withTypeProvider<ZodTypeProvider>();
  const refused = (reply: FastifyReply, e: unknown) => {
    if (e instanceof ConfigRequestError) return reply.code(e.status).send({ error: e.code, message: e.message });
    throw e;
  };
  scope.get('/config-requests', { schema: { hide: true, querystring: ListQuery } }, async (req, reply) => {
    if (!(await signedIn(req, reply, 'floor'))) return reply;
    return configRequests(db, req.query.terminal);
  });
  scope.post('/tables/:id/config-requests', { schema: { hide: true, params: TableParams, body: ConfigProposal } }, async (req, reply) => {
    const s = await signedIn(req, reply, 'table-config');
    if (!s) return reply;
    try {
      return await proposeConfig(db, req.params.id, req.body, s.name, req.ip);
    } catch (e) {
      return refused(reply, e);
    }
  });
  for (const [path, step] of [
    ['approve', 'approved'],
    ['withdraw', 'withdrawn'],
  ] as const) {
    scope.post(`/config-requests/:id/${path}`, { schema: { hide: true, params: RequestParams } }, async (req, reply) => {
      const s = await signedIn(req, reply, 'table-config');
      if (!s) return reply;
      try {
        return await decideConfig(db, req.params.id, step, s.name, req.ip);
      } catch (e) {
        return refused(reply, e);
      }
    });
  }
}
