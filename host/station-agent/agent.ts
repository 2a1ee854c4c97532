import type { Logger } from 'pino';
import type { Currency } from '../../hardware/billacceptor/notes.js';
import type { EnrolmentFile } from '../stadium/enrolment-file.js';
import { ByteRelay } from './byte-relay.js';
import { DeviceRelay } from './device-relay.js';
import { pinnedAgent, pinnedSocket } from './pinned-socket.js';
import { startScreenRelay } from './screen-relay.js';

export interface StationAgentOptions {
  enrolment: EnrolmentFile;
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
}

export interface RunningAgent {
  relay: DeviceRelay | ByteRelay;
  /** The station screen's local URL, with its launch token (null without a screen). */
  screenUrl: string | null;
  close(): Promise<void>;
}

/**
 * A remote station's agent, on the station's own machine: it drives the station's bill acceptor
 * with the hardware layer and relays its money decisions to the table (DeviceRelay), and serves
 * the station's screen to the browser on this machine, relayed to the table under the station's
 * credential (startScreenRelay). Every link to the table is TLS to the pinned certificate.
 */
export async function startStationAgent(o: StationAgentOptions): Promise<RunningAgent> {
  const agent = pinnedAgent(o.enrolment);
  const link = {
    enrolment: o.enrolment,
    spec: o.billAcceptor,
    protocol: o.protocol,
    currency: o.currency,
    log: o.log,
    connect: () => pinnedSocket(o.enrolment, agent, '/station-device'),
  };
  const relay = o.relay ? new ByteRelay(link) : new DeviceRelay(link);
  relay.start();
  const screen =
    o.rendererDir === null
      ? null
      : await startScreenRelay({
          enrolment: o.enrolment,
          log: o.log,
          rendererDir: o.rendererDir,
          connect: () => pinnedSocket(o.enrolment, agent, '/ws'),
          ...(o.screenPort !== undefined ? { port: o.screenPort } : {}),
        });
  return {
    relay,
    screenUrl: screen?.url ?? null,
    async close() {
      await screen?.close();
      await relay.stop();
      agent.destroy();
    },
  };
}
