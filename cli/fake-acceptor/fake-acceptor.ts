import type { BillAcceptor, BillAcceptorEvent, BillAcceptorOptions, EscrowedNote } from '../../hardware/billacceptor/types.js';
import type { WireFrame } from '../../hardware/wire-frame.js';

// The one fake bill acceptor of the fault campaigns (issue 53 item 7): the in-process fault
// simulation (cli/sim-faults/) keeps its notes in memory across the host's "kills"; the OS-level
// SIGKILL trials (cli/kill-trials/) keep them in a record file each, written before the device
// reports. Both drive this model; only where the notes are kept differs (`record`).

/** Where a note is, as the device knows it: held in escrow, in the stacker (money taken), given back. */
export type NotePlace = 'escrow' | 'stacker' | 'returned';

/**
 * What physically happened to the notes of one acceptor: the device outlives the host process,
 * so the campaign keeps this across kills and compares it with the journal.
 */
export interface AcceptorTruth {
  readonly device: string;
  nextNote: number;
  /** Each note by escrow id (`N1`, `N2`…). */
  readonly notes: Map<string, { amount: number; where: NotePlace }>;
  /** Stacked notes whose credit the host has not acknowledged: the device reports them again. */
  owed: string[];
}

export function acceptorTruth(device: string): AcceptorTruth {
  return { device, nextNote: 1, notes: new Map(), owed: [] };
}

/** One thing that happened to a note: the record file's line, and the only way the truth changes. */
export type NoteEvent = { e: 'escrow'; id: string; amount: number } | { e: 'stack'; id: string } | { e: 'return'; id: string } | { e: 'ack'; id: string };

/** An event the truth cannot take (a note stacked, returned or acknowledged that was never in escrow), or a handler the model cannot honour. */
export class FakeAcceptorError extends Error {
  override readonly name = 'FakeAcceptorError';
}

/** The truth after one event. */
export function applyNoteEvent(truth: AcceptorTruth, event: NoteEvent): void {
  if (event.e === 'escrow') {
    truth.notes.set(event.id, { amount: event.amount, where: 'escrow' });
    truth.nextNote = Math.max(truth.nextNote, Number(event.id.slice(1)) + 1);
    return;
  }
  const n = truth.notes.get(event.id);
  if (!n) throw new FakeAcceptorError(`note ${event.id} was never in escrow`);
  if (event.e === 'stack') {
    n.where = 'stacker';
    truth.owed.push(event.id);
  } else if (event.e === 'return') n.where = 'returned';
  else truth.owed = truth.owed.filter((id) => id !== event.id);
}

/**
 * A bill acceptor at the level of its protocol's promises (not its bytes: the byte-level drivers
 * and their parsers are fuzzed in tests/fuzz/, the byte simulators are hardware/billacceptor's):
 * escrow, then stack when the host says so, then a credit report at each poll until acknowledged;
 * at power-up a note left in escrow is returned (the stacked ones are reported again at the next
 * poll). A lost acknowledgement or a garbled answer frame look the same to it: the credit was not
 * acknowledged, so it reports it again.
 */
export class FakeAcceptor implements BillAcceptor {
  readonly protocol = 'id003' as const;
  readonly currency = 'MOP' as const;
  private readonly listeners = new Set<(e: BillAcceptorEvent) => void>();
  private enabled: boolean;

  /** `record`: keeps an event where it outlives the host (a file) before the device acts on it; none in memory. */
  constructor(
    protected readonly truth: AcceptorTruth,
    protected readonly options: BillAcceptorOptions,
    private readonly record: (event: NoteEvent) => void = () => undefined,
  ) {
    this.enabled = options.enabled ?? false;
  }

  on(listener: (e: BillAcceptorEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onFrame(listener: (f: WireFrame) => void): () => void {
    void listener;
    return () => undefined;
  }

  /** Power-up: a note left in escrow goes back to the customer; a stacked one is reported again at the next poll. */
  start(): void {
    this.emit({ type: 'connected', protocol: 'id003' });
    this.giveBack('power-up');
  }

  enable(): void {
    this.enabled = true;
  }

  disable(): void {
    this.enabled = false;
  }

  setAccepted(denominations: readonly number[]): void {
    void denominations;
  }

  async close(): Promise<void> {}

  /** A customer inserts a note. False when the slot refuses it (inhibited, or a credit still owed). */
  insert(amount: number): boolean {
    if (!this.enabled || this.truth.owed.length > 0) return false;
    const escrowId = `N${this.truth.nextNote}`;
    this.happen({ e: 'escrow', id: escrowId, amount });
    const note = this.note(escrowId, amount);
    this.emit({ type: 'escrowed', note });
    const decision = this.options.onEscrow?.(note);
    // The host could not journal the escrow (or died doing it): no STACK comes; the note stays in
    // escrow until the escrow timeout or the next power-up returns it.
    if (decision !== 'stack') return true;
    // The note drops into the stacker: kept before the device reports its credit.
    this.happen({ e: 'stack', id: escrowId });
    return true;
  }

  /** The escrow timed out: a note still held is given back. */
  escrowTimeout(): void {
    this.giveBack('escrow-timeout');
  }

  /**
   * The device's poll answer: each credit it owes, until the host's handler returns for it (the
   * acknowledgement). `ackLost`: the host took it, but its acknowledgement never reached the device
   * (or reached it garbled). A handler that throws (the host died journalling) leaves it owed.
   */
  poll(recovered: boolean, ackLost = false): void {
    for (const escrowId of [...this.truth.owed]) {
      const n = this.truth.notes.get(escrowId);
      if (!n) continue;
      const done = this.options.onCredit?.({ escrowId, amount: n.amount, currency: 'MOP', denomination: n.amount / 100, recovered });
      // The host's handler (host/devices/bill-acceptors.ts) journals synchronously; one that
      // answered later would need the acknowledgement to wait for it.
      if (done instanceof Promise) throw new FakeAcceptorError('this device model acknowledges only a synchronous credit handler');
      // Only an acknowledged credit is settled on the device's side.
      if (!ackLost) this.happen({ e: 'ack', id: escrowId });
    }
  }

  protected emit(e: BillAcceptorEvent): void {
    for (const l of this.listeners) l(e);
  }

  private giveBack(reason: 'power-up' | 'escrow-timeout'): void {
    for (const [escrowId, n] of this.truth.notes) {
      if (n.where !== 'escrow') continue;
      this.happen({ e: 'return', id: escrowId });
      this.emit({ type: 'returned', note: this.note(escrowId, n.amount), reason });
    }
  }

  private happen(event: NoteEvent): void {
    this.record(event);
    applyNoteEvent(this.truth, event);
  }

  private note(escrowId: string, amount: number): EscrowedNote {
    return { escrowId, amount, denomination: amount / 100, currency: 'MOP', code: 0 };
  }
}
