// The ID-003 driver's note cycle as a table: each status report the unit may give, from each phase
// of the cycle, either moves the cycle on or breaks the protocol. Why each cell is what it is:
// docs/protocols/id003.md ("Transition table"). The unit's status is a snapshot polled faster than
// the mechanism moves, and VEND VALID and the POWER UP codes repeat until answered, so without a
// lost reply the host sees every step; after a lost reply or a reconnect (a gap) a new note may
// have come and gone unseen, which only the escrow reports need to know.
import { STATUS, TICKET_ESCROW_CODE } from './constants.js';
import type { Phase, TransitionTable } from '../note-phase.js';

/** A status report as the note cycle reads it. */
export type Id003Report =
  | 'idle'
  | 'accepting'
  /** ESCROW with the code of the note in the cycle (or its value, for a note known from the journal). */
  | 'escrow-same'
  /** ESCROW with another code (or after a credit) and no gap: the unit cannot have changed notes unseen. */
  | 'escrow-other'
  /** ESCROW with no note in the cycle, or after a gap. */
  | 'escrow-new'
  | 'stacking'
  | 'vend-valid'
  | 'stacked'
  /** RETURNING or REJECTING. */
  | 'returning'
  | 'power-up'
  | 'power-up-acceptor'
  | 'power-up-stacker';

export type Id003Action =
  /** Nothing changes for the note. */
  | 'none'
  /** Ask the host about the note in escrow (a new one, or the same again), then STACK or RETURN. */
  | 'offer'
  /** The note of the cycle went back unseen (across a gap), unless it was credited; a new one is offered. */
  | 'replace'
  | 'stack-again'
  | 'return-again'
  /** Credit (journalled by the host first), then ACK. */
  | 'credit'
  /** ACK a VEND VALID that credits nothing (a repeat for a credited or disputed note). */
  | 'ack'
  | 'stacking'
  | 'stacked'
  /** The unit gives the note back (returned, by the device, unless said already). */
  | 'returning'
  /** The cycle is over; a note escrowed and never told to stack went back. */
  | 'settle'
  /** The note known only from the journal went back before this session (ID003_JOURNALLED_STACK). */
  | 'journal-returned'
  /** POWER UP: the note (if any, never told to stack or told to return) went back; RESET. */
  | 'power-up-return'
  /** POWER UP WITH BILL IN STACKER for the note told to stack: credit (recovered), RESET. */
  | 'recover-credit'
  /** POWER UP WITH BILL IN STACKER and nothing on record: the host cannot value it; RESET. */
  | 'unvalued'
  /** POWER UP with nothing owed; RESET. */
  | 'power-up';

export const ID003_TRANSITIONS: TransitionTable<Id003Report, Id003Action> = {
  idle: {
    idle: 'none',
    accepting: 'none',
    'escrow-same': 'offer',
    'escrow-other': 'offer',
    'escrow-new': 'offer',
    stacking: { fault: 'credit-without-escrow' },
    'vend-valid': { fault: 'credit-without-escrow' },
    stacked: 'none',
    returning: 'none',
    'power-up': 'power-up',
    'power-up-acceptor': 'power-up',
    'power-up-stacker': 'unvalued',
  },
  escrow: {
    idle: 'settle',
    accepting: 'settle',
    'escrow-same': 'offer',
    'escrow-other': { fault: 'escrow-changed' },
    'escrow-new': 'replace',
    stacking: { fault: 'credit-without-stack' },
    'vend-valid': { fault: 'credit-without-stack' },
    stacked: { fault: 'credit-without-stack' },
    returning: 'returning',
    'power-up': 'power-up-return',
    'power-up-acceptor': 'power-up-return',
    'power-up-stacker': { fault: 'credit-without-stack' },
  },
  'stack-sent': {
    // A unit told to stack reports VEND VALID until acknowledged, or gives the note back
    // (RETURNING/REJECTING, held for as long as the note takes to come out), or jams.
    idle: { fault: 'note-vanished' },
    accepting: { fault: 'note-vanished' },
    'escrow-same': 'stack-again',
    'escrow-other': { fault: 'escrow-changed' },
    'escrow-new': { fault: 'escrow-changed' },
    stacking: 'stacking',
    'vend-valid': 'credit',
    stacked: { fault: 'note-vanished' },
    returning: 'returning',
    // POWER UP with no bill is the idle state after a reset: the unit holds no note, yet it neither
    // credited nor gave back the one told to stack (a note in its path is 0x41 or 0x42).
    'power-up': { fault: 'note-vanished' },
    'power-up-acceptor': 'power-up-return',
    'power-up-stacker': 'recover-credit',
  },
  'return-sent': {
    idle: 'settle',
    accepting: 'settle',
    'escrow-same': 'return-again',
    'escrow-other': { fault: 'escrow-changed' },
    'escrow-new': 'replace',
    stacking: { fault: 'credit-after-return' },
    'vend-valid': { fault: 'credit-after-return' },
    stacked: { fault: 'credit-after-return' },
    returning: 'returning',
    'power-up': 'power-up-return',
    'power-up-acceptor': 'power-up-return',
    'power-up-stacker': { fault: 'credit-after-return' },
  },
  credited: {
    idle: 'settle',
    accepting: 'settle',
    'escrow-same': { fault: 'credit-repeated' },
    'escrow-other': { fault: 'credit-repeated' },
    'escrow-new': 'replace',
    stacking: 'none',
    'vend-valid': 'ack',
    stacked: 'stacked',
    returning: 'settle',
    'power-up': 'power-up',
    'power-up-acceptor': { fault: 'credited-note-returned' },
    'power-up-stacker': 'power-up',
  },
  disputed: {
    idle: 'settle',
    accepting: 'none',
    // No note is taken while the unit is in dispute: each one offered goes back.
    'escrow-same': 'return-again',
    'escrow-other': 'return-again',
    'escrow-new': 'return-again',
    stacking: 'none',
    'vend-valid': 'ack',
    stacked: 'none',
    returning: 'none',
    'power-up': 'power-up',
    'power-up-acceptor': 'power-up',
    'power-up-stacker': 'power-up',
  },
};

