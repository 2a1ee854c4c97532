// The casino's system as the table's validation authority, over each station's SAS link
// (docs/sas.md, "Tickets through SAS"; `tickets.authority: "sas"`). The table asks it through the
// same guard as the upstream (host/tickets/guard.ts), so its deadline, its one-answer-per-attempt
// rule and its disbelief of an answer for another ticket, currency or amount hold here too.
//
//   redeem      the station's redemption cycle begins; the system hears exception 0x67 (from the
//               journal's ticket.redeem.request), reads the number by 0x70 and decides by 0x71
//   confirm     the cycle ends stacked: 0x71's status is "cashable ticket redeemed" with the amount
//   cancel      the cycle ends returned (the system's refusal stands; else timeout or validator failure)
//   transferComplete
//               exception 0x68 is raised for the journal's end of a ticket: 0x71 FF answers that
//               end, read from the journal, so neither the next ticket nor a restart loses it
//   machineId   the id long poll 0x4C gave, journalled: the table's tickets are
//               numbered under it and no other (host/floor/ticket-out.ts)
//   register*   nothing to send: the system reads each printed ticket by 0x4D after exception 0x3D
//
// Amounts are credits of the accounting denomination, one minor unit (host/start/sas-links.ts).
import { REDEEM_STATUS, TicketRedemption, type RedemptionEnded, type SystemDecision } from '../../hardware/sas/redemption.js';
import type { SasValidationId } from '../../hardware/sas/types.js';
import type { TicketInEnd } from '../../ledger/ticket-queries.js';
import type { RequestId, TICKET_RETURNS } from '../../terms/ticket-terms.js';
import type { Logger } from 'pino';
import type { Ledger } from '../../ledger/ledger.js';
import { journalledMachineId } from '../../ledger/machine-id-queries.js';
import type { AuthorityAck, RedeemAnswer, RedeemRequest, TicketAt, TicketAuthority } from './authority.js';

/** The id long poll 0x4C set for the table (null: none yet), and its setting. */
export interface AssignedId {
  get(): number | null;
  set(machineId: number): void;
}

/**
 * The id long poll 0x4C set, as the table's journal records it: set, it is journalled
 * (`ticket.machine-id`, `authority: sas`) before 0x4C is answered; read, the newer of that entry
 * and the table's last SAS ticket. Without one, no ticket is printed. Until 8 December it was kept
 * in the data folder (`sas-validation.json`) and believed at a start, so another machine's id
 * written there numbered the table's tickets (tests/tickets/sas-validation-swapped.test.ts); the
 * file is no longer read or written.
 */
export function journalledSasId(ledger: Ledger, log?: Pick<Logger, 'error'>): AssignedId {
  return {
    get: () => journalledMachineId(ledger, 'sas'),
    set: (machineId) => {
      try {
        ledger.append({ type: 'ticket.machine-id', payload: { machineId, authority: 'sas' } });
      } catch (err) {
        // Said here, where the cause is known: the authority only learns it was not taken.
        log?.error({ err, machineId }, "the casino system's validation id (long poll 4C) could not be journalled: not taken");
        throw err;
      }
    },
  };
}

export interface SasAuthorityDeps {
  store: AssignedId;
  /** The sequence of the table's last ticket (0 before the first). */
  lastSequence(): number;
  /** Whether this table's journal already credits the ticket (a system approving it again is not believed). */
  paidHere(validation: TicketAt['validation']): boolean;
  /**
   * Whether an id is already another authority's for this table: its configuration's, one its
   * journal's tickets were numbered under, or one the upstream gave it (journalled, used or not:
   * the upstream's, before a switch to `sas`). Taken by the
   * system, the upstream would register the table's new tickets as its own, and one number could
   * be paid through each (docs/sas.md, "Why one system per table").
   */
  idTaken(machineId: number): boolean;
  /** The ticket-in end journalled at `seq` (null: none there). */
  ticketEnd(seq: number): TicketInEnd | null;
  /** The station's newest ticket-in end in the journal. */
  lastTicketEnd(station: number): TicketInEnd | null;
  /**
   * The stations whose SAS line is relayed by their own machine without the floor's opt-in
   * (`remoteSas[].relayedMoney`): that machine would answer its own ticket's redemption as the
   * system, so none is asked there (host/config/table-config.ts, `unbelievedSasLines`).
   */
  unbelieved?: ReadonlySet<number>;
}

/** Refusals only the system (or the table's own check before asking it) gives: "rejected by host". */
const REJECTED: ReadonlySet<(typeof TICKET_RETURNS)[number]> = new Set([
  'unknown',
  'already-paid',
  'pending-elsewhere',
  'expired',
  'voided',
  'other-currency',
  // The floor's upstream's (a table that went from it to SAS): refused by its authority, not unanswered.
  'contested',
]);

/**
 * What 0x71 FF says of a journalled end (Table 15.12d), as the cycle would have: stacked is 00 with
 * the amount credited; returned after an approval 8B (the acceptor gave it back); over the limit (the ticket limit, or the station's credit limit)
 * 84; a refusal 80; anything else 88 (no decision believed in time). The journal keeps the table's
 * words, not the code: once the cycle is gone, a system's own 80/86 (`offline`) reads as 88 and
 * its 88 (`over-limit`) as 84 — rejected all the same.
 */
