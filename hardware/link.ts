// Link lifecycle shared by every driver: open a port, run a protocol session on it until the
// link is lost, then reconnect with exponential backoff. An unplug or a dropped TCP connection is
// treated like a power cut of the device: the next session starts with the protocol's
// power-up/sync sequence and resolves whatever was in flight.
import { HeldBackoff } from '../engine/backoff.js';
import { elapsedOf, listenerFault, realClock, sleep, type Clock } from './clock.js';
import type { BytePort, PortOpener } from './transport/byte-port.js';
import type { FrameTap } from './wire-frame.js';

export class LinkLostError extends Error {
  constructor(message = 'link lost') {
    super(message);
    this.name = 'LinkLostError';
  }
}

export interface LinkOptions {
  clock?: Clock;
  /** First reconnect delay; doubles per failed attempt up to reconnectMaxMs. It starts over after a session that stayed up reconnectMaxMs. */
  reconnectBaseMs?: number;
  reconnectMaxMs?: number;
}

export interface LinkHooks {
  /** Runs the protocol on an open port; resolves or throws when the link is gone. */
  session(port: BytePort, signal: AbortSignal): Promise<void>;
  /**
   * The link is down (once per outage, including a device absent at start): `reason` the error's
   * English (or "link lost" for a session that ended), `cause` what was thrown, if anything, for a
   * driver that says its causes by code (hardware/sas/link.ts).
   */
  down(reason: string, cause?: unknown): void;
  /** The first successful exchange after open: `again` is false the very first time. */
  up(again: boolean): void;
}

export class Link {
  readonly clock: Clock;
  private readonly abort = new AbortController();
  private running: Promise<void> | null = null;
  /**
   * The reconnect waits, which start over only after a session that stayed up as long as the
   * longest wait: a device that answers once per connection and drops it (or a flood that ends
   * each session) was reconnected every base delay, each outage reported (a review: a printer
   * flapping offline journalled a raise and a clear per reconnect). No jitter: a device's link is
   * its own, no crowd of links comes back with it, and a fuzz campaign on virtual time replays the
   * same waits.
   */
  private readonly waits: HeldBackoff;
  private isDown = false;
  private everUp = false;
  private port: BytePort | null = null;
  private backoff: AbortController | null = null;

  constructor(
    private readonly opener: PortOpener,
    private readonly hooks: LinkHooks,
    options: LinkOptions = {},
  ) {
    this.clock = options.clock ?? realClock;
    const capMs = options.reconnectMaxMs ?? 10_000;
    this.waits = new HeldBackoff({ baseMs: options.reconnectBaseMs ?? 250, capMs }, capMs);
  }

  get signal(): AbortSignal {
    return this.abort.signal;
  }

  get stopped(): boolean {
    return this.abort.signal.aborted;
  }

  start(): void {
    // Nothing is expected to reach here (the hooks' throws are caught in the loop); whatever does
    // is told, never left an unhandled rejection that ends the process.
    this.running ??= this.loop().catch(listenerFault);
  }

  /** Called by the session once the device has answered. */
  markUp(): void {
    this.waits.up(elapsedOf(this.clock));
    if (!this.everUp || this.isDown) {
      const again = this.everUp;
      this.everUp = true;
      this.isDown = false;
      this.hooks.up(again);
    }
  }

  /** Cuts a reconnect backoff short (e.g. the awaited USB device was just plugged in). */
  wake(): void {
    this.backoff?.abort();
  }

  /** Closes the current port (the session then ends as if the link had dropped). */
  async dropPort(): Promise<void> {
    await this.port?.close();
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      let reason = 'link lost';
      let cause: unknown = undefined;
      try {
        this.port = await this.opener();
        // Stopped while the port was being opened: the stop's abort has come and gone, and a
        // session would wait for it forever (the finally closes the port).
        if (this.stopped) break;
        await this.hooks.session(this.port, this.abort.signal);
      } catch (e) {
        cause = e;
        reason = e instanceof Error ? e.message : String(e);
      } finally {
        const p = this.port;
        this.port = null;
        await p?.close().catch(() => undefined);
      }
      if (this.stopped) break;
      const wait = this.waits.next(elapsedOf(this.clock));
      // Reported once per outage, and also when the device was absent from the start.
      if (!this.isDown) {
        this.isDown = true;
        // Outside the try above: a throw here (a fault's raise the journal refused) ended the loop,
        // the port never opened again, and its promise rejected unhandled (a review of 2 December).
        try {
          this.hooks.down(reason, cause);
        } catch (e) {
          listenerFault(e);
        }
      }
      this.backoff = new AbortController();
      const stop = (): void => this.backoff?.abort();
      this.abort.signal.addEventListener('abort', stop, { once: true });
      await sleep(this.clock, wait, this.backoff.signal);
      this.abort.signal.removeEventListener('abort', stop);
      this.backoff = null;
    }
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.port?.close().catch(() => undefined);
    await this.running;
  }
}

