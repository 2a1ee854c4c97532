import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { enrolTerminal, EnrolError, type KeyStore } from './auth.js';
import * as q from './queries.js';
import * as s from './schemas.js';
import type { Db } from './sql.js';
import { ticketQueryRoutes, type ZodApp } from './ticket-routes.js';

// The routes casino IT calls with a bearer token (docs/upstream.md): the read-only queries, and
// the admin's key issuing. Each group is registered in a scope that checks the token's role first.

/** Queries: read only, the query (or admin) token. */
export function queryRoutes(scope: ZodApp, db: Db): void {
  const query = { security: [{ admin: [] }] };
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
        // A page cut short by the answer's budget is no end of the journal: said where a client's
        // IT reads the API, not only in docs/upstream.md (a reader that stops at a short page misses the rest).
        description: `At most ${q.ANSWER_TEXT_BUDGET / 1024 / 1024} MiB of entry bodies an answer (the first entry always), so a page may hold fewer than \`limit\` entries before the journal ends: page on from the last seq + 1 until an answer is empty.`,
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
        // Paged (a stadium's projection is some 80,000 rows, a hostile table's more): the next
        // page is named where a reader finds it, and a page that is not full is the last.
        description: `At most \`limit\` rows an answer (default and most ${s.METERS_PAGE_MAX}), ordered by scope, name and currency. While a page is full, the answer's \`link\` header names the next page (\`<…?after=…>; rel="next"\`, the scope and limit kept): follow it until an answer has no \`link\`.`,
        params: s.TerminalParams,
        querystring: s.MetersQuery,
        response: { 200: z.array(s.Meter), 400: s.ErrorBody },
      },
    },
    async (req, reply) => metersAnswer(db, req.params.id, req.query, reply),
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
    {
      schema: {
        ...query,
        summary: 'divergences, bad chains, foreign streams',
        description: 'Newest first, at most `limit` (default 100, most 500): page on with `before` = the last id answered until an answer is empty.',
        querystring: s.AlarmsQuery,
        response: { 200: z.array(s.Alarm) },
      },
    },
    async (req) => q.alarms(db, req.query.terminal, req.query.limit, req.query.before),
  );
  ticketQueryRoutes(scope, db);
}

/**
 * A page of a table's meters; while it is full, its `link` header names the next (the scope and
 * limit kept). A cursor the route did not write is a 400.
 */
async function metersAnswer(db: Db, id: string, query: z.infer<typeof s.MetersQuery>, reply: FastifyReply) {
  const { scope, after, limit } = query;
  const from = after === undefined ? undefined : q.readMeterCursor(after);
  if (from === null)
    return reply
      .code(400)
      .send({ error: 'bad-request', message: 'querystring/after is no cursor this route gave: take it from the link header of the page before' });
  const page = await q.metersPage(db, id, scope, from, limit);
  if (page.next) {
    const next = new URLSearchParams({ ...(scope === undefined ? {} : { scope }), after: q.writeMeterCursor(page.next), limit: String(limit) });
    reply.header('link', `</v1/terminals/${encodeURIComponent(id)}/meters?${next.toString()}>; rel="next"`);
  }
  return page.rows;
}

/** Key issuing: the admin token only, answers never cached (the key is shown once). */
export function adminRoutes(scope: ZodApp, db: Db, keys: KeyStore): void {
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
}
