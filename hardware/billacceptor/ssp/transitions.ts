// The SSP driver's note cycle as a table: each note event a POLL reply may carry, from each phase
// of the cycle, either moves the cycle on or breaks the protocol. Why each cell is what it is:
// docs/protocols/ssp.md ("Transition table"). SSP events are never lost on the wire (a lost reply
// is asked for again with the same sequence flag), so within a session the host sees every event;
// after SYNC (a new session) a note may have come and gone unseen, which only READ needs to know.
import { EVENT, type SspEvent } from './constants.js';
import type { Phase, TransitionTable } from '../note-phase.js';

export type SspReport =
  /** READ 0: a note is being read. */
  | 'read-reading'
  /** READ with the channel of the note in the cycle. */
  | 'read-same'
  /** READ with another channel (or after a credit) in the same session. */
  | 'read-other'
  /** READ with no note in the cycle, or in a new session. */
  | 'read-new'
  | 'stacking'
  /** NOTE CREDIT with the channel of the note in the cycle. */
  | 'credit-same'
  | 'credit-other'
  | 'stacked'
  | 'rejecting'
  | 'rejected'
  /**
   * REJECTING / REJECTED for the note of the cycle after the validator said STACKING for it: it
   * had taken the note, so "given back" is its word against the cashbox.
   */
  | 'rejecting-taken'
  | 'rejected-taken'
  /** NOTE CLEARED FROM FRONT (power-up): the note went back. */
  | 'cleared-front'
  /** NOTE CLEARED INTO CASHBOX (power-up) with the channel of the note in the cycle, or 0 (unknown). */
  | 'cleared-cashbox-same'
  | 'cleared-cashbox-other'
  /** A POLL reply with no note event at all. */
  | 'quiet';

export type SspAction =
  | 'none'
  /** Ask the host about the note in escrow (HOLD meanwhile), then let the next POLL take it or REJECT it. */
  | 'offer'
  /** The note of the cycle went back unseen (a new session), unless it was credited; a new one is offered. */
  | 'replace'
  | 'reject-again'
  /** Credit (journalled by the host first); the next POLL, which acknowledges it, waits for that. */
  | 'credit'
  | 'stacking'
  /** STACKED after the credit: the cycle is over. */
  | 'stacked'
  /** The validator gives the note back (returned, by the device, unless said already). */
  | 'returning'
  /** The cycle is over; a note not credited went back. */
  | 'settle'
  /** NOTE CLEARED FROM FRONT: the note of the cycle (if any) went back. */
  | 'power-up-return'
  /** NOTE CLEARED INTO CASHBOX for the note the host let the validator take: credit (recovered). */
  | 'recover-credit'
  /** NOTE CLEARED INTO CASHBOX and nothing on record: the host cannot value it. */
  | 'unvalued'
  /** A power-up clearing event with nothing owed. */
  | 'power-up'
  /** A quiet poll while a note taken to the stacker is not yet credited: given `stackTimeoutMs`, then `note-vanished`. */
  | 'watch';