/**
 * The unit's first report of a session whose note is known only from the journal (`pendingNote`,
 * "stack" answered before a restart), where it differs from `stack-sent`'s: the journal records the
 * host's answer, not that STACK reached the unit. A station agent's link may have been cut with the
 * answer on its way, or the host killed between the entry and STACK; the previous driver then gave
 * the note back on its escrow timeout and may have stopped before its return was heard. A unit
 * idle, or powered up with no bill (POWER UP 0x40: its note given back, then the power cut), or
 * taking a new note did not stack this one: a stacked note reports VEND VALID until acknowledged,
 * and no driver acknowledges one before the host journalled its credit. Another note in escrow is a
 * new one, as after any gap. Every other first report (STACKING, VEND VALID, the POWER UP codes
 * with a bill, the same note in escrow) is read as from `stack-sent`, and so is every report after
 * the first.
 */
export const ID003_JOURNALLED_STACK: Readonly<Partial<Record<Id003Report, Id003Action>>> = {
  idle: 'journal-returned',
  accepting: 'journal-returned',
  'power-up': 'power-up-return',
  'escrow-other': 'replace',
  'escrow-new': 'replace',
};

/** A status as a violation names it: its code, and its data bytes if it has any. */
export function describeStatus(s: { code: number; data: Uint8Array }): string {
  const name = Object.entries(STATUS).find(([, v]) => v === s.code)?.[0] ?? 'status';
  const head = `${name.replaceAll('_', ' ')} 0x${s.code.toString(16)}`;
  if (s.code === STATUS.ESCROW && s.data[0] === TICKET_ESCROW_CODE) return `${head} 6f, ${barcodeSaid(s.data.subarray(1))}`;
  return `${head}${s.data.length ? ` ${hexBytes(s.data)}` : ''}`;
}

const hexBytes = (data: Uint8Array): string => Array.from(data, (b) => b.toString(16).padStart(2, '0')).join(' ');

/**
 * A ticket's barcode in a report, by its last four characters only: a ticket is paid to whoever
 * holds its number, and a violation's report is journalled with the station's fault and shown on
 * service mode's event log (every screen names a ticket so). Until 7 December the whole ESCROW
 * frame went, the barcode in hex ASCII, of a ticket that may still be payable.
 */
function barcodeSaid(barcode: Uint8Array): string {
  const tail = barcode.subarray(Math.max(0, barcode.length - 4));
  const digits = tail.every((b) => b >= 0x30 && b <= 0x39);
  return `a barcode of ${barcode.length} characters ending ${digits ? `…${String.fromCharCode(...tail)}` : `(hex) ${hexBytes(tail)}`}`;
}

/** The status codes the note cycle reads; every other code (faults, INITIALIZE, HOLDING…) leaves it as it is. */
export function id003ReportOf(code: number, escrow: () => 'escrow-same' | 'escrow-other' | 'escrow-new'): Id003Report | null {
  switch (code) {
    case STATUS.ENABLE:
    case STATUS.DISABLE:
      return 'idle';
    case STATUS.ACCEPTING:
      return 'accepting';
    case STATUS.ESCROW:
      return escrow();
    case STATUS.STACKING:
      return 'stacking';
    case STATUS.VEND_VALID:
      return 'vend-valid';
    case STATUS.STACKED:
      return 'stacked';
    case STATUS.RETURNING:
    case STATUS.REJECTING:
      return 'returning';
    case STATUS.POWER_UP:
      return 'power-up';
    case STATUS.POWER_UP_BILL_IN_ACCEPTOR:
      return 'power-up-acceptor';
    case STATUS.POWER_UP_BILL_IN_STACKER:
      return 'power-up-stacker';
    default:
      return null;
  }
}

/** How an ESCROW report relates to the cycle (see Id003Report). */
export function classifyEscrow(
  phase: Phase,
  held: { code: number; denomination: number } | null,
  reported: { code: number; value: number | undefined },
  gap: boolean,
): 'escrow-same' | 'escrow-other' | 'escrow-new' {
  if (!held || phase === 'idle') return 'escrow-new';
  const after = phase === 'credited' || phase === 'disputed';
  // A note known from the journal after a restart carries its value, not the unit's code.
  const same = held.code === reported.code || (held.code === 0 && reported.value === held.denomination);
  if (same && !after) return 'escrow-same';
  return gap ? 'escrow-new' : 'escrow-other';
}
