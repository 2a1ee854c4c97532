// A station's SAS machine on a link the operating system or the network gives it: `uart:PATH` (a
// real UART, the ninth bit by stick parity: uart.ts), `serial:PATH` (a pty, or any tty that carries
// the fallback stream as bytes) or `tcp:HOST:PORT` (a terminal server that carries the fallback
// stream). All three carry the same stream to and from the machine (wire.ts). The machine and its exception queue outlive the port: a
// dropped connection is opened again with the drivers' backoff (hardware/link.ts), and the host
// that comes back finds the exceptions it had not acknowledged.
import { elapsedOf, realClock, type Clock } from '../clock.js';
import { Link } from '../link.js';
import type { BytePort, LineSettings, PortOpener } from '../transport/byte-port.js';
import { SerialBytePort } from '../transport/serial.js';
import { SERIAL_PATH, parseSpec } from '../transport/spec.js';
import { TcpPort } from '../transport/tcp.js';
import { SasMachine, type SasMachineOptions } from './machine.js';
import { openSasUart } from './uart.js';
import { SasUartError, type SasUartFault } from './uart-stty.js';
import { WakeupDecoder, encodeWire } from './wire.js';

/** SAS's line (§1.2) on a `serial:` link: 19,200 baud, 8 data bits; the ninth bit is the fallback stream's escapes (wire.ts), not parity (a `uart:` link's is: uart-stty.ts). */
export const LINE_SAS: LineSettings = { baudRate: 19_200, dataBits: 8, parity: 'none', stopBits: 1 };

/** The opener of a SAS link spec: `uart:PATH`, `serial:PATH` or `tcp:HOST:PORT`. */
export function sasOpener(spec: string): PortOpener {
  if (spec.startsWith('uart:')) {
    const path = spec.slice(5);
    if (!SERIAL_PATH.test(path)) throw new Error(`bad SAS link "${spec}": expected uart:PATH with an absolute device path such as uart:/dev/ttyS4`);
    return () => openSasUart(path);
  }
  const s = parseSpec(spec);
  if (s.kind === 'serial') return () => SerialBytePort.open(s.path, LINE_SAS);
  if (s.kind === 'tcp') return () => TcpPort.open(s.host, s.port);
  throw new Error(`a SAS link is uart:PATH, serial:PATH or tcp:HOST:PORT, not "${spec}"`);
}

/**
 * The inter-byte limit (§2.3: more than 5 ms between two bytes of a poll makes it invalid) as the
 * machine can apply it: to the times the bytes reach this process, not the wire's. A process held
 * between two reads of one poll (a journal commit, a collection: tens of ms on a loaded host), or a
 * terminal server's or an agent's relay between two packets, puts a pause between bytes the host
 * sent back to back; taken as the host's, it dropped good polls. So the allowance is what the path
 * adds: 50 ms on a local line, 250 ms over the network. Nothing rests on the tighter figure: every
 * poll begins with a wake-up character, which drops a message cut short whatever the time, and a
 * message joined across a real stop must still end in its CRC.
 */
export function interByteLimitMs(spec: string): number {
  return spec === 'agent' || spec.startsWith('tcp:') ? 250 : 50;
}

/**
 * The bytes a SAS link takes from its port, at most: twice what a SAS line carries (§1.2: 19,200
 * baud, 11-bit characters, 1,746 a second, each up to 3 bytes in the fallback stream: a character
 * with the wake-up bit is FF 00 b, wire.ts), after a burst of two seconds of it. A real UART cannot
 * pass it; a `tcp:` terminal server or a pty's far end could send without end, and every poll was
 * decoded, answered and written: a host flooding polls held the table host's event loop (0.5–2 s
 * late at every turn, measured on 6 December) for as long as it liked. Bytes past it are dropped
 * and counted (`overBudget`), as line noise: the next wake-up character starts afresh; a peer that
 * keeps on is cut off (`FLOOD_CUT`). A relayed
 * line is held to its own budget before it gets here (host/server/lan-server.ts, RELAYED_BYTE_LIMITS).
 */
