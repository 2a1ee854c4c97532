import type { EscrowedNote } from '../../hardware/billacceptor/types.js';
import type { Currency } from '../../hardware/billacceptor/notes.js';
import type { Ledger } from '../../ledger/index.js';

/** The transaction id a note's escrow is journalled under (the credit rule): `<device>:<escrowId>:escrow`. */
export const escrowTxId = (device: string, escrowId: string) => `${device}:${escrowId}:escrow`;
/** …its credit's, `<device>:<escrowId>:credit`: a note is credited once. */
export const creditTxId = (device: string, escrowId: string) => `${device}:${escrowId}:credit`;
/** …its return's, `<device>:<escrowId>:return`. */
export const returnTxId = (device: string, escrowId: string) => `${device}:${escrowId}:return`;

/**
 * A note journalled in escrow at `device` that was neither credited nor returned before the host
 * stopped: the driver is told of it, so that the acceptor's power-up report resolves it (in the
 * stacker: credited; in the acceptor or nowhere: returned), and each resolution is journalled
 * once against its escrow entry. The escrow was journalled just before STACK, so it counts as sent.
 */
export function pendingNoteFor(ledger: Ledger, device: string): (EscrowedNote & { stackSent: boolean }) | null {
  const open = ledger.unresolvedEscrows().filter((e) => e.device === device);
  const last = open.at(-1);
  if (!last) return null;
  const txId = ledger.entry(last.seq)?.txId ?? '';
  const prefix = `${device}:`;
  if (!txId.startsWith(prefix) || !txId.endsWith(':escrow')) return null;
  const escrowId = txId.slice(prefix.length, -':escrow'.length);
  // The journal writes the note's amount in minor units; the driver's note carries both.
  return {
    escrowId,
    amount: last.denomination,
    denomination: last.denomination / 100,
    currency: last.currency as Currency,
    code: 0,
    stackSent: true,
  };
}

/**
 * The acceptor returned a note the ledger holds in escrow (power-up with the note in the acceptor
 * or gone, an escrow timeout): journal the return against the escrow, once. Returns whether it wrote.
 */
export function journalReturn(ledger: Ledger, station: number, device: string, note: EscrowedNote, reason: string): boolean {
  const escrow = ledger.byTxId(escrowTxId(device, note.escrowId));
  if (!escrow) return false;
  if (!ledger.unresolvedEscrows().some((e) => e.seq === escrow.seq)) return false;
  ledger.append({
    type: 'bill.return',
    payload: { station, device, denomination: note.amount, currency: note.currency, reason, escrowSeq: escrow.seq },
    txId: returnTxId(device, note.escrowId),
  });
  return true;
}
