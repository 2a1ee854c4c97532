// `etg edge --config FILE [--json]`: one edge of a table with edges (issue 55, docs/stadium.md):
// it holds remote stations' TLS connections and relays them to the table's host over NATS.
import path from 'node:path';
import pino from 'pino';
import { readEdgeConfig } from '../host/edges/edge-config.js';
import { startEdge } from '../host/edges/start-edge.js';
import { defineCommand, options } from './command.js';
import { UsageError } from './tool.js';

export const command = defineCommand({
  name: 'edge',
  summary:
    "An edge of a table with edges: holds its remote stations' TLS connections (its own certificate,\n" +
    "which they pin), checks each station's proof of its secret against the keys the table's host\n" +
    "publishes, and relays the stations' commands to the host over NATS as its own NATS user. It decides\n" +
    'nothing and holds no money; the acceptors stay linked to the table.',
  usage: 'usage: etg edge --config FILE [--json]',
  options: {
    config: {
      type: 'string',
      value: 'FILE',
      help: "the edge's configuration (JSON: name, tableId, nats {url, passwordFile, certificateFile}, listen {host, port}, dataDir)",
    },
    json: { type: 'boolean', help: "one JSON line when running: the edge, its address and its certificate's fingerprint" },
  },
});

/** Runs until SIGINT or SIGTERM, then closes the stations' connections and NATS, and returns 0. */
export async function run(argv: string[]): Promise<number> {
  const v = options(command, argv);
  if (!v.config) throw new UsageError(`--config FILE is required\n${command.usage}`);
  const config = readEdgeConfig(path.resolve(v.config));
  const log = pino({ level: process.env.LOG_LEVEL ?? 'warn' }, pino.destination(2));
  const running = await startEdge(config, log);
  const about = {
    edge: config.name,
    table: config.tableId,
    origin: running.origin,
    fingerprint: running.fingerprint,
    certificate: path.join(config.dataDir, 'tls'),
  };
  console.log(
    v.json
      ? JSON.stringify(about)
      : `Edge ${about.edge} of ${about.table} at ${about.origin} (certificate ${about.fingerprint}, in ${about.certificate}). Ctrl+C stops.`,
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await running.close();
  return 0;
}