export const SAS_LINE_BYTES = { burst: 4 * 3 * 1_746, perSecond: 2 * 3 * 1_746 } as const;

/**
 * A peer that goes on sending past the budget, more than another burst's worth of bytes dropped
 * with no chunk taken whole between them, is cut off: the session ends as a lost port (its reason
 * told through `onPortDown`: host/start/sas-links.ts logs it), and the link opens it again after
 * its backoff, which grows while each connection floods (hardware/link.ts). An honest line never
 * comes near it (twice its rate, after a burst of two seconds of it); before, the flooding peer
 * kept its connection, every chunk still read, and nothing said why the polls went unanswered.
 */
export const FLOOD_CUT = SAS_LINE_BYTES.burst;

/** A byte budget on the link's clock: `take(n)` gives how many of `n` bytes it takes now. */
class ByteBudget {
  private tokens: number = SAS_LINE_BYTES.burst;
  private at: number;

  constructor(private readonly clock: Clock) {
    this.at = elapsedOf(clock);
  }

  take(n: number): number {
    const now = elapsedOf(this.clock);
    this.tokens = Math.min(SAS_LINE_BYTES.burst, this.tokens + (Math.max(0, now - this.at) * SAS_LINE_BYTES.perSecond) / 1000);
    this.at = now;
    const taken = Math.min(n, Math.floor(this.tokens));
    this.tokens -= taken;
    return taken;
  }
}

export interface SasLinkOptions extends Omit<SasMachineOptions, 'write'> {
  reconnectBaseMs?: number;
  reconnectMaxMs?: number;
  /** The port would not open (or configure), or was lost: once per outage, with its cause. */
  onPortDown?: (problem: SasPortProblem) => void;
  /** The port is open again after `onPortDown`. */
  onPortUp?: () => void;
  /**
   * Bytes of a chunk dropped past the line's budget (`SAS_LINE_BYTES`), with the link's total since
   * it opened: the host's polls in them go unanswered, which the technician must be told (sas-links.ts logs it).
   */
  onOverBudget?: (dropped: number, total: number) => void;
}

/**
 * Why a SAS port is down, by code: a `uart:` line's (`SasUartFault`: it would not open, is no
 * terminal, its driver refused a setting, stty missing, failed or hung, the line lost), a peer cut
 * off for sending faster than a SAS line carries (`flood`), a port that closed (`lost`); a
 * `serial:` or `tcp:` port that would not open is `open`. The fault says it by this code in the
 * reader's language (host/start/sas-links.ts, `sasPortWhy.*`); the English is the log's.
 */
export type SasPortWhy = SasUartFault | 'flood';

/** A port down: its cause, and the English that reported it (the operating system's, the driver's, ours), for the log only. */
export interface SasPortProblem {
  why: SasPortWhy;
  report: string;
}

/** The peer sent past the line's budget for longer than a burst (`FLOOD_CUT`): its session ends as a lost port. */
class SasFloodError extends Error {
  constructor(unabated: number) {
    super(`the peer sent faster than a SAS line carries (${unabated} bytes past the budget): connection closed`);
    this.name = 'SasFloodError';
  }
}

/** The code of what ended a session or kept a port from opening (`Link`'s cause: nothing for a port that closed). */
function portWhy(cause: unknown): SasPortWhy {
  if (cause instanceof SasUartError) return cause.fault;
  if (cause instanceof SasFloodError) return 'flood';
  // A session ends without a throw when its port closes; anything else thrown came from the opener.
  return cause === undefined ? 'lost' : 'open';
}

export class SasLink {
  readonly machine: SasMachine;
  private readonly link: Link;
  private port: BytePort | null = null;
  private problem: SasPortProblem | null = null;
  private framing = 0;
  private decoder: WakeupDecoder | null = null;
  private readonly hooks: Pick<SasLinkOptions, 'onPortDown' | 'onPortUp' | 'onOverBudget'>;
  private readonly budget: ByteBudget;
  private dropped = 0;

