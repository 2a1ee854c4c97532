import type { Logger } from 'pino';
import type { Currency } from '../../../hardware/billacceptor/notes.js';
import type { EscrowDecision, EscrowedNote } from '../../../hardware/billacceptor/types.js';
import { notesOnTheirWay, type Ledger } from '../../../ledger/index.js';
import { tiltDetailSaid, type Said } from '../../../locales/said.js';
import { creditTxId, escrowTxId, journalReturn } from '../../recovery/escrow.js';
import { passesCreditLimit } from './credit-limit.js';
import { RefusalBudget } from './refusal-budget.js';
import { stackedEscrow } from './stacked-escrow.js';
import { judgeCredit, judgeEscrow, judgeReturn, type AcceptorNow, type BillRefusal, type NoteClaim } from './verdict.js';

export interface CreditRuleDeps {
  ledger: Ledger;
  log: Logger;
  /** The table's currency: every note it takes is of it. */
  currency: Currency;
  /** The notes (face values) the table takes now: the configuration's, as service mode changes it. */
  accepted: () => readonly number[];
  /**
   * Raises the station's acceptor fault (host/tilts `bill-cheat`: the station stops until a
   * supervisor has looked). Called for every refusal, with what was refused said by key (its
   * English journalled beside it); the fault is journalled once while held.
   */
  fault: (station: number, say: Said) => void;
  /** The budget's clock (ms). */
  now?: () => number;
  /** The most a station's credit may hold (minor units, the configuration's `creditLimit`, read at each note); absent: no limit. */
  creditLimit?: () => number;
  /** A note went back because it would have passed the credit limit: the station's screen says so. */
  atCreditLimit?: (station: number) => void;
}

/** Where a claim comes from: the station, its acceptor's journal name, and whether it takes notes now. */
export interface AcceptorAt {
  readonly station: number;
  readonly device: string;
  /** No fault and no technician inhibits it (its driver's or its agent's inhibit may lag by a message). */
  readonly enabled: boolean;
}

/** A credit claim: the note, and the message it came in (a station agent's id; none from the host's own drivers). */
export type CreditClaim = NoteClaim & { readonly ref?: string | undefined };

/** A return: journalled (`wrote`: false when there was nothing to journal, a resend), or refused as a lie. */
export type ReturnOutcome = { readonly ok: true; readonly wrote: boolean } | { readonly ok: false; readonly reason: BillRefusal };

export type CreditOutcome =
  { readonly ok: true; readonly seq: number; readonly status: 'appended' | 'duplicate' } | { readonly ok: false; readonly reason: BillRefusal };

/** Journalled refusals per acceptor at once, and per minute after that. */
const BURST = 10;
const PER_MINUTE = 10;

/**
 * The one place every note's money is decided, for seated acceptors (host/devices/bill-acceptors.ts,
 * our driver at the device) and remote ones (host/devices/remote-acceptors.ts, a station agent
 * relaying) alike. The escrow is journalled before "stack" is answered and only then (so the
 * journalled escrow is the durable record of the host's answer, and a restart keeps the rule); a
 * credit is journalled only against such an escrow (verdict.ts). Anything else is refused: a
 * `bill.refused` security event, the station's acceptor fault, nothing credited.
 */
export class CreditRule {
  private readonly budget: RefusalBudget;

  constructor(private readonly d: CreditRuleDeps) {
    this.budget = new RefusalBudget({ burst: BURST, perMinute: PER_MINUTE, now: d.now ?? Date.now });
    // The notes on their way to a cashbox are read from the journal once, here at the start, not
    // inside the first AFT or transfer answer that measures the credit limit; followed after.
    notesOnTheirWay(d.ledger, 0);
  }

  /** The escrow question: journals the escrow and answers "stack", or answers "return" (journalling nothing but a lie). */
  escrow(at: AcceptorAt, note: NoteClaim): EscrowDecision {
    const stacked = stackedEscrow(this.d.ledger, at.device, note.escrowId);
    const v = judgeEscrow(this.now(at), note, stacked);
    if (!v.stack) {
      if (v.refusal) this.refuse(at, 'escrow', note, v.refusal, stacked?.seq);
      return 'return';
    }
    // Before the escrow is journalled: a note the station's credit cannot hold goes back and moves
    // nothing. From the escrow's entry on, the note counts against the limit (ledger
    // notesOnTheirWay) until credited, so it is measured here once: asked again, it is not.
    if (!stacked && this.passesLimit(at, note)) return 'return';
    // Journalled before the answer: after a power cut mid-stack the record says which note it was.
    this.d.ledger.append({
      type: 'bill.escrow',
      payload: { station: at.station, device: at.device, denomination: note.amount, currency: this.d.currency, escrowId: note.escrowId },
      txId: escrowTxId(at.device, note.escrowId),
    });
    return 'stack';
  }

