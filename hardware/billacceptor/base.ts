// What both bill-acceptor drivers share: the note cycle (note-phase.ts), credit exactly once per
// escrow cycle and only for a note the host told to stack, the escrow decision with its timeout,
// violations, and the link lifecycle.
import { randomUUID } from 'node:crypto';
import { Emitter, realClock, type Clock } from '../clock.js';
import { Link } from '../link.js';
import type { BytePort, PortOpener } from '../transport/byte-port.js';
import type { WireFrame } from '../wire-frame.js';
import { NOTE_FACE_VALUES, minorUnits, type Currency } from './notes.js';
import { IDLE, type NoteCycle, type Phase } from './note-phase.js';
import type { BillAcceptor, BillAcceptorEvent, BillAcceptorOptions, Credit, EscrowDecision, EscrowedNote, Note, ViolationRule } from './types.js';

export abstract class BillAcceptorBase implements BillAcceptor {
  abstract readonly protocol: 'id003' | 'ssp';
  readonly currency: Currency;
  protected readonly events = new Emitter<BillAcceptorEvent>();
  protected readonly link: Link;
  protected readonly clock: Clock;
  protected accepted: Set<number>;
  protected wantEnabled: boolean;
  /** The note cycle as the host has seen and commanded it; moved only through the protocol's table. */
  protected cycle: NoteCycle = IDLE;
  /** Escrow ids already credited (bounded): a replayed credit report never credits twice. */
  private creditedIds: string[] = [];
  /** `options.lastCredit` until the unit's first report that is not a credit report. */
  private creditBeforeStart: EscrowedNote | null = null;
  protected readonly opts: Required<Pick<BillAcceptorOptions, 'escrowTimeoutMs' | 'pollIntervalMs' | 'replyTimeoutMs' | 'retries' | 'stackTimeoutMs'>> &
    BillAcceptorOptions;

  constructor(
    opener: PortOpener,
    options: BillAcceptorOptions,
    defaults: { pollIntervalMs: number; replyTimeoutMs: number; escrowTimeoutMs: number; stackTimeoutMs: number },
  ) {
    this.currency = options.currency;
    this.clock = options.clock ?? realClock;
    this.opts = { retries: 3, ...defaults, ...options };
    this.accepted = new Set(options.accept ?? NOTE_FACE_VALUES[options.currency]);
    this.wantEnabled = options.enabled ?? false;
    if (options.pendingNote) {
      const { stackSent, ...note } = options.pendingNote;
      this.cycle = { phase: stackSent ? 'stack-sent' : 'escrow', note, returnEmitted: false };
    } else if (options.lastCredit) {
      this.creditBeforeStart = options.lastCredit;
      this.creditedIds.push(options.lastCredit.escrowId);
    }
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

  /** A frame for the trace, built only while someone listens (hex and meaning cost more than the exchange itself). */
  protected frame(make: () => WireFrame): void {
    if (this.frames.listened) this.frames.emit(make());
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

  /**
   * The note a credit report with no note in the cycle is, when it is the unit still repeating the
   * credit the host journalled before it restarted (`lastCredit`): it is then acknowledged and
   * credits nothing. Only among the unit's first reports: the first other report ends it, and a credit
   * report out of nowhere after that is a violation again.
   */
  protected repeatsCreditBeforeStart(isCreditReport: boolean): EscrowedNote | null {
    if (!isCreditReport) this.creditBeforeStart = null;
    return isCreditReport && this.cycle.phase === 'idle' ? this.creditBeforeStart : null;
  }

  protected wasCredited(escrowId: string): boolean {
    return this.creditedIds.includes(escrowId);
  }

  /** The last note credited, until another is escrowed: a credit out of nowhere after it is named a repeat of it. */
  private lastCredited: EscrowedNote | null = null;

  /** Moves the cycle to a phase, keeping its note. */
  protected enter(phase: Phase, note: EscrowedNote | null = this.cycle.note, returnEmitted = this.cycle.returnEmitted): void {
    if (phase === 'idle' && this.cycle.phase === 'credited') this.lastCredited = this.cycle.note;
    if (phase === 'escrow') this.lastCredited = null;
    this.cycle = phase === 'idle' ? IDLE : { phase, note, returnEmitted };
  }

  /** The device broke its protocol: say so, credit nothing, and hold the cycle in dispute until the device is idle. */
  protected violation(rule: ViolationRule, report: string): void {
    const repeat = rule === 'credit-without-escrow' && this.cycle.phase === 'idle' ? this.lastCredited : null;
    const note = repeat ?? this.cycle.note;
    this.emit({ type: 'protocolViolation', rule: repeat ? 'credit-repeated' : rule, report, ...(note ? { note } : {}) });
    this.cycle = { phase: 'disputed', note: this.cycle.note, returnEmitted: this.cycle.returnEmitted };
  }

  /** The note of the cycle went back to the customer: said once per note. */
  protected noteReturned(reason: Extract<BillAcceptorEvent, { type: 'returned' }>['reason']): void {
    const { note, returnEmitted } = this.cycle;
    if (note && !returnEmitted) this.emit({ type: 'returned', note, reason });
    this.cycle = { ...this.cycle, returnEmitted: true };
  }

  /**
   * Credits the note of the cycle once. Only a note the host told to stack is credited: the
   * transition tables call this from `stack-sent` alone, and anything else credits nothing here
   * either. Resolves true when the credit is journalled (now or before), false if the host's
   * callback failed: the caller must then NOT acknowledge the device, so the credit report
   * repeats and is retried.
   */
  protected async creditOnce(recovered: boolean): Promise<boolean> {
    const { phase, note: n } = this.cycle;
    if (!n) return true;
    if (phase === 'credited' || this.wasCredited(n.escrowId)) {
      this.enter('credited');
      return true;
    }
    if (phase !== 'stack-sent') return true;
    const credit: Credit = { escrowId: n.escrowId, amount: n.amount, currency: n.currency, denomination: n.denomination, recovered };
    try {
      await this.opts.onCredit?.(credit);
    } catch (e) {
      this.emit({ type: 'failure', reason: `credit callback failed, device not acknowledged: ${e instanceof Error ? e.message : String(e)}` });
      return false;
    }
    // The cycle may have moved while the host journalled (it never does: reports are handled one at a time).
    if (this.cycle.note?.escrowId === n.escrowId) this.enter('credited');
    this.creditedIds.push(n.escrowId);
    if (this.creditedIds.length > 64) this.creditedIds.shift();
    this.emit({ type: 'credit', ...credit });
    return true;
  }
}
