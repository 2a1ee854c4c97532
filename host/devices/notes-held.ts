import { escrowResolved, noteLeftSince, unresolvedEscrows, type Ledger, type NewEntry, type UnresolvedEscrow } from '../../ledger/index.js';
import { inEnglish, serviceSaid, type Said } from '../config/refusal-words.js';
import { creditTxId, escrowTxId, returnTxId } from '../recovery/escrow.js';

/** A note journalled in escrow that no acceptor will end: a person's to settle (service mode, Devices). */
export interface HeldNote {
  station: number;
  /** Its `bill.escrow` entry. */
  seq: number;
  device: string;
  /** Minor units. */
  amount: number;
  currency: string;
  /** When it was journalled in escrow (the host answered "stack"). */
  since: string;
}

/** A person's settlement of a held note: `stacked` (found in the cashbox: credited) or `returned` (not there: back with the player). */
export type NoteSettlement = 'stacked' | 'returned';

export type NoteSettled = { ok: true; station: number; amount: number; currency: string; outcome: NoteSettlement } | { ok: false; detail: string; say: Said };

/** The return's reason when a person found the note not in the cashbox. */
export const RETURNED_BY_HAND = 'settled by hand: not in the cashbox';

/**
 * Notes the host answered "stack" to that no acceptor will credit or return: a person looks in the
 * station's cashbox and the acceptor's path, asks the player, and settles each (docs/service-mode.md,
 * "A note held for a person"). Until then the note counts against the station's credit limit.
 *
 * An open escrow is the acceptor's while no later note was journalled in escrow at its device
 * (resolved or not) nor a jam at its station, its station is in the configuration, and its acceptor has not left it in this run: the driver is handed it at its
 * start (`pendingNote`) and its word (a credit, a return) ends it. Held for a person are:
 * - one the acceptor left: it broke its protocol over it (SSP's `note-vanished`, a credit of
 *   another value, an escrow changed after STACK…), in dispute until idle, never credited after;
 *   or it jammed with the note in its path (the driver goes idle and forgets it). Held for good
 *   once the journal shows it (`noteLeftSince`): the station's `bill-jam` raise, or its
 *   `bill-cheat` raise naming the note's escrow; a mark the journal does not show (no fault
 *   journalled over it) lasts until a driver is handed the note again (a restart; a remote agent
 *   that runs the driver, at its hello: a relayed station's driver is the host's, opened once a run, or
 *   again after such an agent let it go);
 * - one behind a newer escrow at its device (an acceptor holds one note at a time: whatever became
 *   of it, its acceptor took another since and will never speak of it), or a jam at its station;
 * - one at a station no longer configured.
 */
export class NotesHeld {
  /** Escrow seqs an acceptor left in this run. */
  private readonly left = new Set<number>();

  constructor(private readonly d: { ledger: Ledger; configured: () => ReadonlySet<number> }) {}

  /** A driver was handed the note (an open escrow with no later one at its device, at its start): its word ends it again. */
  handed(device: string, escrowId: string): void {
    const e = this.d.ledger.byTxId(escrowTxId(device, escrowId));
    if (e) this.left.delete(e.seq);
  }

  /**
   * The acceptor broke its protocol over the note, or jammed with it in its path: it will neither
   * credit nor return it in this run. Whether it is an open escrow left now (not already left).
   */
  acceptorLeft(device: string, escrowId: string): boolean {
    const e = this.d.ledger.byTxId(escrowTxId(device, escrowId));
    if (e?.type !== 'bill.escrow' || this.left.has(e.seq) || escrowResolved(this.d.ledger, e.seq)) return false;
    this.left.add(e.seq);
    return true;
  }

  /** The notes held for a person, oldest first. */
  held(): HeldNote[] {
    return this.heldEscrows().map((e) => this.heldNote(e));
  }

  /**
   * A person settles a held note, named by its station and escrow entry: `stacked`, found in the
   * cashbox, credited (`bill.credit`); `returned`, not there (`bill.return`). Journalled against its
   * escrow, with `record` (service mode's record of who settled it) in the same transaction: both or
   * neither. One an acceptor still has, one ended already, or another station's is refused.
   */
  settleByHand(
    note: { station: number; seq: number },
    outcome: NoteSettlement,
    settledBy: readonly string[],
    record?: (settled: { station: number; amount: number; currency: string }) => NewEntry,
  ): NoteSettled {
    const h = this.heldEscrows().find((e) => e.seq === note.seq && e.station === note.station);
    if (!h) return refusal(serviceSaid('noteNoneHeld', { station: note.station }));
    if (settledBy.length === 0) return refusal(serviceSaid('ticketNoSettler'));
    // Entries from before escrows named their id are ended under their sequence.
    const escrowId = h.escrowId ?? `seq-${h.seq}`;
    const at = { station: h.station, device: h.device, denomination: h.denomination, currency: h.currency, escrowSeq: h.seq };
    const end: NewEntry =
      outcome === 'stacked'
        ? { type: 'bill.credit', payload: at, txId: creditTxId(h.device, escrowId) }
        : { type: 'bill.return', payload: { ...at, reason: RETURNED_BY_HAND }, txId: returnTxId(h.device, escrowId) };
    this.d.ledger.appendMany([end, ...(record ? [record({ station: h.station, amount: h.denomination, currency: h.currency })] : [])]);
    this.left.delete(h.seq);
    return { ok: true, station: h.station, amount: h.denomination, currency: h.currency, outcome };
  }

  private heldEscrows(): UnresolvedEscrow[] {
    const configured = this.d.configured();
    return unresolvedEscrows(this.d.ledger).filter((e) => this.left.has(e.seq) || !configured.has(e.station) || noteLeftSince(this.d.ledger, e, e.seq));
  }

  private heldNote(e: UnresolvedEscrow): HeldNote {
    const since = this.d.ledger.entry(e.seq)?.ts ?? '';
    return { station: e.station, seq: e.seq, device: e.device, amount: e.denomination, currency: e.currency, since };
  }
}

function refusal(say: Said): Extract<NoteSettled, { ok: false }> {
  return { ok: false, detail: inEnglish(say), say };
}
