// Ticket redemption through the casino's system (SAS 6.02 §15, ticket redemption; docs/sas.md,
// "Tickets through SAS"): one ticket at a time per machine. The station holds the ticket in
// escrow and asks (`begin`); the system hears exception 0x67 (raised from the journal's
// `ticket.redeem.request`), reads the number by long poll 0x70 and answers by long poll 0x71 with
// a transfer code and an amount. The first 0x71 that decides is the only one that counts: a
// second one (the same or another amount, another code) is "not compatible with the current
// redemption cycle" (0xC0) and changes nothing. What the station then does (stacked, or returned)
// ends the cycle (`end`), the system hears 0x68 (from the journal again) and reads the outcome by
// 0x71 with transfer code FF. Nothing here waits: the host's guard holds the deadline and calls
// `end` when it passes, after which a late 0x71 approves nothing.
//
// 0x71 FF answers the ticket whose end exception 0x68 reported (§15.12's cycle: 68, then 71 FF,
// then "the final status"), not whichever cycle is newest: the host names that end as it raises
// 0x68 (`reportEnd`, from the journal, so a restart keeps it), and it stands until the system has
// read it or begins the next ticket's cycle with 0x70 (§15.12, step 1). A second ticket inserted
// before then waits its turn at 0x71 FF; it is taken and decided as before.

/** 0x71's transfer codes (Table 15.12c): what the system says of the ticket. */
export const TRANSFER = {
  cashable: 0x00,
  restrictedPromo: 0x01,
  nonRestrictedPromo: 0x02,
  unableToValidate: 0x80,
  notValid: 0x81,
  notInSystem: 0x82,
  markedPending: 0x83,
  alreadyRedeemed: 0x84,
  expired: 0x85,
  infoNotAvailable: 0x86,
  amountMismatch: 0x87,
  overAutoRedemptionLimit: 0x88,
  statusRequest: 0xff,
} as const;

/** 0x71's machine status (Table 15.12d): where the ticket stands at the machine. */
export const REDEEM_STATUS = {
  cashableRedeemed: 0x00,
  waitingFor71: 0x20,
  pending: 0x40,
  rejectedByHost: 0x80,
  validationMismatch: 0x81,
  notValidFunction: 0x82,
  notValidAmount: 0x83,
  overLimit: 0x84,
  unableNow: 0x87,
  timeout: 0x88,
  linkDown: 0x89,
  validatorFailure: 0x8b,
  notCompatible: 0xc0,
  noInfo: 0xff,
} as const;

/** Why the system refused, in the table's words (terms/ticket-terms.ts's refusals that SAS can say). */
export type SystemRefusal = 'unknown' | 'already-paid' | 'pending-elsewhere' | 'expired' | 'over-limit' | 'offline';

export type SystemDecision = { kind: 'approved'; amount: number } | { kind: 'refused'; reason: SystemRefusal; code: number };

const REFUSAL_OF: ReadonlyMap<number, SystemRefusal> = new Map([
  [TRANSFER.unableToValidate, 'offline'],
  [TRANSFER.notValid, 'unknown'],
  [TRANSFER.notInSystem, 'unknown'],
  [TRANSFER.markedPending, 'pending-elsewhere'],
  [TRANSFER.alreadyRedeemed, 'already-paid'],
  [TRANSFER.expired, 'expired'],
  [TRANSFER.infoNotAvailable, 'offline'],
  [TRANSFER.amountMismatch, 'unknown'],
  [TRANSFER.overAutoRedemptionLimit, 'over-limit'],
]);

/** How a cycle ended at the station; `credit-limit`: returned because the station's credit would pass its limit. */
export type RedemptionEnd = 'stacked' | 'returned' | 'timeout' | 'link-down' | 'credit-limit';

/** A ticket's end as 0x71 FF reports it (Table 15.12d): 00 redeemed with its amount, or a rejection (80–8B). */
export interface RedemptionEnded {
  /** The station's name for the attempt (the table's request id). */
  attempt: string;
  validation: string;
  status: number;
  /** Cents (minor units); 0 unless redeemed. */
  amount: number;
}

interface Cycle {
  attempt: string | null;
  /** 18 digits: the 2-digit system id and the 16-digit number, as the barcode read it. */
  validation: string;
  /** The most one ticket may pay here (cents: minor units). */
  limit: number;
  state: 'waiting' | 'approved' | 'refused' | 'ended';
  amount: number;
  status: number;
  decide: ((d: SystemDecision) => void) | null;
}

/** 0x70's answer: a ticket in escrow awaiting the system, or none. */
export type EscrowView = { validation: string } | null;

/** 0x71's answer: a machine status, and (except for C0 and FF) the amount and the ticket's number; `onAck` once the host has it (§3.1). */
export interface RedeemReply {
  status: number;
  amount: number;
  validation: string | null;
  onAck?: () => void;
}

/** One machine's redemption cycle, between the station (begin/end) and the system's polls (0x70/0x71). */
export class TicketRedemption {
  private cycle: Cycle | null = null;
  /** The cycle `begin` replaced: its end may be the one 0x68 reports after the next ticket came. */
  private previous: Cycle | null = null;
  private reported: { end: RedemptionEnded; read: boolean } | null = null;

  /** A ticket is in escrow: the system is to decide it. Resolves with the first decision believed, or never (the caller's deadline ends it). */
  begin(validation: string, limit: number, attempt: string | null = null): Promise<SystemDecision> {
    this.abandon('timeout');
    this.previous = this.cycle;
    return new Promise((resolve) => {
      this.cycle = { attempt, validation, limit, state: 'waiting', amount: 0, status: REDEEM_STATUS.waitingFor71, decide: resolve };
    });
  }

