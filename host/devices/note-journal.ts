import type { Ledger } from '../../ledger/index.js';
import { escrowTxId } from '../recovery/escrow.js';

// The money rule of a banknote, wherever its acceptor is (at the table or at a remote station's
// agent): the note in escrow journalled before STACK, the credit journalled before the device is
// acknowledged, each under the driver's escrow id so a report repeated (a lost ACK, a reconnect,
// a kill of either side) is journalled once.

export interface NoteAtDevice {
  readonly escrowId: string;
  /** Minor units. */
  readonly amount: number;
  readonly currency: string;
}

/** Journals a note in escrow (before STACK is sent). A repeat of the same escrow is a duplicate, not a second entry. */
export function journalEscrow(ledger: Ledger, station: number, device: string, note: NoteAtDevice): void {
  ledger.append({
    type: 'bill.escrow',
    payload: { station, device, denomination: note.amount, currency: note.currency },
    txId: escrowTxId(device, note.escrowId),
  });
}

/** Journals a note's credit at the protocol's credit point; returns the entry's seq and whether it was new. */
export function journalCredit(ledger: Ledger, station: number, device: string, note: NoteAtDevice): { seq: number; status: 'appended' | 'duplicate' } {
  const escrow = ledger.byTxId(escrowTxId(device, note.escrowId));
  const r = ledger.append({
    type: 'bill.credit',
    payload: { station, device, denomination: note.amount, currency: note.currency, ...(escrow ? { escrowSeq: escrow.seq } : {}) },
    txId: `${device}:${note.escrowId}:credit`,
  });
  return { seq: r.entry.seq, status: r.status };
}
