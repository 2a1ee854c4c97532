import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * What a request that failed inside the upstream is answered. Fastify's default body carried the
 * error's message whole (a database's "relation … does not exist", a schema's words) to whoever
 * asked: a browser, a terminal, a hostile client. A 5xx now says only that the upstream failed and
 * the request it was logged under, for the casino's IT to find in the log; the error is logged
 * with it. A 4xx is handed on to Fastify's own handler (thrown again): its words say what the
 * client must change.
 */
export function hideServerErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    const status = typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 500;
    if (status < 500) throw error;
    req.log.error({ err: error, reqId: req.id, url: req.url, method: req.method }, 'upstream: a request failed inside the server');
    return reply.code(status).send({
      statusCode: status,
      error: 'Internal Server Error',
      message: `the upstream failed; its log has the error under request ${req.id}`,
      requestId: req.id,
    });
  });
}
