// The one event model of every bill acceptor, whatever its protocol. Amounts are integer minor
// units. The credit callback is awaited before the device is acknowledged, so the host can
// journal the credit first; see docs/protocols/id003.md and ssp.md for each protocol's credit point.
import type { Clock } from '../clock.js';
import type { Currency } from './notes.js';
import type { WireFrame } from '../wire-frame.js';

export interface Note {
  /** Face value in major units, e.g. 100 for a HK$100 note. */
  denomination: number;
  /** Integer minor units (denomination × 100). */
  amount: number;
  currency: Currency;
  /** Protocol code of the note: ID-003 escrow code or SSP channel. */
  code: number;
}

/** A note seen in escrow, with the id the host journals it under. */
export interface EscrowedNote extends Note {
  escrowId: string;
}

/** A barcode ticket (TITO) in escrow: ID-003 escrow code 0x6F with the ticket's 18 digits. */
export interface EscrowedTicket {
  /** The validation number the barcode carries: 18 digits, checked by the driver. */
  validationNumber: string;
  /** The id the host journals the ticket's escrow under (the same when the same ticket is asked about again). */
  escrowId: string;
}

export interface Credit {
  escrowId: string;
  amount: number;
  currency: Currency;
  denomination: number;
  /** True when the credit was resolved after a power cut / reconnect rather than seen live. */
  recovered: boolean;
}

export type BillAcceptorEvent =
  | { type: 'connected'; protocol: string; firmware?: string; serial?: string }
  | { type: 'escrowed'; note: EscrowedNote }
  | { type: 'stacking'; note: EscrowedNote }
  | ({ type: 'credit' } & Credit)
  | { type: 'stacked'; escrowId?: string }
  | { type: 'returned'; note?: EscrowedNote; reason: 'host' | 'escrow-timeout' | 'not-accepted' | 'power-up' | 'device' }
  | { type: 'rejected'; reason: string; code?: number }
  | { type: 'jam'; where: 'acceptor' | 'stacker' | 'unknown'; note?: EscrowedNote; ticket?: EscrowedTicket }
  /** A ticket in escrow (ID-003 0x6F): the host asks the validation authority and answers STACK or RETURN (`onTicket`). */
  | { type: 'ticketEscrowed'; ticket: EscrowedTicket }
  /**
   * The ticket the host told to stack is in the stacker (VEND VALID, or a power-up with it in the
   * stacker: `recovered`): said after `onTicketStacked` resolved, before the unit is acknowledged.
   */
  | { type: 'ticketStacked'; ticket: EscrowedTicket; recovered: boolean }
  | { type: 'ticketReturned'; ticket: EscrowedTicket; reason: 'host' | 'escrow-timeout' | 'power-up' | 'device' }
  /** A ticket given back without asking the host: the table takes no tickets, or its barcode is not 18 digits. */
  | { type: 'ticketRefused'; reason: 'tickets-off' | 'bad-length' | 'not-digits'; barcode: string }
  | { type: 'stackerFull' }
  | { type: 'stackerRemoved' }
  | { type: 'stackerReplaced' }
  | { type: 'cheated' }
  | { type: 'failure'; reason: string; code?: number }
  | { type: 'faultCleared' }
  | { type: 'idle'; enabled: boolean }
  | { type: 'disconnected'; reason: string }
  | { type: 'reconnected' }
  /**
   * The device came back from a power cut (or a link loss treated as one). `notePending` is where
   * the device says a note was: in the stacker means a credit is owed (it follows as a `credit`
   * event with recovered=true when the note is known); in the acceptor means it is returned.
   */
  | { type: 'powerUp'; notePending: 'none' | 'acceptor' | 'stacker'; note?: EscrowedNote; ticket?: EscrowedTicket; creditOwed: boolean }
  /** The device reports a credit the host cannot value (note unknown): manual reconciliation. */
  | { type: 'unvaluedCredit'; reason: string; code?: number }
  /**
   * The device reported something its protocol does not allow after what the host saw and
   * commanded (a credit for a note told to go back, an escrow that changed after STACK, a credit
   * with no escrow…). Nothing is credited for it, and the note it concerns (if any) never will be
   * by this driver: a cheat or a broken device, for a supervisor. `report` is the device's words.
   */
  | { type: 'protocolViolation'; rule: ViolationRule; report: string; note?: EscrowedNote; ticket?: EscrowedTicket };

/**
 * What a device claimed that the protocol forbids (docs/protocols/*.md, "Transition table"):
 * - `credit-without-escrow`: a credit point with no note in escrow;
 * - `credit-without-stack`: a credit point, or the note moving to the stacker, for a note the host had not told to stack;
 * - `credit-after-return`: the same, for a note the host told to go back;
 * - `credit-repeated`: a credit point, or a note in escrow, again after a note was credited;
 * - `credit-value-mismatch`: a credit of another value than the note in escrow (SSP names the channel);
 * - `escrow-changed`: another note in escrow while one was held or told to stack;
 * - `note-vanished`: a note told to stack that left the escrow without a credit point or a return,
 *   or is still reported on its way after `stackTimeoutMs`;
 * - `credited-note-returned`: a note already credited reported as given back;
 * - `returned-while-stacking`: a note the host told to stack reported as given back at power-up
 *   (SSP's NOTE CLEARED FROM FRONT), or by REJECTING / REJECTED after the device said it was
 *   stacking it: the validator may have stacked it, its credit unseen, so it is disputed (settled
 *   by the drop count), never taken back on the device's word;
 * - `jammed-while-stacking`: a jam after the device said it was stacking the note told to stack
 *   (SSP): the note may be in the cashbox, its credit unseen, so its credit is disputed (settled by
 *   the drop count), not left to the technician in silence;
 * - `dataset-mismatch`: the validator values a channel otherwise than the table's dataset (SSP's
 *   SETUP REQUEST): that channel takes no note;
 * - `dataset-changed`: the device values a channel or escrow code otherwise than it first did (SSP's
 *   SETUP REQUEST, ID-003's currency-assign table, read again after a reset or reconnect): that
 *   channel or code takes no note until the host restarts;
 * - `return-refused`: a note or ticket told to go back still in escrow after `stackTimeoutMs` (ID-003);
 * - `clearing-without-reset`: SSP's NOTE CLEARED FROM FRONT / INTO CASHBOX (power-up reports)
 *   in the middle of a session, with no reset: nothing is credited or said returned for it;
 * - `unreadable-report`: a report the driver cannot read (an event SSP's version in use does not
 *   have): whatever it said of a note, a credit among it, is lost.
 * - `reply-conflict`: two different replies to one packet (SSP's sequence flag): one of them is not
 *   the validator's answer (a stale or forged reply), and what the other said of a note is unknown;
 *   a note that may sit in escrow is rejected, and none is taken until the validator is quiet.
 */
