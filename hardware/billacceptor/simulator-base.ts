// What the byte-level bill-acceptor simulators share (id003/simulator.ts, ssp/simulator.ts): over
// a powered device's mains, wire faults and frames kept (sim/powered-device.ts, the printer's too),
// the queue of notes a customer holds out and the one in the path, and where notes end (cashbox,
// back to the customer, stuck in a jam). The protocol's own states, byte framing and reports stay
// in each simulator: its `handle` of a frame, its step of the path.
import { PoweredDevice } from '../sim/powered-device.js';
import type { ReceivedOptions } from '../sim/recent.js';
import type { LineSettings } from '../transport/byte-port.js';
import type { Currency } from './notes.js';
import type { BillStep, NoteInPath } from './sim-controls.js';

/** A note (or ticket) as a simulator carries it: at least its face value (0 for a ticket). */
export interface SimNote {
  denomination: number;
}

export abstract class BillSimulatorBase<Note extends SimNote, Frame> extends PoweredDevice<BillStep, Frame> {
  abstract readonly protocol: 'id003' | 'ssp';
  readonly line: LineSettings;
  readonly currency: Currency;
  /** The note in the path, and those the customer still holds out, in order. */
  protected note: Note | null = null;
  protected queue: Note[] = [];
  /** Notes drawn into the path so far (NoteInPath's `serial`). */
  protected notesTaken = 0;
  protected readonly cash: number[] = [];
  protected readonly back: number[] = [];
  protected readonly stuck: number[] = [];

  constructor(options: { currency?: Currency | undefined; line?: LineSettings | undefined } & ReceivedOptions, defaultLine: LineSettings) {
    super(options);
    this.currency = options.currency ?? 'HKD';
    this.line = options.line ?? defaultLine;
  }

  /** How far the note in the path went, and the code it is reported by. */
  protected abstract pathOf(note: Note): { stage: NoteInPath['stage']; code: number };

  /** Face values now in the cashbox (what the casino will count). */
  get cashbox(): readonly number[] {
    return this.cash;
  }
  get returned(): readonly number[] {
    return this.back;
  }
  get jammed(): readonly number[] {
    return this.stuck;
  }

  /** A note in the path or still waiting to be drawn in. */
  get busy(): boolean {
    return this.note !== null || this.queue.length > 0;
  }

  /**
   * The note in the path and how far it went (for a test's or the fuzz's hostile wrapper, which
   * must know what is true to tell a lie from it). `serial` counts notes taken in.
   */
  get inPath(): NoteInPath | null {
    const n = this.note;
    if (!n) return null;
    return { serial: this.notesTaken, denomination: n.denomination, ...this.pathOf(n) };
  }

  /** The customer's next note drawn into the path; false when none waits. */
  protected drawNext(): boolean {
    const next = this.queue.shift();
    if (!next) return false;
    this.note = next;
    this.notesTaken++;
    return true;
  }
}
