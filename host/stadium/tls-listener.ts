import Fastify, { LogController } from 'fastify';
import type { Logger } from 'pino';
import type { TableCertificate } from './table-certificate.js';

/**
 * The HTTPS server a remote station reaches (the host's LAN listener, an edge's): the certificate
 * the stations pin, TLS 1.2 at least, small bodies, no request logs (a station's requests are not
 * the technician's business; its refusals are logged where they are made).
 */
export function tlsListener(log: Logger, certificate: TableCertificate) {
  return Fastify({
    loggerInstance: log,
    logController: new LogController({ disableRequestLogging: true }),
    https: { key: certificate.key, cert: certificate.cert, minVersion: 'TLSv1.2' },
    bodyLimit: 1024,
    requestTimeout: 10_000,
  });
}
