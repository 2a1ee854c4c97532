import type { FastifyReply } from 'fastify';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { Language } from '../../../protocol/index.js';
import { clientLog } from '../../limits/connection-guard.js';
import type { HostApp, HttpServerDeps, ServiceExportKind } from '../http-deps.js';

/** Service mode's exports (meters, a round's evidence, a station's enrolment, this table's enrolment file for a peer), answered only for the signed-in session's export token (`?t=`). */
export function serviceExportRoutes(app: HostApp, serviceExport: NonNullable<HttpServerDeps['serviceExport']>, log: Logger): void {
  const answer = (kind: ServiceExportKind) => async (req: { query: unknown; params: unknown; url: string; socket: Socket }, reply: FastifyReply) => {
    const query = req.query as { t?: unknown; lang?: unknown };
    const params = req.params as { roundId?: string; station?: string; table?: string };
    const roundId = params.roundId ?? params.station ?? params.table;
    const language = Language.safeParse(query.lang);
    const file = typeof query.t === 'string' ? serviceExport(query.t, kind, roundId, language.success ? language.data : undefined) : null;
    if (!file) {
      // The path only: the query holds the export token.
      clientLog(log, req.socket).warn({ path: req.url.split('?')[0] }, 'service export refused');
      return reply.code(403).send({ error: 'sign in to service mode to export' });
    }
    const name = file.filename.replace(/[^\w.-]/g, '_');
    reply
      .header('Content-Type', file.contentType)
      .header('Content-Disposition', `${file.inline ? 'inline' : 'attachment'}; filename="${name}"`)
      .header('Cache-Control', 'no-store');
    // The printable report is a page of its own: styles inline, no script, nothing loaded.
    if (file.inline) reply.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; font-src 'self'");
    return reply.send(file.body);
  };
  app.get('/service/export/meters.csv', answer('meters.csv'));
  app.get('/service/export/meters.json', answer('meters.json'));
  app.get('/service/export/meters.html', answer('meters.html'));
  app.get('/service/export/evidence/:roundId', answer('evidence'));
  app.get('/service/export/enrolment/:station', answer('enrolment'));
  app.get('/service/export/peer-enrolment/:table', answer('peer-enrolment'));
}
