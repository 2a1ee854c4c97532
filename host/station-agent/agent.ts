import type { Logger } from 'pino';
import type { Currency } from '../../hardware/billacceptor/notes.js';
import { MAX_JOINED_TABLES } from '../../protocol/index.js';
import type { EnrolmentFile } from '../stadium/enrolment-file.js';
import { ByteRelay } from './byte-relay.js';
import { directEnrolment } from './device-link.js';
import { DeviceRelay } from './device-relay.js';
import { pinnedAgent, pinnedSocket } from './pinned-socket.js';
import { startScreenRelay } from './screen-relay.js';

export interface StationAgentOptions {
  /** The station's home table: its bill acceptor and its credit belong there. */
  enrolment: EnrolmentFile;
  /**
   * The station's direct enrolment at its home table, for the acceptor's device link, when
   * `enrolment` is at an edge (the screen's): the device link says the secret, which never goes
   * to an edge. Absent: `enrolment`, which must then be direct.
   */
  deviceEnrolment?: EnrolmentFile;
  /** Other tables the station joins, each enrolled there as at home (its screen follows them all; docs/stadium.md). */
  others?: readonly EnrolmentFile[];
  /** The acceptor: `sim`, `usb:VID:PID[:serial]`, `tcp:HOST:PORT` or `serial:PATH`. */
  billAcceptor: string;
  protocol: 'id003' | 'ssp';
  currency: Currency;
  log: Logger;
  /** The built renderer for the station's own screen; null: no screen is served (a test rig). */
  rendererDir: string | null;
  /** The screen's loopback port (0: any free one). */
  screenPort?: number;
  /**
   * Relay the acceptor's bytes and let the table host run the driver (preferred: the host then
   * trusts this machine as little as a cable; docs/security.md). Default: run the driver here and
   * relay its money questions.
   */
  relay?: boolean;
  /** The station's SAS link (`serial:PATH` or `tcp:HOST:PORT`), relayed to the table host that runs its SAS machine (docs/sas.md, "Remote stations"). */
  sas?: string;
}

export interface RunningAgent {
  relay: DeviceRelay | ByteRelay;
  /** The station screen's local URL, with its launch token (null without a screen). */
  screenUrl: string | null;
  close(): Promise<void>;
}

/**
 * A remote station's agent, on the station's own machine: it drives the station's bill acceptor
 * with the hardware layer and relays its money decisions to its home table (DeviceRelay), and
 * serves the station's screen to the browser on this machine, relayed to each table it joined
 * under the station's credential there (startScreenRelay). Every link to a table is TLS to that
 * table's pinned certificate, each its own: one lost leaves the others as they were.
 */
export async function startStationAgent(o: StationAgentOptions): Promise<RunningAgent> {
  const joined = [o.enrolment, ...(o.others ?? [])];
  const seen = new Set<string>();
  for (const e of joined) {
    if (seen.has(e.tableId)) throw new Error(`table ${e.tableId} is enrolled twice: one enrolment file per table`);
    seen.add(e.tableId);
  }
  if (joined.length > MAX_JOINED_TABLES) throw new Error(`a station joins ${MAX_JOINED_TABLES} tables at most (${joined.length} enrolments)`);
  const device = deviceEnrolmentOf(o.enrolment, o.deviceEnrolment);
  const agents = joined.map((e) => pinnedAgent(e));
  const agent = device === o.enrolment ? agents[0]! : pinnedAgent(device);
  if (agent !== agents[0]) agents.push(agent);
  const link = {
    enrolment: device,
    spec: o.billAcceptor,
    protocol: o.protocol,
    currency: o.currency,
    log: o.log,
    connect: () => pinnedSocket(device, agent, '/station-device'),
    ...(o.sas ? { sas: o.sas } : {}),
  };
  const relay = o.relay ? new ByteRelay(link) : new DeviceRelay(link);
  relay.start();
  const screen =
    o.rendererDir === null
      ? null
      : await startScreenRelay({
          tables: joined.map((e, i) => ({ enrolment: e, connect: () => pinnedSocket(e, agents[i]!, '/ws') })),
          log: o.log,
          rendererDir: o.rendererDir,
          ...(o.screenPort !== undefined ? { port: o.screenPort } : {}),
        });
  return {
    relay,
    screenUrl: screen?.url ?? null,
    async close() {
      await screen?.close();
      await relay.stop();
      for (const a of agents) a.destroy();
    },
  };
}

/** The device link's enrolment: the home table's, direct (never an edge's), of the same station and table. */
function deviceEnrolmentOf(home: EnrolmentFile, device: EnrolmentFile | undefined): EnrolmentFile {
  if (!device) return directEnrolment(home);
  if (device.station !== home.station || device.tableId !== home.tableId)
    throw new Error(
      `the device enrolment is station ${device.station} of ${device.tableId}, the home enrolment station ${home.station} of ${home.tableId}: one station, one table`,
    );
  return directEnrolment(device);
}