  constructor(opener: PortOpener, options: SasLinkOptions) {
    const clock: Clock = options.clock ?? realClock;
    this.hooks = options;
    this.budget = new ByteBudget(clock);
    this.machine = new SasMachine({ ...options, clock, write: (bytes, wake) => this.write(bytes, wake) });
    this.link = new Link(
      opener,
      {
        session: (port, signal) => this.session(port, signal),
        down: (reason, cause) => this.portDown({ why: portWhy(cause), report: reason }),
        up: () => this.portUp(),
      },
      {
        clock,
        reconnectBaseMs: options.reconnectBaseMs ?? 250,
        reconnectMaxMs: options.reconnectMaxMs ?? 5_000,
      },
    );
  }

  private portDown(problem: SasPortProblem): void {
    this.problem = problem;
    this.hooks.onPortDown?.(problem);
  }

  private portUp(): void {
    this.problem = null;
    this.hooks.onPortUp?.();
  }

  /** Why the port is not open (it would not open or configure, or was lost), or null while it is: the technician's reason. */
  get portProblem(): SasPortProblem | null {
    return this.problem;
  }

  /** Received escapes that were not of the encoding (line noise, a malformed PARMRK mark), dropped and counted. */
  get framingErrors(): number {
    return this.framing + (this.decoder?.badEscapes ?? 0);
  }

  /** Received bytes dropped past the line's budget (`SAS_LINE_BYTES`): a peer sending faster than a SAS line carries. */
  get overBudget(): number {
    return this.dropped;
  }

  start(): void {
    this.machine.start();
    this.link.start();
  }

  /** Opens the port now rather than after the reconnect's backoff (a relayed port just came back). */
  wake(): void {
    this.link.wake();
  }

  async close(): Promise<void> {
    this.machine.stop();
    await this.link.stop();
  }

  private write(bytes: Uint8Array, wake: boolean): void {
    // A write that fails is a lost port, which its close reports; the host will poll again.
    this.port?.write(encodeWire(bytes, wake)).catch(() => undefined);
  }

  /** One connection: characters in until the port closes (or we stop). */
  private session(port: BytePort, signal: AbortSignal): Promise<void> {
    const decoder = new WakeupDecoder();
    this.decoder = decoder;
    const sink = (b: number, wake: boolean): void => this.machine.char(b, wake);
    this.port = port;
    this.link.markUp(); // the port is open; whether the host speaks is the machine's link-up
    return new Promise<void>((resolve, reject) => {
      /** Bytes dropped since a chunk was last taken whole: past `FLOOD_CUT`, the peer is cut off. */
      let unabated = 0;
      let ended = false;
      const offData = port.onData((chunk) => {
        if (ended) return;
        const taken = this.budget.take(chunk.length);
        if (taken < chunk.length) {
          this.dropped += chunk.length - taken;
          this.hooks.onOverBudget?.(chunk.length - taken, this.dropped);
        }
        if (taken > 0) decoder.push(taken === chunk.length ? chunk : chunk.subarray(0, taken), sink);
        unabated = taken === chunk.length ? 0 : unabated + chunk.length - taken;
        if (unabated > FLOOD_CUT) end(new SasFloodError(unabated));
      });
      const end = (flood?: Error): void => {
        if (ended) return;
        ended = true;
        this.framing += decoder.badEscapes;
        if (this.decoder === decoder) this.decoder = null;
        offData();
        offClose();
        signal.removeEventListener('abort', done);
        if (this.port === port) this.port = null;
        // A flood ends the session as a lost port (its reason the technician's, onPortDown): the link closes it and opens it again after its backoff.
        if (flood) reject(flood);
        else resolve();
      };
      const done = (): void => end();
      const offClose = port.onClose(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }
}

/** Opens a station's SAS link (`uart:PATH`, `serial:PATH` or `tcp:HOST:PORT`) and starts it. */
export function openSasLink(spec: string, options: SasLinkOptions): SasLink {
  const link = new SasLink(sasOpener(spec), { interByteMs: interByteLimitMs(spec), ...options });
  link.start();
  return link;
}