  /** The credit point: journals the credit (before the device is acknowledged), or refuses it. */
  credit(at: AcceptorAt, claim: CreditClaim): CreditOutcome {
    const stacked = stackedEscrow(this.d.ledger, at.device, claim.escrowId);
    const v = judgeCredit(this.now(at), claim, stacked);
    if (v.kind === 'refused' || !stacked) {
      const reason = v.kind === 'refused' ? v.refusal : 'no-escrow';
      this.refuse(at, 'credit', claim, reason, stacked?.seq);
      return { ok: false, reason };
    }
    // The entry is written from the escrow the host holds, not from the claim (which matched it).
    const r = this.d.ledger.append({
      type: 'bill.credit',
      payload: {
        station: at.station,
        device: at.device,
        denomination: stacked.amount,
        currency: this.d.currency,
        escrowSeq: stacked.seq,
        ...(claim.ref !== undefined ? { ref: claim.ref } : {}),
      },
      txId: creditTxId(at.device, claim.escrowId),
    });
    return { ok: true, seq: r.entry.seq, status: v.kind === 'duplicate' ? 'duplicate' : r.status };
  }

  /**
   * The acceptor gave a note in escrow back: journalled against its escrow, once, for that
   * escrow's note only. Another note under the escrow's id is refused, as a credit for it is.
   */
  returned(at: AcceptorAt, note: EscrowedNote, reason: string): ReturnOutcome {
    const stacked = stackedEscrow(this.d.ledger, at.device, note.escrowId);
    const v = judgeReturn(note, stacked);
    if (v.kind === 'refused') {
      this.refuse(at, 'return', note, v.refusal, stacked?.seq);
      return { ok: false, reason: v.refusal };
    }
    return { ok: true, wrote: v.kind === 'return' && journalReturn(this.d.ledger, at.station, at.device, note, reason) };
  }

  /** Whether the note would take the station past its credit limit (docs/sas.md, "The station credit limit"): said to the player, not a security event. */
  private passesLimit(at: AcceptorAt, note: NoteClaim): boolean {
    const limit = this.d.creditLimit?.();
    if (limit === undefined || !passesCreditLimit(this.d.ledger, at.station, note.amount, limit)) return false;
    this.d.log.info({ station: at.station, device: at.device, amount: note.amount, limit }, 'note returned: the station is at its credit limit');
    try {
      this.d.atCreditLimit?.(at.station);
    } catch (err) {
      this.d.log.error({ err, station: at.station }, 'the station could not be told of a note returned at its credit limit');
    }
    return true;
  }

  private now(at: AcceptorAt): AcceptorNow {
    return { currency: this.d.currency, accepted: this.d.accepted(), enabled: at.enabled };
  }

  private refuse(at: AcceptorAt, claim: 'escrow' | 'credit' | 'return', note: NoteClaim, reason: BillRefusal, escrowSeq: number | undefined): void {
    const what = tiltDetailSaid('noteRefused', {
      claim,
      reason,
      amount: note.amount,
      currency: note.currency.slice(0, 3),
      escrow: note.escrowId.slice(0, 64),
    });
    const b = this.budget.take(at.device);
    if (b.journal) {
      try {
        const r = this.d.ledger.append({
          type: 'bill.refused',
          payload: {
            station: at.station,
            device: at.device,
            claim,
            reason,
            escrowId: note.escrowId,
            denomination: note.amount,
            currency: note.currency,
            ...(escrowSeq !== undefined ? { escrowSeq } : {}),
            ...(b.suppressed > 0 ? { suppressed: b.suppressed } : {}),
          },
        });
        this.d.log.warn(
          { station: at.station, device: at.device, claim, reason, seq: r.entry.seq, suppressed: b.suppressed },
          'note refused: a security event',
        );
      } catch (err) {
        // Refused all the same: nothing is credited because a record could not be written.
        this.d.log.error({ err, station: at.station, device: at.device, claim, reason }, 'a refused note could not be journalled');
      }
    }
    try {
      this.d.fault(at.station, what);
    } catch (err) {
      this.d.log.error({ err, station: at.station }, 'the acceptor fault of a refused note could not be raised');
    }
  }
}
