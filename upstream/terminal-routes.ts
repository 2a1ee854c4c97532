import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { raiseRepeatableAlarm } from './alarm.js';
import { ordersFor } from './backoffice/index.js';
import { ingest } from './ingest.js';
import type { UpstreamMetrics } from './metrics.js';
import * as q from './queries.js';
import type { ReceiptSigner } from './receipts.js';
import type { ReplayGuard } from './replay-guard.js';
import * as s from './schemas.js';
import type { Db } from './sql.js';
import type { IngestBudget } from './ingest-budget.js';
import { noteCurrency } from './table-currency.js';
import type { ZodApp } from './ticket-routes.js';

// The routes a kiosk calls, each signed by the terminal over its own path (docs/upstream.md): its
// journal's batches, the receipt of its head, its heartbeat, the configuration orders for it. A
// body naming another terminal is refused (403): a terminal speaks for itself only.

type Signed = { terminal: string; sig: string; ts: number };

export interface TerminalRouteContext {
  readonly db: Db;
  /** The signing terminal, or null with the 401 sent (upstream/server.ts). */
  readonly signedBy: (req: FastifyRequest, reply: FastifyReply, path: string) => Promise<Signed | null>;
  readonly replays: ReplayGuard;
  readonly metrics: UpstreamMetrics;
  readonly receipts: ReceiptSigner;
  /** Each terminal's entries and bytes a minute (upstream/ingest-budget.ts). */
  readonly budget: IngestBudget;
  /** The skew a signed request may have: an entry dated further from what its table said, or from now, is misdated (ingest/misdated.ts). */
  readonly maxSkewMs: number;
}

/** Every signed route of a kiosk (in the scope of their own rate limit). */
export function terminalRoutes(scope: ZodApp, ctx: TerminalRouteContext): void {
  ingestRoute(scope, ctx);
  receiptRoutes(scope, ctx);
  heartbeatRoute(scope, ctx);
  configOrdersRoute(scope, ctx);
}

/** A batch of a terminal's journal: stored once, in order, and answered with a signed receipt of the head. */
function ingestRoute(scope: ZodApp, { db, signedBy, replays, metrics, receipts, budget, maxSkewMs }: TerminalRouteContext): void {
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
          429: s.ErrorBody,
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
        await raiseRepeatableAlarm(db, terminal, 'foreign-stream', { claimed: batch.terminalId });
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
      // Past the terminal's budget: refused before any work, no alarm (the kiosk backs off and sends it again).
      const wait = budget.take(
        terminal,
        batch.entries.length,
        batch.entries.reduce((n, e) => n + e.body.length, 0),
      );
      if (wait > 0) {
        metrics.ingested.inc({ result: 'over-budget' });
        req.log.warn({ terminal, entries: batch.entries.length }, 'ingest over the terminal budget');
        reply.header('retry-after', String(Math.ceil(wait / 1000)));
        return reply
          .code(429)
          .send({ error: 'over-budget', message: `this terminal's entries or bytes a minute are spent; again in ${Math.ceil(wait / 1000)} s` });
      }
      const r = await ingest(db, batch, maxSkewMs);
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
}

/** The key the receipts verify with, and the receipt of the head the service holds of a terminal. */
function receiptRoutes(scope: ZodApp, { db, signedBy, receipts }: TerminalRouteContext): void {
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
}

/** A kiosk's heartbeat: its last contact, its health snapshot and its currency. */
function heartbeatRoute(scope: ZodApp, { db, signedBy, metrics }: TerminalRouteContext): void {
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
      const sync = req.body.health.sync;
      // Nothing unsent: every entry journalled by now is here, so one that comes later dated before now is misdated (ingest/misdated.ts).
      const caughtUp = typeof sync === 'object' && sync.lagEntries === 0;
      await db.query(
        `UPDATE terminals SET last_seen_at = now(), last_health = $2::jsonb, last_health_at = now(),
           caught_up_at = CASE WHEN $3 THEN now() ELSE caught_up_at END WHERE terminal_id = $1`,
        [terminal, JSON.stringify(req.body.health), caughtUp],
      );
      await noteCurrency(db, terminal, req.body.health.currency, sync && sync !== 'off' ? (sync.lagEntries ?? 0) : 0, req.body.health.ledger?.head);
      metrics.heartbeats.inc();
      return { ok: true as const, serverTime: new Date().toISOString() };
    },
  );
}

/** The back office's approved configuration changes for the signing table, each signed by the service. */
function configOrdersRoute(scope: ZodApp, { db, signedBy, receipts }: TerminalRouteContext): void {
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
}
