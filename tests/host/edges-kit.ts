// A table host with edges on NATS for the edges' tests: the NATS server (over TLS, its certificate
// pinned, as a table's) with a user for the host and one per edge (each with its own permissions),
// the host's bridge, and edges made on demand.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connect, type NatsConnection } from 'nats';
import pino from 'pino';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { startHost, type RunningHost } from '../../host/start-host.js';
import { tableCertificate } from '../../host/stadium/table-certificate.js';
import type { EnrolmentFile } from '../../host/stadium/enrolment-file.js';
import { startNatsServer, type NatsServer } from '../../host/edges/nats-server.js';
import { natsCertificate, natsTls } from '../../host/edges/nats-tls.js';
import { EdgeBridge } from '../../host/edges/edge-bridge.js';
import { Edge } from '../../host/edges/edge.js';
import { createEdgeServer } from '../../host/edges/edge-server.js';
import { edgeInbox, edgePermissions } from '../../host/edges/subjects.js';

export const log = pino({ level: 'silent' });

export interface EdgeKit {
  readonly name: string;
  readonly edge: Edge;
  readonly nc: NatsConnection;
  kill(): Promise<void>;
  /** The station's enrolment as it reaches this edge: the edge's address and certificate pinned. */
  at(enrolment: EnrolmentFile): EnrolmentFile;
}

export interface EdgeTable {
  readonly running: RunningHost;
  readonly nats: NatsServer;
  readonly bridge: EdgeBridge;
  readonly tableId: string;
  /** A NATS connection as `user` (reconnecting at once, for ever: a restart of NATS is waited out). */
  natsAs(user: string, inbox?: string, servers?: string): Promise<NatsConnection>;
  /** An edge; `servers`: another way to NATS than the server's own address (a test's proxy). */
  startEdge(name: string, servers?: string): Promise<EdgeKit>;
  close(): Promise<void>;
}

const password = (user: string) => `pw-${user}-0123456789abcdef`;

export async function startEdgeTable(options: { edges: readonly string[]; remote: number }): Promise<EdgeTable> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'edges-'));
  const config = TableConfig.parse({ ...simulatedTableConfig('baccarat'), remoteStations: options.remote });
  const tableId = config.tableId;
  // TLS only, as a table's: the server's certificate pinned by every connection (natsTls).
  const natsCert = await natsCertificate(path.join(dir, 'nats-tls'), ['127.0.0.1']);
  const nats = await startNatsServer({
    tls: { certFile: natsCert.certFile, keyFile: natsCert.keyFile },
    users: [{ user: 'host', password: password('host') }, ...options.edges.map((e) => ({ user: e, password: password(e), ...edgePermissions(tableId, e) }))],
  });
  const closers: (() => unknown)[] = [];
  const natsAs = async (user: string, inbox?: string, servers = nats.url) => {
    const nc = await connect({
      servers,
      user,
      pass: password(user),
      tls: natsTls(natsCert),
      reconnectTimeWait: 100,
      maxReconnectAttempts: -1,
      ...(inbox ? { inboxPrefix: inbox } : {}),
    });
    closers.push(() => nc.close());
    return nc;
  };
  const running = await startHost({
    dataDir: path.join(dir, 'host'),
    rendererDir: path.join(dir, 'no-renderer'),
    config,
    logger: log,
    seed: 7,
    simulatedDealer: { dealMs: 5 },
    timings: { bettingMs: 1500, decisionMs: 1000, resultsMs: 100 },
  });
  // A table configured without edges starts no NATS of its own: the kit's is the test's.
  if (running.edges !== null) throw new Error('a table without edges started NATS');
  const bridge = await EdgeBridge.start({ hub: running.screens.hub, stations: running.stadium.stations, nc: await natsAs('host'), tableId, log });
  closers.push(() => bridge.close());
  return {
    running,
    nats,
    bridge,
    tableId,
    natsAs,
    startEdge: async (name, servers) => {
      const nc = await natsAs(name, edgeInbox(name), servers);
      const edge = await Edge.start({ name, tableId, nc, log });
      const certificate = await tableCertificate(path.join(dir, name), name, ['127.0.0.1']);
      // Every station of the tests dials from 127.0.0.1: one address's cap is the total.
      const server = await createEdgeServer(edge, { log, certificate, host: '127.0.0.1', port: 0, caps: { perAddress: 256, total: 256 } });
      let dead = false;
      const kill = async () => {
        if (dead) return;
        dead = true;
        await server.kill();
        edge.close();
        await nc.close();
      };
      closers.push(kill);
      return {
        name,
        edge,
        nc,
        kill,
        at: (e) => ({ ...e, host: server.origin, certificate: certificate.cert, fingerprint: certificate.fingerprint, edge: true }),
      };
    },
    close: async () => {
      for (const c of closers.reverse()) await c();
      await running.close();
      await nats.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
