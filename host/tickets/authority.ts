// The validation authority (issue 47 item 4; docs/tito.md): who says whether a ticket is paid.
// The table host asks it and never decides a ticket on its own. The upstream is its first
// implementation (`UpstreamAuthority`, host/tickets/upstream-authority.ts, over the upstream's
// /v1/tickets routes); the casino's own system takes its place over SAS (issue 48) behind this
// same interface:
//
//   machineId          SAS long poll 0x4C (the host sets the machine's validation id and sequence)
//   registerIssue/…    SAS exception 0x3D and long poll 0x4D (the system reads each ticket printed)
//   redeem             SAS exception 0x67 "ticket inserted", long poll 0x70 (the machine sends the
//                      number), long poll 0x71 (the system answers a transfer code and amount)
//   confirm / cancel   SAS exception 0x68 "ticket transfer complete" and 0x71's status (stacked or
//                      rejected)
//
// Every implementation is held to the same rules, which `guardAuthority` (host/tickets/guard.ts)
// enforces around it so that no implementation's lie pays twice:
// - a redemption is keyed by the table's `requestId` (journalled before asking), so asking again
//   is answered the same, and a cancel names an attempt even when its answer never arrived;
// - an approval is for the ticket, the request, the currency asked and an amount within the limit
//   asked, or it is not believed;
// - no answer within the deadline is `offline`: the ticket goes back, and the attempt is
//   cancelled (now, and again by the journal's `ticket.redeem.returned` when the table syncs);
// - the register calls are a fast path only: the table's journal reaches the authority anyway
//   (`ticket.issue`, `ticket.printed`, `ticket.void`), and an authority must take them again
//   idempotently.
import type { RequestId, TicketRefusal, TicketTerms } from '../../terms/ticket-terms.js';
import type { ValidationNumber } from '../../terms/validation-number.js';

/** A ticket at a station of this table (the table itself is the authenticated caller). */
export interface TicketAt {
  readonly validation: ValidationNumber;
  readonly station: number;
  /** Why the table cancels (a cancel only): `credit-limit`, the station's credit would pass its limit. */
  readonly why?: 'credit-limit';
}

/** One attempt to redeem: the ticket in escrow at a station. */
export interface RedeemRequest extends TicketAt {
  readonly requestId: RequestId;
  /** The table's currency: a ticket in another is refused (`other-currency`). */
  readonly currency: string;
  /** The most this table takes by one ticket (minor units): above it, `over-limit`. */
  readonly limit: number;
}

export type RedeemAnswer =
  | {
      readonly kind: 'approved';
      readonly requestId: RequestId;
      readonly validation: ValidationNumber;
      /** What to credit (minor units), once the acceptor stacks it. */
      readonly amount: number;
      readonly currency: string;
    }
  | { readonly kind: 'refused'; readonly requestId: RequestId; readonly reason: TicketRefusal };

/** A word the authority took, or why not (the journal carries it later either way). */
export type AuthorityAck = { readonly ok: true } | { readonly ok: false; readonly reason: 'offline' | 'refused'; readonly detail: string };

export interface TicketAuthority {
  /**
   * The validation id this table makes its numbers under (assigned once, then kept by the table);
   * `proposed`, the one its configuration or its journal's tickets name, is taken if it is free.
   */
  machineId(proposed?: number): Promise<{ readonly ok: true; readonly machineId: number } | { readonly ok: false; readonly detail: string }>;
  /**
   * The id this authority last gave the table, kept across a restart (host/tickets/floor-id.ts),
   * or null before its first answer; absent where the authority keeps none of its own.
   */
  knownMachineId?(): number | null;
  /** A ticket's credit left its station's meter (`ticket.issue`); not yet redeemable. */
  registerIssue(terms: TicketTerms): Promise<AuthorityAck>;
  /** The printer printed it (`ticket.printed`): redeemable from now on. */
  registerPrinted(ticket: TicketAt): Promise<AuthorityAck>;
  /** It was not printed and the credit went back (`ticket.void`): never redeemable. */
  registerVoid(ticket: TicketAt): Promise<AuthorityAck>;
  /**
   * Asks to redeem a ticket in escrow. An approval holds the ticket for this attempt (pending) in
   * the same transaction that approves it: no other station can be approved for it until this one
   * is cancelled.
   */
  redeem(request: RedeemRequest): Promise<RedeemAnswer>;
  /** The acceptor stacked the ticket and the station was credited (`ticket.redeem.stacked`): paid. */
  confirm(request: RequestId, ticket: TicketAt): Promise<AuthorityAck>;
  /**
   * The ticket went back to the player (`ticket.redeem.returned`): redeemable again. Valid for an
   * attempt whose answer never came: the authority then refuses any later approval of it.
   */
  cancel(request: RequestId, ticket: TicketAt): Promise<AuthorityAck>;
}
