// What the byte-level bill-acceptor simulators share (id003/simulator.ts, ssp/simulator.ts): the
// mains (a cut now or armed at a step of the note path), the wire faults on the replies, the queue
// of notes a customer holds out and the one in the path, where notes end (cashbox, back to the
// customer, stuck in a jam), and the host's frames kept for a test. The protocol's own states,
// byte framing and reports stay in each simulator: its `handle` of a frame, its step of the path.
import { ByteDevice } from '../sim/device-side.js';
import { PowerSwitch } from '../sim/power-switch.js';
import { keepRecent } from '../sim/recent.js';
import { WireFaults } from '../sim/wire-faults.js';
import type { LineSettings } from '../transport/byte-port.js';
import type { Currency } from './notes.js';
import type { BillStep, NoteInPath, WireFault } from './sim-controls.js';

/** A note (or ticket) as a simulator carries it: at least its face value (0 for a ticket). */
export interface SimNote {
  denomination: number;
}

export abstract class BillSimulatorBase<Note extends SimNote, Frame> extends ByteDevice {
  abstract readonly protocol: 'id003' | 'ssp';
  readonly line: LineSettings;
  readonly currency: Currency;
  /** Host frames received, for tests that check what the driver sent: the newest, bounded (sim/recent.ts). */
  readonly received: Frame[] = [];
  protected readonly wire = new WireFaults();
  protected readonly power = new PowerSwitch<BillStep>({ lost: () => this.powerLost(), restored: () => this.powerRestored() });
  /** The note in the path, and those the customer still holds out, in order. */
  protected note: Note | null = null;
  protected queue: Note[] = [];
  /** Notes drawn into the path so far (NoteInPath's `serial`). */
  protected notesTaken = 0;
  protected readonly cash: number[] = [];
  protected readonly back: number[] = [];
  protected readonly stuck: number[] = [];

  constructor(options: { currency?: Currency | undefined; line?: LineSettings | undefined }, defaultLine: LineSettings) {
    super();
    this.currency = options.currency ?? 'HKD';
    this.line = options.line ?? defaultLine;
  }

  /** Frames out of the bytes from the host (the protocol's parser). */
  protected abstract parse(bytes: Uint8Array): Iterable<Frame>;
  /** One frame from the host, answered as the protocol does. */
  protected abstract handle(frame: Frame): void;
  /** The mains went: the parser forgets a half frame. */
  protected abstract powerLost(): void;
  /** The mains came back: the protocol's power-up. */
  protected abstract powerRestored(): void;
  /** How far the note in the path went, and the code it is reported by. */
  protected abstract pathOf(note: Note): { stage: NoteInPath['stage']; code: number };

  get powered(): boolean {
    return this.power.isOn;
  }
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

  powerCut(options: { at?: BillStep; restoreAfterMs?: number } = {}): void {
    this.power.cut(options);
  }

  powerOn(): void {
    this.power.restore();
  }

  /** Damage the next reply(ies) on the wire. */
  wireFault(kind: WireFault, count = 1): void {
    this.wire.add(kind, count);
  }

  receive(bytes: Uint8Array): void {
    if (!this.power.isOn) return;
    for (const f of this.parse(bytes)) {
      keepRecent(this.received, f);
      this.handle(f);
    }
  }

  /** A reply on the wire, through the armed wire faults. */
  protected send(reply: Uint8Array): void {
    const b = this.wire.apply(reply);
    if (b) this.transmit(b);
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
