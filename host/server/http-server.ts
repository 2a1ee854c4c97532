import Fastify, { LogController } from 'fastify';
import { ConnectionGuard, clientLog } from '../limits/connection-guard.js';
import type { HttpServerDeps } from './http-deps.js';
import { metricsRoute } from './routes/metrics.js';
import { screenPageRoutes } from './routes/screen-pages.js';
import { screenSocketRoute } from './routes/screen-socket.js';
import { serviceExportRoutes } from './routes/service-export.js';
import { simControlRoutes } from './routes/sim-controls.js';
import { allowedHosts } from './security-headers.js';

export type { HttpServerDeps, ServiceExportKind } from './http-deps.js';

/**
 * The host's loopback web server: the screens' static files, the protocol over WebSocket at
 * `/ws`, and `/healthz`. Listening on 127.0.0.1 only.
 */
export async function createHttpServer(
  deps: HttpServerDeps,
  port: number,
): Promise<{ port: number; close: () => Promise<void>; connections: () => ReturnType<ConnectionGuard['stats']> }> {
  const app = Fastify({
    loggerInstance: deps.log,
    // Screens poll nothing and load a handful of files: per-request lines would only bury faults.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 16 * 1024,
    // A request's body trickled in byte by byte holds its connection no longer than this.
    requestTimeout: 10_000,
  });
  // Counted from the TCP accept: a connection says its hello (or asks something) in time, or is closed.
  const guard = new ConnectionGuard(deps.connections, { listener: 'local', log: deps.log, ...(deps.onGuardClose ? { onClose: deps.onGuardClose } : {}) });
  guard.attach(app.server);
  let hosts = new Set<string>();

  app.addHook('onRequest', async (req, reply) => {
    if (!hosts.has(req.headers.host ?? '')) {
      // The path only: a screen's URL carries its launch token in the query, which never reaches a log.
      clientLog(deps.log, req.socket).warn({ host: req.headers.host, path: req.url.split('?')[0] }, 'request for a foreign host refused');
      return reply.code(421).send({ error: 'misdirected request' });
    }
  });

  app.get('/healthz', async () => ({ status: 'ok', ...deps.health() }));

  if (deps.metrics) metricsRoute(app, deps.metrics);
  if (deps.simControls) simControlRoutes(app, deps.simControls);
  if (deps.serviceExport) serviceExportRoutes(app, deps.serviceExport, deps.log);
  await screenSocketRoute(app, deps, guard, () => hosts);
  await screenPageRoutes(app, deps.rendererDir, deps.log);

  await app.listen({ host: '127.0.0.1', port });
  const address = app.server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  hosts = allowedHosts(bound);
  return {
    port: bound,
    connections: () => guard.stats(),
    close: async () => {
      guard.close();
      await app.close();
    },
  };
}