export const SSP_TRANSITIONS: TransitionTable<SspReport, SspAction> = {
  idle: {
    'read-reading': 'none',
    'read-same': 'offer',
    'read-other': 'offer',
    'read-new': 'offer',
    stacking: { fault: 'credit-without-escrow' },
    'credit-same': { fault: 'credit-without-escrow' },
    'credit-other': { fault: 'credit-without-escrow' },
    stacked: 'none',
    rejecting: 'none',
    rejected: 'none',
    'rejecting-taken': 'none',
    'rejected-taken': 'none',
    'cleared-front': 'power-up',
    'cleared-cashbox-same': 'unvalued',
    'cleared-cashbox-other': 'unvalued',
    quiet: 'none',
  },
  escrow: {
    // The driver sends no POLL while a note waits for the host (a POLL would take it), so these
    // are reports of a validator that moved a note nobody told it to.
    'read-reading': { fault: 'escrow-changed' },
    'read-same': 'offer',
    'read-other': { fault: 'escrow-changed' },
    'read-new': 'replace',
    stacking: { fault: 'credit-without-stack' },
    'credit-same': { fault: 'credit-without-stack' },
    'credit-other': { fault: 'credit-without-stack' },
    stacked: { fault: 'credit-without-stack' },
    rejecting: 'returning',
    rejected: 'settle',
    'rejecting-taken': 'returning',
    'rejected-taken': 'settle',
    'cleared-front': 'power-up-return',
    'cleared-cashbox-same': { fault: 'credit-without-stack' },
    'cleared-cashbox-other': { fault: 'credit-without-stack' },
    quiet: 'none',
  },
  'stack-sent': {
    'read-reading': { fault: 'escrow-changed' },
    'read-same': 'none',
    'read-other': { fault: 'escrow-changed' },
    'read-new': { fault: 'escrow-changed' },
    stacking: 'stacking',
    'credit-same': 'credit',
    'credit-other': { fault: 'credit-value-mismatch' },
    stacked: { fault: 'note-vanished' },
    rejecting: 'returning',
    rejected: 'settle',
    // After STACKING the validator had the note: it may be in the cashbox with its NOTE CREDIT lost
    // (a reply lost for good), so a return is disputed, never believed. Before STACKING a return is
    // honest (the accepting POLL never reached the validator, which gave the note back after its
    // 10 s). Found analysing the hostile fuzz's seed 704 (tests/security/hostile-acceptor.test.ts).
    'rejecting-taken': { fault: 'returned-while-stacking' },
    'rejected-taken': { fault: 'returned-while-stacking' },
    // The validator was let take the note: it may be in the cashbox with its NOTE CREDIT lost (a
    // reply lost for good), so "cleared from front" is its word against the cashbox. Disputed, never
    // a silent return (found by the hostile fuzz, seed 704; docs/protocols/ssp.md).
    'cleared-front': { fault: 'returned-while-stacking' },
    'cleared-cashbox-same': 'recover-credit',
    'cleared-cashbox-other': { fault: 'credit-value-mismatch' },
    quiet: 'watch',
  },
  'return-sent': {
    'read-reading': 'settle',
    // Still in escrow after REJECT: the next POLL would take it, so REJECT again first.
    'read-same': 'reject-again',
    'read-other': { fault: 'escrow-changed' },
    'read-new': 'replace',
    stacking: { fault: 'credit-after-return' },
    'credit-same': { fault: 'credit-after-return' },
    'credit-other': { fault: 'credit-after-return' },
    stacked: { fault: 'credit-after-return' },
    rejecting: 'none',
    rejected: 'settle',
    'rejecting-taken': 'none',
    'rejected-taken': 'settle',
    'cleared-front': 'power-up-return',
    'cleared-cashbox-same': { fault: 'credit-after-return' },
    'cleared-cashbox-other': { fault: 'credit-after-return' },
    quiet: 'settle',
  },
  credited: {
    'read-reading': 'settle',
    'read-same': { fault: 'credit-repeated' },
    'read-other': { fault: 'credit-repeated' },
    'read-new': 'replace',
    stacking: 'none',
    'credit-same': { fault: 'credit-repeated' },
    'credit-other': { fault: 'credit-repeated' },
    stacked: 'stacked',
    rejecting: 'settle',
    rejected: 'settle',
    'rejecting-taken': 'settle',
    'rejected-taken': 'settle',
    'cleared-front': { fault: 'credited-note-returned' },
    'cleared-cashbox-same': 'power-up',
    'cleared-cashbox-other': 'power-up',
    quiet: 'settle',
  },
  disputed: {
    'read-reading': 'none',
    // No note is taken while the validator is in dispute: each one offered is rejected.
    'read-same': 'reject-again',
    'read-other': 'reject-again',
    'read-new': 'reject-again',
    stacking: 'none',
    'credit-same': 'none',
    'credit-other': 'none',
    stacked: 'none',
    rejecting: 'none',
    rejected: 'settle',
    'rejecting-taken': 'none',
    'rejected-taken': 'settle',
    'cleared-front': 'power-up',
    'cleared-cashbox-same': 'power-up',
    'cleared-cashbox-other': 'power-up',
    quiet: 'settle',
  },
};

/** The note event as the cycle reads it; null for events outside the cycle (faults, SLAVE RESET, DISABLED…). */
export function sspReportOf(
  e: SspEvent,
  phase: Phase,
  held: { code: number; denomination: number } | null,
  valueOf: (channel: number) => number | undefined,
  gap: boolean,
  /** The validator said STACKING for the note of the cycle (it took the note). */
  taken = false,
): SspReport | null {
  const ch = e.data[0] ?? 0;
  const after = phase === 'credited' || phase === 'disputed';
  // A note known from the journal after a restart carries its value, not the channel.
  const same = held !== null && phase !== 'idle' && (held.code === ch || (held.code === 0 && ch > 0 && valueOf(ch) === held.denomination));
  switch (e.code) {
    case EVENT.READ:
      if (ch === 0) return 'read-reading';
      if (!held || phase === 'idle') return 'read-new';
      if (same && !after) return 'read-same';
      return gap ? 'read-new' : 'read-other';
    case EVENT.STACKING:
      return 'stacking';
    case EVENT.CREDIT:
      return same ? 'credit-same' : 'credit-other';
    case EVENT.STACKED:
      return 'stacked';
    case EVENT.REJECTING:
      return taken ? 'rejecting-taken' : 'rejecting';
    case EVENT.REJECTED:
      return taken ? 'rejected-taken' : 'rejected';
    case EVENT.CLEARED_FROM_FRONT:
      return 'cleared-front';
    case EVENT.CLEARED_INTO_CASHBOX:
      return same || (ch === 0 && held !== null) ? 'cleared-cashbox-same' : 'cleared-cashbox-other';
    default:
      return null;
  }
}