  /**
   * Exception 0x68 reports this ticket's end: 0x71 FF answers it until the host has it (`read`:
   * it had it already, e.g. the last end before a restart, answered only while no cycle is newer).
   */
  reportEnd(end: RedemptionEnded, read = false): void {
    this.reported = { end, read };
  }

  /**
   * The station ended the cycle: `stacked` (paid) for `amount`, or the ticket went back (returned,
   * the deadline passed, the link went down). `attempt`: the station's attempt that ended; the end
   * of an older attempt of the same ticket (one held for a person, settled while the ticket, in
   * again, is in a new cycle) is not this cycle's, and changes nothing.
   */
  end(validation: string, how: RedemptionEnd, amount = 0, attempt: string | null = null): void {
    const c = this.cycle;
    if (!c || c.validation !== validation || c.state === 'ended') return;
    if (attempt !== null && c.attempt !== null && c.attempt !== attempt) return;
    const was = c.state;
    c.state = 'ended';
    this.settle(c, { kind: 'refused', reason: 'offline', code: REDEEM_STATUS.timeout }); // a decision nobody waits for any more
    if (how === 'stacked' && was === 'approved') {
      c.status = REDEEM_STATUS.cashableRedeemed;
      c.amount = amount;
      return;
    }
    c.amount = 0;
    if (was === 'refused') return; // the system's own refusal stands as the outcome
    // Table 15.12d's 84 (above the machine's credit limit): the system reads why, not an acceptor's failure.
    if (how === 'credit-limit') c.status = REDEEM_STATUS.overLimit;
    else if (was === 'approved')
      c.status = REDEEM_STATUS.validatorFailure; // approved, then not stacked: the acceptor gave it back
    else c.status = how === 'link-down' ? REDEEM_STATUS.linkDown : REDEEM_STATUS.timeout;
  }

  /** Long poll 0x70. */
  escrow(): EscrowView {
    const c = this.cycle;
    if (!c || c.state !== 'waiting') return null;
    // §15.12: a cycle begins with 0x70; the system asking for this ticket is done with the end before it.
    if (this.reported) this.reported.read = true;
    return { validation: c.validation };
  }

  /** Long poll 0x71: the system's transfer code, amount (cents, or null if not BCD) and the number it names. */
  redeem(code: number, amount: number | null, validation: string): RedeemReply {
    const c = this.cycle;
    if (code === TRANSFER.statusRequest) return this.status();
    if (!c || c.state !== 'waiting') return { status: REDEEM_STATUS.notCompatible, amount: 0, validation: null };
    if (validation !== c.validation) return this.reply(c, REDEEM_STATUS.validationMismatch);
    const refusal = REFUSAL_OF.get(code) ?? (code >= 0x80 ? 'unknown' : null);
    if (refusal !== null) return this.refuse(c, { kind: 'refused', reason: refusal, code }, REDEEM_STATUS.rejectedByHost);
    if (code !== TRANSFER.cashable) return this.reply(c, REDEEM_STATUS.notValidFunction); // promotional credits: the kiosk has none
    if (amount === null || amount <= 0) return this.reply(c, REDEEM_STATUS.notValidAmount);
    if (amount > c.limit) return this.refuse(c, { kind: 'refused', reason: 'over-limit', code }, REDEEM_STATUS.overLimit);
    c.state = 'approved';
    c.amount = amount;
    c.status = REDEEM_STATUS.pending;
    this.settle(c, { kind: 'approved', amount });
    return this.reply(c, REDEEM_STATUS.pending);
  }

  private refuse(c: Cycle, d: SystemDecision, status: number): RedeemReply {
    c.state = 'refused';
    c.status = status;
    this.settle(c, d);
    return this.reply(c, status);
  }

  private settle(c: Cycle, d: SystemDecision): void {
    const decide = c.decide;
    c.decide = null;
    decide?.(d);
  }

  /** 0x71 FF: the end 0x68 reported until the host has it; else where the current (or last) ticket stands. */
  private status(): RedeemReply {
    const r = this.reported;
    if (r && !r.read) {
      return {
        ...this.ended(r.end),
        onAck: () => {
          r.read = true;
        },
      };
    }
    const c = this.cycle;
    if (c) return this.reply(c, c.status);
    return r ? this.ended(r.end) : { status: REDEEM_STATUS.noInfo, amount: 0, validation: null };
  }

  /**
   * A reported end: redeemed as reported (the journal's credit); a rejection as this station's own
   * cycle said it while it still has that cycle, for the journal keeps why in the table's words
   * (a system's 80 and a timeout's 88 are both `offline` there).
   */
  private ended(e: RedemptionEnded): RedeemReply {
    const own = [this.cycle, this.previous].find((c) => c?.attempt === e.attempt && c.state === 'ended');
    const rejected = (s: number): boolean => s !== REDEEM_STATUS.cashableRedeemed;
    const status = own && rejected(e.status) && rejected(own.status) ? own.status : e.status;
    return { status, amount: status === REDEEM_STATUS.cashableRedeemed ? e.amount : 0, validation: e.validation };
  }

  private reply(c: Cycle, status: number): RedeemReply {
    return { status, amount: status === REDEEM_STATUS.cashableRedeemed || status === REDEEM_STATUS.pending ? c.amount : 0, validation: c.validation };
  }

  /** A new ticket replaces a cycle the station never ended (it cannot be approved any more). */
  private abandon(how: RedemptionEnd): void {
    const c = this.cycle;
    if (c && c.state !== 'ended') this.end(c.validation, how);
  }
}
