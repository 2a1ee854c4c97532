import type { EscrowedNote } from '../../hardware/billacceptor/types.js';
import { isCurrency } from '../../hardware/billacceptor/notes.js';
import { escrowResolved, noteLeftSince, lastNoteCredit, unresolvedEscrows, type Ledger } from '../../ledger/index.js';

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
  const last = openEscrows(ledger, device).at(-1);
  // Behind a later escrow (one credited since, say), the unit's reports are another note's; after
  // its station's jam, an attendant's hands had it; after a protocol broken over it, the unit's word
  // on it is not taken: a person's to settle in each case.
  if (!last || noteLeftSince(ledger, { device, station: last.station, escrowId: last.note.escrowId }, last.seq)) return null;
  return { ...last.note, stackSent: true };
}

/**
 * The note credited last at `device`, when nothing was escrowed there since: the host may have
 * stopped between journalling that credit and the unit's acknowledgement, and the unit repeats its
 * credit report to the next host until acknowledged. The driver acknowledges that repeat and credits
 * nothing (hardware/billacceptor/types.ts, `lastCredit`). Null when its escrow entry names no id
 * (entries journalled before escrows named theirs).
 */
export function lastCreditFor(ledger: Ledger, device: string): EscrowedNote | null {
  const last = lastNoteCredit(ledger, device);
  if (!last || !isCurrency(last.credit.currency)) return null;
  const escrowId = last.escrowId;
  if (escrowId === null) return null;
  const { denomination, currency } = last.credit;
  return { escrowId, amount: denomination, denomination: denomination / 100, currency, code: 0 };
}

type OpenEscrow = ReturnType<typeof unresolvedEscrows>[number];

/**
 * The notes journalled in escrow at `device` and not yet resolved, oldest first, as the driver's
 * notes. The escrow's id is the one its entry names; an entry journalled before entries named it
 * gives it by its transaction id, taken only if it is exactly `escrowTxId(device, id)`. An entry
 * with neither, or in a currency no acceptor takes, is left out (it was not written by this rule).
 */
export function openEscrows(ledger: Ledger, device: string): { seq: number; station: number; note: EscrowedNote }[] {
  return unresolvedEscrows(ledger).flatMap((e) => {
    const escrowId = e.device === device ? (e.escrowId ?? idFromTxId(ledger, e)) : null;
    if (escrowId === null || !isCurrency(e.currency)) return [];
    // The journal writes the note's amount in minor units; the driver's note carries both.
    return [{ seq: e.seq, station: e.station, note: { escrowId, amount: e.denomination, denomination: e.denomination / 100, currency: e.currency, code: 0 } }];
  });
}

function idFromTxId(ledger: Ledger, e: OpenEscrow): string | null {
  const txId = ledger.entry(e.seq)?.txId ?? '';
  const id = txId.slice(`${e.device}:`.length, -':escrow'.length);
  return id.length > 0 && txId === escrowTxId(e.device, id) ? id : null;
}

/**
 * The acceptor returned a note the ledger holds in escrow (power-up with the note in the acceptor
 * or gone, an escrow timeout): journal the return against the escrow, once. Returns whether it wrote.
 */
export function journalReturn(ledger: Ledger, station: number, device: string, note: EscrowedNote, reason: string): boolean {
  const escrow = ledger.byTxId(escrowTxId(device, note.escrowId));
  if (!escrow) return false;
  if (escrow.type !== 'bill.escrow' || escrowResolved(ledger, escrow.seq)) return false;
  ledger.append({
    type: 'bill.return',
    payload: { station, device, denomination: note.amount, currency: note.currency, reason, escrowSeq: escrow.seq },
    txId: returnTxId(device, note.escrowId),
  });
  return true;
}
