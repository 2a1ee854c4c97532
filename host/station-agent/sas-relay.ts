import type { Logger } from 'pino';
import { realClock, type Clock } from '../../hardware/clock.js';
import { sasOpener } from '../../hardware/sas/link.js';
import type { PortOpener } from '../../hardware/transport/byte-port.js';
import type { AgentMessage, HostDeviceMessage } from '../../protocol/index.js';
import { PortRelay, type PortWords } from './port-relay.js';

const SAS_PORT: PortWords = {
  port: (open, detail) => (detail === undefined ? { type: 'sas-port', open } : { type: 'sas-port', open, detail }),
  bytes: (data) => ({ type: 'sas-bytes', data }),
  name: 'sas',
  openFailed: "the station's SAS port did not open",
  writeFailed: 'write to the SAS port failed',
};

/**
 * The station's SAS link carried by its agent (docs/sas.md, "Remote stations"), as the acceptor's
 * bytes are (byte-relay.ts; both a PortRelay): the agent opens the station's own SAS port
 * (`serial:PATH` or `tcp:HOST:PORT`) once the table host has greeted the link and said it runs the
 * station's SAS machine (`device-welcome` with `sas`), and carries its bytes both ways unread. The
 * port is kept across the link's drops; one that goes is opened again with backoff and the host is
 * told (the backoff starts over only after a port that held open, PORT_HELD_MS).
 */
export class SasRelay {
  private readonly relay: PortRelay;

  constructor(spec: string, send: (m: AgentMessage) => void, log: Logger, opener?: PortOpener, clock: Clock = realClock) {
    this.relay = new PortRelay(opener ?? sasOpener(spec), send, log, clock, SAS_PORT);
  }

  /** A message from the host; whether it was the SAS relay's. */
  receive(m: HostDeviceMessage): boolean {
    if (m.type === 'device-welcome') {
      if (m.sas === true) this.relay.welcome();
      return false; // the acceptor's relay reads the welcome too
    }
    if (m.type !== 'sas-bytes') return false;
    this.relay.write(m.data);
    return true;
  }

  /** Resolves once an open in flight has settled (at most `OPEN_WAIT_MS`) and the port is closed; nothing is sent nor armed after it. */
  stop(): Promise<void> {
    return this.relay.stop();
  }
}
