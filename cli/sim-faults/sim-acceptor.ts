import type { BillAcceptor, BillAcceptorEvent, BillAcceptorOptions, EscrowedNote } from '../../hardware/billacceptor/types.js';
import type { WireFrame } from '../../hardware/wire-frame.js';

/**
 * What physically happened to the notes of one acceptor: the device outlives the host process,
 * so this is kept by the simulation across kills. The invariants compare it with the journal.
 */
export interface AcceptorTruth {
  device: string;
  nextNote: number;
  /** Each note by escrow id: held in escrow, in the stacker (money taken) or given back. */
  notes: Map<string, { amount: number; where: 'escrow' | 'stacker' | 'returned' }>;
  /** A stacked note whose credit the host has not acknowledged: the device reports it again. */
  owed: string | null;
}

export function acceptorTruth(device: string): AcceptorTruth {
  return { device, nextNote: 1, notes: new Map(), owed: null };
}

/**
 * A bill acceptor at the level of its protocol's promises (not its bytes: the byte-level drivers
 * and their parsers are fuzzed in tests/fuzz/): escrow, then stack when the host says so, then a
 * credit report repeated until acknowledged; at power-up a note left in escrow is returned and
 * one in the stacker is reported again. A lost acknowledgement or a garbled answer frame looks
 * the same to it: the credit was not acknowledged, so it reports it again.
 */
export class SimAcceptor implements BillAcceptor {
  readonly protocol = 'id003' as const;
  readonly currency = 'MOP' as const;
  private readonly listeners = new Set<(e: BillAcceptorEvent) => void>();
  private enabled: boolean;

  constructor(
    private readonly truth: AcceptorTruth,
    protected readonly options: BillAcceptorOptions,
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

  /** Power-up: a note left in escrow goes back to the customer; a stacked one is reported again. */
  start(): void {
    this.emit({ type: 'connected', protocol: 'id003' });
    for (const [escrowId, n] of this.truth.notes) {
      if (n.where !== 'escrow') continue;
      n.where = 'returned';
      this.emit({ type: 'returned', note: this.note(escrowId, n.amount), reason: 'power-up' });
    }
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

  /** A customer inserts a note. False when the acceptor is inhibited (the note is refused at the slot). */
  insert(amount: number): boolean {
    if (!this.enabled || this.truth.owed !== null) return false;
    const escrowId = `N${this.truth.nextNote++}`;
    this.truth.notes.set(escrowId, { amount, where: 'escrow' });
    const note = this.note(escrowId, amount);
    this.emit({ type: 'escrowed', note });
    const decision = this.options.onEscrow?.(note);
    // The host could not journal the escrow (or died doing it): no STACK comes; the note stays in
    // escrow until the escrow timeout or the next power-up returns it.
    if (decision !== 'stack') return true;
    const n = this.truth.notes.get(escrowId);
    if (n) n.where = 'stacker';
    this.truth.owed = escrowId;
    return true;
  }

  /** The escrow timed out: a note still held is given back. */
  escrowTimeout(): void {
    for (const [escrowId, n] of this.truth.notes) {
      if (n.where !== 'escrow') continue;
      n.where = 'returned';
      this.emit({ type: 'returned', note: this.note(escrowId, n.amount), reason: 'escrow-timeout' });
    }
  }

  /**
   * The device's poll answer: the credit it owes, reported until acknowledged. `ackLost`: the
   * host took it, but its acknowledgement never reached the device (or reached it garbled).
   */
  poll(recovered: boolean, ackLost: boolean): void {
    const escrowId = this.truth.owed;
    if (escrowId === null) return;
    const n = this.truth.notes.get(escrowId);
    if (!n) return;
    this.options.onCredit?.({ escrowId, amount: n.amount, currency: 'MOP', denomination: n.amount / 100, recovered });
    // Only an acknowledged credit is settled on the device's side.
    if (!ackLost) this.truth.owed = null;
  }

  private note(escrowId: string, amount: number): EscrowedNote {
    return { escrowId, amount, denomination: amount / 100, currency: 'MOP', code: 0 };
  }

  protected emit(e: BillAcceptorEvent): void {
    for (const l of this.listeners) l(e);
  }
}
