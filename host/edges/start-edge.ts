import { readFileSync } from 'node:fs';
import { connect } from 'nats';
import type { Logger } from 'pino';
import { tableCertificate } from '../stadium/table-certificate.js';
import { Edge } from './edge.js';
import type { EdgeConfig } from './edge-config.js';
import { createEdgeServer } from './edge-server.js';
import { natsTls, readNatsPin } from './nats-tls.js';
import { edgeInbox } from './subjects.js';

export interface RunningEdge {
  readonly edge: Edge;
  /** `https://host:port`: where its stations' enrolments point. */
  readonly origin: string;
  /** The edge's certificate (PEM) and its SHA-256 fingerprint: what its stations pin. */
  readonly certificate: string;
  readonly fingerprint: string;
  close(): Promise<void>;
}

/**
 * One edge as `etg edge` runs it (issue 55): NATS as its own user (its name, the password from
 * its file; over TLS to the pinned certificate only; reconnecting for ever, a restart of NATS is waited out), its replies under its own
 * inbox, and its TLS listener for the stations with its own certificate, made once in its folder.
 */
export async function startEdge(config: EdgeConfig, log: Logger): Promise<RunningEdge> {
  const pass = readFileSync(config.nats.passwordFile, 'utf8').trim();
  const nc = await connect({
    servers: config.nats.url,
    user: config.name,
    pass,
    tls: natsTls(readNatsPin(config.nats.certificateFile)),
    name: `edge ${config.name}`,
    inboxPrefix: edgeInbox(config.name),
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    // No stack captured per request (two Errors per station's command, most of a command's cost at the edge).
    noAsyncTraces: true,
  });
  try {
    const edge = await Edge.start({ name: config.name, tableId: config.tableId, nc, log });
    const certificate = await tableCertificate(config.dataDir, config.name, [config.listen.host]);
    const server = await createEdgeServer(edge, {
      log,
      certificate,
      host: config.listen.host,
      port: config.listen.port,
      caps: config.listen.connections,
    });
    return {
      edge,
      origin: server.origin,
      certificate: certificate.cert,
      fingerprint: certificate.fingerprint,
      close: async () => {
        await server.close();
        edge.close();
        await nc.close();
      },
    };
  } catch (err) {
    await nc.close();
    throw err;
  }
}
