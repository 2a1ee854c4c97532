// `etg station-agent --enrolment FILE [--device-enrolment FILE] [--join FILE]… [--bill-acceptor SPEC] [--protocol id003|ssp] [--sas SPEC] [--screen-port N] [--json]`
// (`npm run --silent station-agent -- …`):
// a remote station's agent on the station's machine: its bill acceptor relayed to the table, its
// screen served on this machine's loopback (docs/stadium.md).
import path from 'node:path';
import pino from 'pino';
import { isCurrency } from '../hardware/index.js';
import { startStationAgent } from '../host/station-agent/agent.js';
import { readEnrolment } from '../host/stadium/enrolment-file.js';
import { defineCommand, options } from './command.js';
import { UsageError } from './tool.js';

export const command = defineCommand({
  name: 'station-agent',
  summary:
    "A remote station's agent: drives the station's bill acceptor and relays each note to the table (the\n" +
    'table journals the escrow before the note is stacked and the credit before the device is\n' +
    "acknowledged), and serves the station's screen to this machine's browser, relayed to the table\n" +
    "under the station's credential. Every link to the table is TLS to the certificate its enrolment pinned.",
  usage: 'usage: etg station-agent --enrolment FILE [options]',
  options: {
    enrolment: { type: 'string', value: 'FILE', help: "the station's enrolment file at its home table (service mode gives it once, at enrolment)" },
    'device-enrolment': {
      type: 'string',
      value: 'FILE',
      help: "when --enrolment names an edge (the screen's): the station's direct enrolment at its home table, for the acceptor's link (it carries the secret, which never goes to an edge)",
    },
    join: {
      type: 'string',
      multiple: true,
      value: 'FILE',
      help: "another table's enrolment file: the screen follows that table too (one --join per table; the acceptor and credit stay home's)",
    },
    'bill-acceptor': { type: 'string', value: 'SPEC', default: 'sim', help: 'sim, usb:VID:PID[:serial], tcp:HOST:PORT or serial:PATH (serial:/dev/ttyS0)' },
    protocol: { type: 'string', value: 'id003|ssp', default: 'id003', help: "the acceptor's protocol" },
    currency: { type: 'string', value: 'MOP|HKD', default: 'MOP', help: "the table's currency" },
    'screen-port': { type: 'string', value: 'N', help: "the station screen's loopback port (default: a free one)" },
    'no-screen': { type: 'boolean', help: 'the acceptor only: serve no screen' },
    relay: {
      type: 'boolean',
      help: "relay the acceptor's bytes and let the table run the driver (a production table takes no other; a test build with remoteAcceptors.relayOnly neither)",
    },
    sas: {
      type: 'string',
      value: 'SPEC',
      help: "the station's SAS link to the casino's system, uart:PATH (a real UART), serial:PATH or tcp:HOST:PORT: its bytes relayed to the table, which runs the station's SAS machine (remoteSas)",
    },
    json: { type: 'boolean', help: "one JSON line when running: the station, the screen's URL" },
  },
});

/** Runs until SIGINT or SIGTERM, then closes the agent's links and returns 0. */
export async function run(argv: string[]): Promise<number> {
  const v = options(command, argv);
  if (!v.enrolment) throw new UsageError(`--enrolment FILE is required\n${command.usage}`);
  const protocol = v.protocol;
  if (protocol !== 'id003' && protocol !== 'ssp') throw new UsageError('--protocol must be id003 or ssp');
  const currency = v.currency ?? 'MOP';
  if (!isCurrency(currency)) throw new UsageError('--currency must be MOP or HKD');
  const port = v['screen-port'] === undefined ? undefined : Number(v['screen-port']);
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) throw new UsageError('--screen-port must be a port number');
  const enrolment = readEnrolment(path.resolve(v.enrolment));
  const others = (v.join ?? []).map((file) => readEnrolment(path.resolve(file)));
  const deviceEnrolment = v['device-enrolment'] === undefined ? undefined : readEnrolment(path.resolve(v['device-enrolment']));
  if (enrolment.edge && !deviceEnrolment)
    throw new UsageError(
      `${v.enrolment} names an edge: the acceptor's link carries the station's secret, which never goes there; add --device-enrolment FILE (the station's direct enrolment at the table)`,
    );
  const log = pino({ level: process.env.LOG_LEVEL ?? 'warn' }, pino.destination(2));
  const running = await startStationAgent({
    enrolment,
    others,
    billAcceptor: v['bill-acceptor'] ?? 'sim',
    protocol,
    currency,
    log,
    rendererDir: v['no-screen'] ? null : path.resolve(import.meta.dirname, '../dist/renderer'),
    ...(v.relay ? { relay: true } : {}),
    ...(deviceEnrolment ? { deviceEnrolment } : {}),
    ...(v.sas ? { sas: v.sas } : {}),
    ...(port !== undefined ? { screenPort: port } : {}),
  });
  const about = {
    station: enrolment.station,
    table: enrolment.tableId,
    host: enrolment.host,
    joined: others.map((e) => ({ table: e.tableId, station: e.station, host: e.host })),
    screen: running.screenUrl,
  };
  console.log(
    v.json
      ? JSON.stringify(about)
      : `Station ${about.station} of ${about.table} (${about.host})${others.map((e) => `, station ${e.station} of ${e.tableId} (${e.host})`).join('')}; screen: ${about.screen ?? 'none'}. Ctrl+C stops.`,
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await running.close();
  return 0;
}
