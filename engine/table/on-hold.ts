import { cardCode, type Card } from '../cards/card.js';
import type { Turn } from './turn.js';
import type { HoldReason } from './vocabulary.js';

// Going on hold, and a read while on hold: the bottom of the table's moves, which dealing, the shoe
// and the hold resolutions (holds.ts) all call and which calls none of them (no file loops, issue 32).

/**
 * What the shoe read that put the table on hold: a card of the table's decks (its value, which a
 * correction may place or discard), or what it reported for one it could not take as such (a
 * card of another deck set), kept as evidence only.
 */
export type HoldRead = { readonly card: Card } | { readonly reported: string };

/** The read as the journal and the logs write it. */
const written = (read: HoldRead | null): string | null => (read === null ? null : 'card' in read ? cardCode(read.card) : read.reported);

/**
 * Puts the table on hold, journalled (pending) so that a fold of the journal puts it back on
 * hold too, in a round or between rounds.
 */
export function putOnHold<S, R>(t: Turn<S, R>, reason: HoldReason, read: HoldRead | null, sequence?: number): void {
  const card = written(read);
  // A hold while a round is dealt is that round's; so is one in the results of a round just settled
  // (a card the dealer draws after standing: Macau 2009 Art. 6 1), Portugal rule 19), which its
  // correction, its recall and its evidence must show (issue 33 item 6).
  const roundId = t.state.phase === 'dealing' || (t.state.phase === 'results' && t.state.results !== null) ? t.state.roundId : null;
  t.write({
    type: 'misread',
    payload: {
      tableId: t.tableId,
      ...(roundId ? { roundId } : {}),
      detail: reason,
      resolution: 'pending',
      ...(card ? { card } : {}),
      ...(sequence !== undefined ? { shoeSequence: [sequence] } : {}),
    },
  });
  // The read that caused the hold is journalled: a re-report of its sequence is not a new read.
  if (sequence !== undefined) t.set({ sequences: [...t.state.sequences, sequence] });
  const what = read === null ? { card: null } : 'card' in read ? { card: read.card } : { card: null, reported: read.reported };
  t.set({ hold: { reason, ...what, sequence: sequence ?? null, reads: [], roundId }, countdown: null });
  t.log('warn', 'table on hold', { roundId: t.state.roundId, reason, card, phase: t.state.phase });
}

/**
 * A read while the table is already on hold (a shoe without a gate, or a draw that beat the
 * lock): nothing is placed, but the card left the shoe, so it is journalled with its sequence
 * number and the hold's round for the inspector, and the hold's resolution must account for it.
 */
export function readDuringHold<S, R>(t: Turn<S, R>, kind: 'card' | 'unreadable' | 'wrong-deck', card: string | null, sequence?: number): void {
  const hold = t.state.hold;
  if (!hold) return;
  t.write({
    type: 'misread',
    payload: {
      tableId: t.tableId,
      ...(hold.roundId ? { roundId: hold.roundId } : {}),
      detail: `${kind === 'card' ? 'card' : `${kind} card`} read during the ${hold.reason} hold`,
      resolution: 'pending',
      duringHold: true,
      ...(card ? { card } : {}),
      ...(sequence !== undefined ? { shoeSequence: [sequence] } : {}),
    },
  });
  t.set({
    hold: { ...hold, reads: [...hold.reads, { ...(card ? { card } : {}), ...(sequence !== undefined ? { shoeSequence: sequence } : {}) }] },
    ...(sequence !== undefined ? { sequences: [...t.state.sequences, sequence] } : {}),
  });
  t.log('warn', 'card read while the table is on hold: journalled, not placed', { roundId: hold.roundId, card, kind, sequence, hold: hold.reason });
}