/**
 * Frames a channel holds for its driver before the device is taken for a flood: far more than any
 * protocol here has in flight (a shoe's unacknowledged queue, resent whole, is tens), far less than
 * a device sending as fast as its wire carries fills while a journal write waits (a review: 200,000
 * copies of one frame held 84 MB).
 */
export const MAX_FRAMES_WAITING = 1024;

/** Turns a port's byte stream into frames through a parser, with a timed `next()`. */
export class FrameChannel<F> {
  private queue: F[] = [];
  /** Frames dropped when the device sent past MAX_FRAMES_WAITING (the session then ends as a flood). */
  flooded = 0;
  private waiter: ((f: F | null) => void) | null = null;
  private lostError: Error | null = null;
  private readonly offData: () => void;
  private readonly offClose: () => void;

  constructor(
    readonly port: BytePort,
    private readonly parse: (bytes: Uint8Array) => F[],
    private readonly clock: Clock,
    /** Sees every frame written and every valid frame parsed (a diagnostic trace); never alters them. */
    private readonly tap?: FrameTap<F>,
  ) {
    this.offData = port.onData((b) => {
      if (this.lostError) return;
      for (const f of this.parse(b)) {
        if (this.queue.length >= MAX_FRAMES_WAITING) {
          this.floodedBy();
          break;
        }
        this.observe(() => this.tap?.rx(f));
        this.queue.push(f);
      }
      this.flush();
    });
    this.offClose = port.onClose((e) => {
      this.lostError = new LinkLostError(e?.message ?? 'port closed');
      this.flush();
    });
  }

  /**
   * More frames than a driver can have waiting: the device floods (or the driver is stuck behind a
   * journal write that will not end). What is queued is dropped and the session ends; the link
   * reconnects with its backoff, and a device with sequence numbers resends what was not
   * acknowledged.
   */
  private floodedBy(): void {
    this.flooded = this.queue.length + 1;
    this.queue = [];
    this.lostError = new LinkLostError(`flood: ${this.flooded} frames waiting, more than ${MAX_FRAMES_WAITING}`);
    this.flush();
  }

  private flush(): void {
    const w = this.waiter;
    if (!w) return;
    if (this.queue.length > 0) {
      this.waiter = null;
      w(this.queue.shift() as F);
    } else if (this.lostError) {
      this.waiter = null;
      w(null);
    }
  }

  /** Frames that arrived and were not yet taken (late replies to an earlier request), oldest first. */
  pending(): readonly F[] {
    return this.queue;
  }

  /** Drops frames that arrived before a new request (late replies to an earlier one); how many. */
  clear(): number {
    const n = this.queue.length;
    this.queue = [];
    return n;
  }

  /** The next frame, or null after timeoutMs. Throws LinkLostError once the port is gone. */
  async next(timeoutMs: number): Promise<F | null> {
    if (this.queue.length > 0) return this.queue.shift() as F;
    if (this.lostError) throw this.lostError;
    const f = await new Promise<F | null>((resolve) => {
      const h = this.clock.setTimeout(() => {
        this.waiter = null;
        resolve(null);
      }, timeoutMs);
      this.waiter = (x) => {
        this.clock.clearTimeout(h);
        resolve(x);
      };
    });
    if (f === null && this.lostError) throw this.lostError;
    return f;
  }

  async write(bytes: Uint8Array): Promise<void> {
    if (this.lostError) throw this.lostError;
    try {
      await this.port.write(bytes);
    } catch (e) {
      throw new LinkLostError(e instanceof Error ? e.message : String(e));
    }
    this.observe(() => this.tap?.tx(bytes));
  }

  /** A trace's bug must never stop the device's loop. */
  private observe(f: () => void): void {
    try {
      f();
    } catch {
      // The trace misses one frame; the device goes on.
    }
  }

  dispose(): void {
    this.offData();
    this.offClose();
  }
}
