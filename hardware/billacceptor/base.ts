// What both bill-acceptor drivers share: the note in flight, credit exactly once per escrow cycle,
// the escrow decision with its timeout, and the link lifecycle.
import { randomUUID } from 'node:crypto';
import { Emitter, realClock, type Clock } from '../clock.js';
import { Link } from '../link.js';
import type { BytePort, PortOpener } from '../transport/byte-port.js';
import type { WireFrame } from '../wire-frame.js';
import { NOTE_FACE_VALUES, minorUnits, type Currency } from './notes.js';
import type { BillAcceptor, BillAcceptorEvent, BillAcceptorOptions, Credit, EscrowDecision, EscrowedNote, Note } from './types.js';

export type NotePhase = 'escrow' | 'stack-sent' | 'credited';

export interface InFlight {
  note: EscrowedNote;
  phase: NotePhase;
}

export abstract class BillAcceptorBase implements BillAcceptor {
  abstract readonly protocol: 'id003' | 'ssp';
  readonly currency: Currency;
  protected readonly events = new Emitter<BillAcceptorEvent>();
  protected readonly link: Link;
  protected readonly clock: Clock;
  protected accepted: Set<number>;
  protected wantEnabled: boolean;
  protected current: InFlight | null = null;
  /** Escrow ids already credited (bounded): a replayed credit report never credits twice. */
  private creditedIds: string[] = [];
  protected readonly opts: Required<Pick<BillAcceptorOptions, 'escrowTimeoutMs' | 'pollIntervalMs' | 'replyTimeoutMs' | 'retries'>> & BillAcceptorOptions;

  constructor(opener: PortOpener, options: BillAcceptorOptions, defaults: { pollIntervalMs: number; replyTimeoutMs: number; escrowTimeoutMs: number }) {
    this.currency = options.currency;
    this.clock = options.clock ?? realClock;
    this.opts = { retries: 3, ...defaults, ...options };
    this.accepted = new Set(options.accept ?? NOTE_FACE_VALUES[options.currency]);
    this.wantEnabled = options.enabled ?? false;
    if (options.pendingNote) this.current = { note: options.pendingNote, phase: options.pendingNote.stackSent ? 'stack-sent' : 'escrow' };
    this.link = new Link(
      opener,
      {
        session: (port, signal) => this.session(port, signal),
        down: (reason) => this.emit({ type: 'disconnected', reason }),
        up: (again) => {
          if (again) this.emit({ type: 'reconnected' });
        },
      },
      { clock: this.clock, reconnectBaseMs: options.reconnectBaseMs, reconnectMaxMs: options.reconnectMaxMs },
    );
  }

  protected abstract session(port: BytePort, signal: AbortSignal): Promise<void>;

  on(listener: (e: BillAcceptorEvent) => void): () => void {
    return this.events.on(listener);
  }

  /** A listener's error never reaches the device loop (Emitter). */
  private readonly frames = new Emitter<WireFrame>();

  /** Every frame on the wire, hex and decoded (service mode's trace). */
  onFrame(listener: (f: WireFrame) => void): () => void {
    return this.frames.on(listener);
  }

  protected frame(f: WireFrame): void {
    this.frames.emit(f);
  }

  protected emit(e: BillAcceptorEvent): void {
    this.events.emit(e);
  }

  start(): void {
    this.link.start();
  }

  /** Reconnect now instead of waiting out the backoff (hot-plug). */
  wake(): void {
    this.link.wake();
  }

  enable(): void {
    this.wantEnabled = true;
  }

  disable(): void {
    this.wantEnabled = false;
  }

  setAccepted(denominations: readonly number[]): void {
    this.accepted = new Set(denominations);
    this.settingsChanged();
  }

  /** Subclasses re-send denomination inhibits when this is called. */
  protected settingsChanged(): void {}

  async close(): Promise<void> {
    await this.link.stop();
  }

  protected newNote(n: Note): EscrowedNote {
    return { ...n, escrowId: randomUUID() };
  }

  protected noteFor(code: number, denomination: number): Note {
    return { denomination, amount: minorUnits(denomination), currency: this.currency, code };
  }

  /** Asks the host (journal first) whether to stack; returns 'return' on timeout. */
  protected async decide(note: EscrowedNote): Promise<{ decision: EscrowDecision; timedOut: boolean }> {
    if (!this.accepted.has(note.denomination)) return { decision: 'return', timedOut: false };
    const ask = this.opts.onEscrow;
    if (!ask) return { decision: 'stack', timedOut: false };
    let timer: unknown;
    const timeout = new Promise<'timeout'>((r) => {
      timer = this.clock.setTimeout(() => r('timeout'), this.opts.escrowTimeoutMs);
    });
    try {
      const d = await Promise.race([Promise.resolve().then(() => ask(note)), timeout]);
      if (d === 'timeout') return { decision: 'return', timedOut: true };
      return { decision: d === 'stack' ? 'stack' : 'return', timedOut: false };
    } catch (e) {
      this.emit({ type: 'failure', reason: `escrow decision failed: ${e instanceof Error ? e.message : String(e)}` });
      return { decision: 'return', timedOut: false };
    } finally {
      this.clock.clearTimeout(timer);
    }
  }

  protected wasCredited(escrowId: string): boolean {
    return this.creditedIds.includes(escrowId);
  }

  /**
   * Credits the note once. Resolves true when the credit is journalled (now or before), false if
   * the host's callback failed: the caller must then NOT acknowledge the device, so the credit
   * report repeats and is retried.
   */
  protected async creditOnce(flight: InFlight, recovered: boolean): Promise<boolean> {
    if (flight.phase === 'credited' || this.wasCredited(flight.note.escrowId)) {
      flight.phase = 'credited';
      return true;
    }
    const n = flight.note;
    const credit: Credit = { escrowId: n.escrowId, amount: n.amount, currency: n.currency, denomination: n.denomination, recovered };
    try {
      await this.opts.onCredit?.(credit);
    } catch (e) {
      this.emit({ type: 'failure', reason: `credit callback failed, device not acknowledged: ${e instanceof Error ? e.message : String(e)}` });
      return false;
    }
    flight.phase = 'credited';
    this.creditedIds.push(n.escrowId);
    if (this.creditedIds.length > 64) this.creditedIds.shift();
    this.emit({ type: 'credit', ...credit });
    return true;
  }
}
