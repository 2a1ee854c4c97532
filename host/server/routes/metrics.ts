import { timingSafeEqual } from 'node:crypto';
import type { HostApp, HttpServerDeps } from '../http-deps.js';

/** Prometheus metrics at `/metrics`, answered only to `Authorization: Bearer <token>` (compared in constant time). */
export function metricsRoute(app: HostApp, metrics: NonNullable<HttpServerDeps['metrics']>): void {
  const want = Buffer.from(metrics.token);
  app.get('/metrics', async (req, reply) => {
    const given = Buffer.from(/^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '');
    if (given.length !== want.length || !timingSafeEqual(given, want)) return reply.code(401).send({ error: 'metrics token required' });
    return reply
      .header('Content-Type', metrics.contentType)
      .header('Cache-Control', 'no-store')
      .send(await metrics.text());
  });
}
