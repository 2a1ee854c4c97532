import { minorUnits, NOTE_FACE_VALUES, type Currency } from '../../../hardware/billacceptor/notes.js';
import type { BILL_REFUSALS } from '../../../ledger/index.js';

// The credit rule, as pure functions over what the host knows: a credit is given only for an
// escrow the host itself answered "stack" to (the journalled `bill.escrow`), for that escrow's
// note, in the table's currency, for a note the table takes, while the acceptor takes notes.
// Seated and remote acceptors alike: the acceptor's side (a device through our driver, or a
// station agent on a machine on the casino floor) only claims; the host decides.

/** Why a claim was refused: journalled as the `bill.refused` security event. */
export type BillRefusal = (typeof BILL_REFUSALS)[number];

/** A note as the acceptor's side names it. Nothing here is trusted. */
export interface NoteClaim {
  readonly escrowId: string;
  /** Minor units, as claimed. */
  readonly amount: number;
  /** Face value in major units, as claimed. */
  readonly denomination: number;
  readonly currency: string;
}

/** What the host knows of the table and the acceptor when it answers. */
export interface AcceptorNow {
  readonly currency: Currency;
  /** Face values the table takes now. */
  readonly accepted: readonly number[];
  /** No fault and no technician inhibits the acceptor. */
  readonly enabled: boolean;
}

/** An escrow the host answered "stack" to, as journalled, and what became of it. */
export interface StackedEscrow {
  readonly seq: number;
  /** Minor units. */
  readonly amount: number;
  readonly currency: string;
  /**
   * `credit`: credited, in answer to the message `ref` (absent for the host's own drivers, which
   * send no messages); `return`: back with the customer; null: neither yet.
   */
  readonly resolution: { readonly kind: 'credit'; readonly ref: string | null } | { readonly kind: 'return' } | null;
}

/**
 * What can never be an honest note of this table, whatever the moment: another currency, an
 * amount that is not the face value, a face value no note of the currency has.
 */
export function noteLie(currency: Currency, n: NoteClaim): 'wrong-currency' | 'bad-note' | null {
  if (n.currency !== currency) return 'wrong-currency';
  if (!NOTE_FACE_VALUES[currency].includes(n.denomination) || n.amount !== minorUnits(n.denomination)) return 'bad-note';
  return null;
}

/**
 * The escrow question. `refusal`: a security event besides the return (a lie); a note the table
 * does not take or an inhibited acceptor is a plain return (the driver's list or the inhibit can
 * lag the host's by a message).
 */
export type EscrowVerdict = { readonly stack: true } | { readonly stack: false; readonly refusal: BillRefusal | null };

export function judgeEscrow(now: AcceptorNow, n: NoteClaim, stacked: StackedEscrow | null): EscrowVerdict {
  const lie = noteLie(now.currency, n);
  if (lie) return { stack: false, refusal: lie };
  if (stacked && !sameNote(stacked, n)) return { stack: false, refusal: 'escrow-mismatch' };
  // Asked again about a note already credited or returned: there is nothing in escrow to stack.
  if (stacked?.resolution) return { stack: false, refusal: null };
  if (!now.accepted.includes(n.denomination) || !now.enabled) return { stack: false, refusal: null };
  return { stack: true };
}

/**
 * The credit point. `duplicate`: the message that was credited, sent again (its answer lost in a
 * cut): the same answer, no second credit. An escrow answered "stack" was so while the acceptor
 * took notes and the table took the note: a fault or a configuration change between STACK and
 * the credit point does not take back a note already in the cashbox.
 */
export type CreditVerdict = { readonly kind: 'credit' } | { readonly kind: 'duplicate' } | { readonly kind: 'refused'; readonly refusal: BillRefusal };

export function judgeCredit(now: AcceptorNow, n: NoteClaim & { readonly ref?: string | undefined }, stacked: StackedEscrow | null): CreditVerdict {
  if (!stacked) return { kind: 'refused', refusal: noteLie(now.currency, n) ?? whyNoEscrow(now, n) };
  if (!sameNote(stacked, n)) return { kind: 'refused', refusal: 'escrow-mismatch' };
  const r = stacked.resolution;
  if (r?.kind === 'return') return { kind: 'refused', refusal: 'escrow-returned' };
  if (r?.kind === 'credit') return r.ref === (n.ref ?? null) ? { kind: 'duplicate' } : { kind: 'refused', refusal: 'already-credited' };
  return { kind: 'credit' };
}

/**
 * A note said to be back with the customer. `return`: journalled against its escrow; `nothing`:
 * no escrow the host stacked, or one already credited or returned (a resend, or the device's word
 * against the journal's: a credit stands); refused: another note than the escrow's (another
 * amount or currency) is a lie, and the escrow stays open for the true note's report or a person.
 */
export type ReturnVerdict = { readonly kind: 'return' } | { readonly kind: 'nothing' } | { readonly kind: 'refused'; readonly refusal: BillRefusal };

export function judgeReturn(n: NoteClaim, stacked: StackedEscrow | null): ReturnVerdict {
  if (!stacked || stacked.resolution) return { kind: 'nothing' };
  if (!sameNote(stacked, n)) return { kind: 'refused', refusal: 'escrow-mismatch' };
  return { kind: 'return' };
}

/** Why no escrow was ever answered "stack" for a note that is a note of the table. */
function whyNoEscrow(now: AcceptorNow, n: NoteClaim): BillRefusal {
  if (!now.accepted.includes(n.denomination)) return 'note-not-accepted';
  if (!now.enabled) return 'acceptor-inhibited';
  return 'no-escrow';
}

function sameNote(s: StackedEscrow, n: NoteClaim): boolean {
  return s.amount === n.amount && s.currency === n.currency && s.amount === minorUnits(n.denomination);
}
