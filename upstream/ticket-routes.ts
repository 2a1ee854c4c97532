import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { raiseRepeatableAlarm } from './alarm.js';
import type { ReplayGuard } from './replay-guard.js';
import * as s from './schemas.js';
import { ticketByNumber, ticketLiability } from './ticket-queries.js';
import * as ts from './ticket-schemas.js';
import { cancel, confirm, machineIdOf, redeem, registerIssue, registerPrinted, registerVoid, type RefusalLimit, type TicketWord } from './tickets.js';
import type { Db } from './sql.js';

// The validation authority's routes (issue 47; docs/upstream.md, "Tickets"). A table speaks for
// itself only: every route is signed like a batch over its own path, the body names the signer,
// and a body naming another table is refused (403) and alarmed — a table cannot redeem, confirm or
// cancel as another. The queries (one ticket, the liability) take the query token.

export type ZodApp = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, ZodTypeProvider>;
type Signed = { terminal: string; sig: string; ts: number };

export interface TicketRouteContext {
  readonly db: Db;
  /** The signing table, or null with the 401 sent (upstream/server.ts). */
  readonly signedBy: (req: FastifyRequest, reply: FastifyReply, path: string) => Promise<Signed | null>;
  readonly replays: ReplayGuard;
  /** A table's refused redemptions before all are refused for a while (numbers guessed). */
  readonly refusals: RefusalLimit;
}

/** The signed routes a table calls (in the scope of their own rate limit). */
export function ticketRoutes(scope: ZodApp, ctx: TicketRouteContext): void {
  const { db } = ctx;
  const tableOf = (req: FastifyRequest, reply: FastifyReply, path: string, named: string) => speakingTable(ctx, req, reply, path, named);
  const word = (reply: FastifyReply, w: TicketWord) => (w.ok ? { ok: true as const } : reply.code(409).send({ error: w.error, message: w.message }));
  const security = [{ terminal: [] }];
  const refusals = { 401: s.ErrorBody, 403: s.ErrorBody, 409: s.ErrorBody };

  scope.post(
    '/v1/tickets/machine',
    {
      schema: {
        summary: "this table's validation id (assigned at its first ask: the one proposed when no table holds it, else the next free one)",
        security,
        body: ts.MachineBody,
        response: { 200: ts.MachineAnswer, ...refusals },
      },
    },
    async (req, reply) => {
      const t = await tableOf(req, reply, '/v1/tickets/machine', req.body.terminalId);
      return t === null ? reply : { machineId: await machineIdOf(db, t, req.body.proposed) };
    },
  );
  scope.post(
    '/v1/tickets/issue',
    { schema: { summary: 'a ticket issued (its credit left the station)', security, body: ts.IssueBody, response: { 200: ts.TicketOk, ...refusals } } },
    async (req, reply) => {
      const t = await tableOf(req, reply, '/v1/tickets/issue', req.body.terminalId);
      return t === null ? reply : word(reply, await db.transaction((tx) => registerIssue(tx, t, req.body.ticket)));
    },
  );
  scope.post(
    '/v1/tickets/printed',
    { schema: { summary: 'a ticket printed: redeemable', security, body: ts.TicketAtBody, response: { 200: ts.TicketOk, ...refusals } } },
    async (req, reply) => {
      const t = await tableOf(req, reply, '/v1/tickets/printed', req.body.terminalId);
      return t === null ? reply : word(reply, await db.transaction((tx) => registerPrinted(tx, t, req.body)));
    },
  );
  scope.post(
    '/v1/tickets/void',
    { schema: { summary: 'a ticket not printed, its credit given back', security, body: ts.TicketAtBody, response: { 200: ts.TicketOk, ...refusals } } },
    async (req, reply) => {
      const t = await tableOf(req, reply, '/v1/tickets/void', req.body.terminalId);
      return t === null ? reply : word(reply, await db.transaction((tx) => registerVoid(tx, t, req.body)));
    },
  );
  scope.post(
    '/v1/tickets/redeem',
    {
      schema: {
        summary: 'ask to redeem a ticket in escrow: approved (held for this attempt) or refused with a reason',
        security,
        body: ts.RedeemBody,
        response: { 200: ts.RedeemAnswer, ...refusals },
      },
    },
    async (req, reply) => {
      const t = await tableOf(req, reply, '/v1/tickets/redeem', req.body.terminalId);
      return t === null ? reply : redeem(db, t, req.body, ctx.refusals);
    },
  );
  for (const [path, fn, summary] of [
    ['/v1/tickets/confirm', confirm, 'the attempt stacked and credited: paid'],
    ['/v1/tickets/cancel', cancel, 'the attempt returned to the player: redeemable again'],
  ] as const) {
    scope.post(path, { schema: { summary, security, body: ts.AttemptBody, response: { 200: ts.TicketOk, ...refusals } } }, async (req, reply) => {
      const t = await tableOf(req, reply, path, req.body.terminalId);
      return t === null ? reply : word(reply, await fn(db, t, req.body.requestId, req.body));
    });
  }
}

/** The signer when it speaks for itself, first use of its signature; else the answer is sent and null. */
async function speakingTable(ctx: TicketRouteContext, req: FastifyRequest, reply: FastifyReply, path: string, named: string): Promise<string | null> {
  const { db } = ctx;
  const signed = await ctx.signedBy(req, reply, path);
  if (!signed) return null;
  if (named !== signed.terminal) {
    await raiseRepeatableAlarm(db, signed.terminal, 'ticket-foreign-terminal', { path, claimed: named });
    await reply.code(403).send({ error: 'foreign-terminal', message: 'a table speaks for its own tickets only' });
    return null;
  }
  if (!ctx.replays.firstUse(signed.sig, signed.ts)) {
    await reply.code(409).send({ error: 'replay', message: 'this signed request was already received' });
    return null;
  }
  return signed.terminal;
}

/** The query routes (the query or admin token, checked by the scope). */
export function ticketQueryRoutes(scope: ZodApp, db: Db): void {
  const security = [{ admin: [] }];
  scope.get(
    '/v1/tickets/liability',
    { schema: { security, summary: 'tickets issued, not redeemed, not expired: count and amount per currency', response: { 200: ts.Liability } } },
    async () => ticketLiability(db),
  );
  scope.get(
    '/v1/tickets/:validation',
    {
      schema: {
        security,
        summary: 'a ticket by its validation number, with every attempt to redeem it',
        params: ts.TicketParams,
        response: { 200: ts.TicketView, 404: ts.TicketView },
      },
    },
    async (req, reply) => {
      const view = await ticketByNumber(db, req.params.validation);
      return view.ticket || view.attempts.length || view.contests.length ? view : reply.code(404).send(view);
    },
  );
}