export type ViolationRule =
  | 'credit-without-escrow'
  | 'credit-without-stack'
  | 'credit-after-return'
  | 'credit-repeated'
  | 'credit-value-mismatch'
  | 'escrow-changed'
  | 'note-vanished'
  | 'credited-note-returned'
  | 'returned-while-stacking'
  | 'jammed-while-stacking'
  | 'dataset-mismatch'
  | 'dataset-changed'
  | 'clearing-without-reset'
  | 'return-refused'
  | 'unreadable-report'
  | 'reply-conflict';

export type EscrowDecision = 'stack' | 'return';

export interface BillAcceptorOptions {
  currency: Currency;
  /** Denominations (major units) the table accepts; default all notes of the currency. */
  accept?: readonly number[];
  /**
   * Called with each note in escrow. Journal it, then answer 'stack' or 'return'. Unanswered
   * within escrowTimeoutMs, the note is returned. Default: stack every accepted note.
   */
  onEscrow?: (note: EscrowedNote) => EscrowDecision | Promise<EscrowDecision>;
  /** Called at the protocol's credit point; the device is acknowledged after it resolves. */
  onCredit?: (credit: Credit) => void | Promise<void>;
  /**
   * A note the host journalled as escrowed (and sent to the stacker) but never saw credited, from
   * before a restart. Used to value a power-up "note in stacker" report.
   */
  pendingNote?: (EscrowedNote & { stackSent: boolean }) | null;
  /**
   * The note the host credited last at this unit, from before a restart, when nothing was escrowed
   * there after it. A host that stopped between journalling a credit and acknowledging it leaves
   * the unit repeating its credit report (ID-003's VEND VALID repeats until ACK): that repeat, among
   * the unit's first reports, is acknowledged and credits nothing, rather than taken for a credit
   * out of nowhere (a protocol violation, and the station held as a cheat); and ID-003's POWER UP
   * WITH BILL IN STACKER there (the unit's power cut with the host's) is that note, not one to value.
   */
  lastCredit?: EscrowedNote | null;
  /**
   * ID-003 barcode tickets: called with each ticket in escrow (18 digits, checked). Journal it, ask
   * the validation authority, answer 'stack' or 'return'; HOLD keeps the ticket in escrow meanwhile,
   * for at most `ticketEscrowTimeoutMs` (then it is returned). Absent, tickets are refused.
   */
  onTicket?: (ticket: EscrowedTicket) => EscrowDecision | Promise<EscrowDecision>;
  /** The ticket told to stack is stacked: confirm its redemption. The unit is acknowledged after it resolves; a throw withholds the ACK. */
  onTicketStacked?: (ticket: EscrowedTicket, recovered: boolean) => void | Promise<void>;
  /** Default 15 s: an authority's round trip, longer than a note's decision. */
  ticketEscrowTimeoutMs?: number;
  /**
   * The ticket the host journalled stacked last at this unit, from before a restart, when nothing
   * was taken there since: a host stopped between that entry and the ACK leaves the unit repeating
   * VEND VALID (ID-003), acknowledged among its first reports and telling nothing, as `lastCredit`'s.
   */
  lastTicket?: EscrowedTicket | null;
  /** A ticket the host journalled as escrowed (and told to stack) but never saw stacked, from before a restart. */
  pendingTicket?: (EscrowedTicket & { stackSent: boolean }) | null;
  /** Start accepting as soon as the device is ready (default false: call enable()). */
  enabled?: boolean;
  escrowTimeoutMs?: number;
  /**
   * A note told to stack that the device then reports nothing of (no stacking, credit or return)
   * for this long is a `note-vanished` violation (SSP, whose events can be left out of a reply);
   * for ID-003, a note or ticket still reported stacking, or still in escrow, for this long.
   */
  stackTimeoutMs?: number;
  pollIntervalMs?: number;
  replyTimeoutMs?: number;
  /** Attempts per command before the link is considered lost. */
  retries?: number;
  reconnectBaseMs?: number;
  reconnectMaxMs?: number;
  clock?: Clock;
}

export interface BillAcceptor {
  readonly protocol: 'id003' | 'ssp';
  readonly currency: Currency;
  on(listener: (e: BillAcceptorEvent) => void): () => void;
  /** Every frame on the wire, hex and decoded; nothing is kept by the driver. */
  onFrame(listener: (f: WireFrame) => void): () => void;
  /** Begin connecting (idempotent). */
  start(): void;
  enable(): void;
  disable(): void;
  setAccepted(denominations: readonly number[]): void;
  close(): Promise<void>;
}
