import { Emitter, realClock, type Clock } from '../clock.js';
import { Link } from '../link.js';
import type { BytePort, PortOpener } from '../transport/byte-port.js';
import type { WireFrame } from '../wire-frame.js';
import type { SequencedShoeEvent, ShoeDevice, ShoeEvent, ShoeOptions } from './types.js';

/** Link lifecycle and delivery (journal first, then emit) shared by both shoe adapters. */
export abstract class ShoeBase implements ShoeDevice {
  abstract readonly protocol: 'framed' | 'ascii';
  protected readonly events = new Emitter<ShoeEvent>();
  protected readonly link: Link;
  protected readonly clock: Clock;

  constructor(
    opener: PortOpener,
    protected readonly opts: ShoeOptions,
  ) {
    this.clock = opts.clock ?? realClock;
    this.link = new Link(
      opener,
      {
        session: (port, signal) => this.session(port, signal),
        down: (reason) => this.events.emit({ type: 'disconnected', reason }),
        up: (again) => {
          if (again) this.events.emit({ type: 'reconnected' });
        },
      },
      { clock: this.clock, reconnectBaseMs: opts.reconnectBaseMs, reconnectMaxMs: opts.reconnectMaxMs },
    );
  }

  protected abstract session(port: BytePort, signal: AbortSignal): Promise<void>;

  on(listener: (e: ShoeEvent) => void): () => void {
    return this.events.on(listener);
  }

  /** A listener's error never reaches the device loop (Emitter). */
  private readonly frames = new Emitter<WireFrame>();

  /** Every frame on the wire, hex and decoded (service mode's trace). */
  onFrame(listener: (f: WireFrame) => void): () => void {
    return this.frames.on(listener);
  }

  /** Whether anyone listens to the trace: a frame is built (hex, meaning) only then. */
  protected get tracing(): boolean {
    return this.frames.listened;
  }

  protected frame(f: WireFrame): void {
    this.frames.emit(f);
  }

  start(): void {
    this.link.start();
  }

  /** Reconnect now instead of waiting out the backoff (hot-plug). */
  wake(): void {
    this.link.wake();
  }

  async close(): Promise<void> {
    await this.link.stop();
  }

  abstract lock(): Promise<boolean>;
  abstract unlock(): Promise<boolean>;
  abstract setBurnMode(on: boolean): Promise<boolean>;

  /** Hands an event to the host's journal, then to listeners. False if the journal refused it. */
  protected async deliver(e: SequencedShoeEvent): Promise<boolean> {
    try {
      await this.opts.onEvent?.(e);
    } catch (err) {
      this.events.emit({ type: 'warning', text: `event ${e.sequence} not journalled: ${err instanceof Error ? err.message : String(err)}` });
      return false;
    }
    this.events.emit(e);
    return true;
  }
}