function endedOf(e: TicketInEnd): RedemptionEnded {
  const of = (status: number, amount = 0): RedemptionEnded => ({ attempt: e.requestId, validation: e.validation, status, amount });
  if (e.kind === 'stacked') return of(REDEEM_STATUS.cashableRedeemed, e.amount);
  if (e.approved) return of(REDEEM_STATUS.validatorFailure);
  if (e.reason === 'over-limit' || e.reason === 'credit-limit') return of(REDEEM_STATUS.overLimit);
  return of(REJECTED.has(e.reason) ? REDEEM_STATUS.rejectedByHost : REDEEM_STATUS.timeout);
}

export class SasAuthority implements TicketAuthority {
  private readonly cycles = new Map<number, TicketRedemption>();
  /**
   * Each station's newest approval, for `confirm` to say the amount stacked (0x71 FF). One per
   * station, not one per attempt: `end` acts only on the station's current cycle, the one whose
   * number it names, and a newer ticket's `begin` replaces it, so an older approval's amount
   * could never be said again. Kept per attempt, an approval that no confirm or cancel followed
   * (left by the acceptor, held for a person; an answer after its attempt ended) stayed for the
   * life of the process. Matched by number: the cycle `end` ends is the one with that number.
   */
  private readonly attempts = new Map<number, { requestId: RequestId; validation: string; amount: number }>();

  constructor(private readonly d: SasAuthorityDeps) {}

  /**
   * The station's redemption cycle, which its SAS link's ticket polls answer from. Made at a start
   * with the station's last end, as the cycle before the restart held it: a 0x71 FF whose answer
   * the restart cut off (its 0x68 acknowledged, so not raised again) is answered still.
   */
  redemption(station: number): TicketRedemption {
    let r = this.cycles.get(station);
    if (!r) {
      r = new TicketRedemption();
      const last = this.d.lastTicketEnd(station);
      if (last) r.reportEnd(endedOf(last), true);
      this.cycles.set(station, r);
    }
    return r;
  }

  /** Exception 0x68 raised at `station` for the journal's entry `seq`: 0x71 FF answers that ticket's end until the system has read it (§15.12). */
  transferComplete(station: number, seq: number): void {
    const e = this.d.ticketEnd(seq);
    if (e && e.station === station) this.redemption(station).reportEnd(endedOf(e));
  }

  /**
   * Long poll 0x4C: the first id the system sets is the table's for good (every station of a table
   * numbers under one id; a number is never made twice under it, so the system's sequence is not
   * taken: the journal's count goes on); a machine id of 0 only reads. An id already another
   * authority's for this table is not taken: the answer says 0 (none set), and the table prints
   * no ticket until the system sets another.
   */
  validationId(requested: SasValidationId): SasValidationId {
    const current = this.d.store.get();
    if (requested.machineId !== 0 && current === null && !this.d.idTaken(requested.machineId)) {
      try {
        this.d.store.set(requested.machineId);
      } catch {
        // Not journalled (a full disk): not taken. 0x4C answers none set, and the system sets it again.
      }
    }
    return { machineId: this.d.store.get() ?? 0, sequence: this.d.lastSequence() };
  }

  machineId(): Promise<{ ok: true; machineId: number } | { ok: false; detail: string }> {
    const id = this.d.store.get();
    return Promise.resolve(id === null ? { ok: false, detail: 'the casino system has not set a validation id (long poll 0x4C)' } : { ok: true, machineId: id });
  }

  registerIssue(): Promise<AuthorityAck> {
    return Promise.resolve({ ok: true });
  }
  registerPrinted(): Promise<AuthorityAck> {
    return Promise.resolve({ ok: true });
  }
  registerVoid(): Promise<AuthorityAck> {
    return Promise.resolve({ ok: true });
  }

  async redeem(q: RedeemRequest): Promise<RedeemAnswer> {
    const cycle = this.cycles.get(q.station);
    // No system that could answer believably: the line is the station machine's own.
    if (!cycle || this.d.unbelieved?.has(q.station)) return { kind: 'refused', requestId: q.requestId, reason: 'offline' };
    if (this.d.paidHere(q.validation)) return { kind: 'refused', requestId: q.requestId, reason: 'already-paid' };
    const d: SystemDecision = await cycle.begin(q.validation, q.limit, q.requestId);
    if (d.kind === 'refused') return { kind: 'refused', requestId: q.requestId, reason: d.reason };
    this.attempts.set(q.station, { requestId: q.requestId, validation: q.validation, amount: d.amount });
    return { kind: 'approved', requestId: q.requestId, validation: q.validation, amount: d.amount, currency: q.currency };
  }

  confirm(requestId: RequestId, t: TicketAt): Promise<AuthorityAck> {
    const a = this.attempts.get(t.station);
    this.forget(requestId, t.station);
    this.cycles.get(t.station)?.end(t.validation, 'stacked', a?.requestId === requestId ? a.amount : 0, requestId);
    return Promise.resolve({ ok: true });
  }

  cancel(requestId: RequestId, t: TicketAt): Promise<AuthorityAck> {
    this.forget(requestId, t.station);
    this.cycles.get(t.station)?.end(t.validation, t.why === 'credit-limit' ? 'credit-limit' : 'returned', 0, requestId);
    return Promise.resolve({ ok: true });
  }

  /** The attempt ended: its approval is forgotten (another, newer one of the station's is kept). */
  private forget(requestId: RequestId, station: number): void {
    if (this.attempts.get(station)?.requestId === requestId) this.attempts.delete(station);
  }
}
