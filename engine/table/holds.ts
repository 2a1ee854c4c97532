import { cardCode, type Card } from '../cards/card.js';
import { roundCore, resumeCountdown, showResults } from './dealing.js';
import type { JournalRecord } from './effects.js';
import { pendingOf, remaining } from './queries.js';
import { applyDeferredShoe, takeCard } from './shoe.js';
import type { Turn } from './turn.js';
import type { HoldReason } from './vocabulary.js';

// Holds (docs/architecture.md, a round; Macau 2009 Art. 5 n.1): a card the shoe could not read, a card out of turn, an
// extra card, one beyond the shoe's inventory or of another deck set, a journal write the ledger
// refused, a default the game refused. Nothing settles on hold: a supervisor enters the unreadable
// card (two people) or voids the round (every bet returned).

/** Why a two-person action cannot go ahead with these names; null if it can. */
function twoPeopleRefusal(action: string, who: readonly string[]): string | null {
  if (who.length < 2 || !who[0] || !who[1]) return `${action} needs a supervisor and a second person`;
  if (new Set(who).size !== who.length) return 'the second person must be someone other than the supervisor';
  return null;
}

/**
 * Puts the table on hold, journalled (pending) so that a fold of the journal puts it back on
 * hold too, in a round or between rounds.
 */
export function putOnHold<S, R>(t: Turn<S, R>, reason: HoldReason, card: string | null, sequence?: number): void {
  const roundId = t.state.phase === 'dealing' ? t.state.roundId : null;
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
  t.set({ hold: { reason, sequence: sequence ?? null, reads: [], roundId }, countdown: null });
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

/** The shoe could not read a card, or read one of another deck set: hold until resolved. */
export function anomaly<S, R>(t: Turn<S, R>, reason: 'unreadable' | 'wrong-deck', card: string | null, sequence?: number): void {
  if (sequence !== undefined && t.state.sequences.includes(sequence)) return;
  if (t.state.hold) return readDuringHold(t, reason, card, sequence);
  putOnHold(t, reason, card, sequence);
}

/**
 * A supervisor enters by hand the card the shoe could not read, a second person confirming: the
 * card is placed as if read, journalled as a `misread` resolved by `card-entered` with both names
 * and the shoe's sequence number, and the round goes on. Only an unreadable card can be entered;
 * a card out of turn, extra, of another deck or beyond the inventory was read as it is, and its
 * round is voided instead.
 */
export function enterCard<S, R>(t: Turn<S, R>, card: Card, supervisor: string, witness: string): void {
  const hold = t.state.hold;
  if (hold?.reason !== 'unreadable') {
    return t.refuse(hold ? `a ${hold.reason} hold is resolved by voiding the round, not by entering a card` : 'the table is not on hold');
  }
  // Cards that left the shoe after the unreadable one went somewhere the host never saw:
  // entering the first cannot put the deal back in order. The hold stays until a void.
  if (hold.reads.length > 0) {
    const seqs = hold.reads.map((r) => r.shoeSequence ?? '?').join(', ');
    return t.refuse(
      `${hold.reads.length} more card(s) left the shoe during the hold (shoe sequence ${seqs}): the deal cannot be restored by entering one card; void the round`,
    );
  }
  const who = [supervisor.trim(), witness.trim()];
  const refused = twoPeopleRefusal('manual card entry', who);
  if (refused) return t.refuse(refused);
  const code = cardCode(card);
  const dealing = t.state.phase === 'dealing' && t.state.round !== null;
  if (dealing && pendingOf(t.state, t.game)?.kind !== 'card') return t.refuse('the round expects no card now: void it');
  if (!dealing && !t.game.shoeCue(t.state.shoe)) return t.refuse('no card is expected between rounds: lift the hold by a void');
  if (remaining(t.state, t.game.decks, card) <= 0) return t.refuse(`${code} is beyond the shoe's inventory`);
  const sequence = hold.sequence;
  t.write({
    type: 'misread',
    payload: {
      tableId: t.tableId,
      ...(dealing ? { roundId: t.state.roundId } : {}),
      detail: `unreadable card entered by hand${sequence !== null ? ` (shoe sequence ${sequence})` : ''}`,
      resolution: 'card-entered',
      card: code,
      confirmedBy: who,
      ...(sequence !== null ? { shoeSequence: [sequence] } : {}),
    },
  });
  t.log('warn', 'card entered by hand', { roundId: t.state.roundId, card: code, confirmedBy: who, sequence });
  t.set({ hold: null });
  takeCard(t, card);
  // The hold stopped the countdown of the step it came in (a burn between rounds); a round in
  // play went on when the card was placed.
  if (t.state.hold === null && !t.state.faults.halted && t.state.phase !== 'dealing') resumeCountdown(t);
}

/**
 * A supervisor voids the round (two people): every bet of the round is returned. On a hold
 * outside a round (a stray card between rounds) it lifts the hold, journalled as the hold's
 * resolution so that a fold does not put it back.
 */
export function voidRound<S, R>(t: Turn<S, R>, reason: string, authorisedBy: readonly string[]): void {
  const s = t.state;
  if (s.phase !== 'dealing' && !s.hold) return t.refuse('no round to void', 'no-round');
  // Two people, as for a manual card entry: a void moves every bet of the round back.
  const refused = twoPeopleRefusal(
    'a void',
    authorisedBy.map((w) => w.trim()),
  );
  if (refused) return t.refuse(refused);
  const inPlay = s.phase === 'dealing' && s.placed.length > 0;
  const roundVoid: JournalRecord = { type: 'round.void', txId: `${s.roundId}:void`, payload: { ...roundCore(t), reason, authorisedBy } };
  if (s.hold) {
    // The resolution names every read the hold covered, so each card that left the shoe is accounted for.
    const sequences = [s.hold.sequence, ...s.hold.reads.map((r) => r.shoeSequence)].filter((n): n is number => n !== null && n !== undefined);
    t.write({
      type: 'misread',
      payload: {
        tableId: t.tableId,
        ...(inPlay ? { roundId: s.roundId } : {}),
        detail: `${s.hold.reason} hold lifted by a void: ${reason}`.slice(0, 2000),
        resolution: 'round-void',
        confirmedBy: authorisedBy.slice(0, 4),
        ...(sequences.length > 0 ? { shoeSequence: sequences.slice(0, 16) } : {}),
      },
    });
  }
  if (inPlay) {
    t.write(roundVoid);
    for (const p of s.placed) t.credit(p.station, p.amount);
  }
  t.log('warn', inPlay ? 'round voided' : 'hold between rounds lifted by a void', { roundId: s.roundId, reason, authorisedBy, inPlay });
  // The game's round must end too, or the next betting window could not start a round.
  if (inPlay && s.round !== null) t.set({ shoe: t.game.voidRound(t.state.shoe, s.round) });
  // Chips left on the spots through a hold between rounds go back to the meters with the void.
  t.set({ hold: null, chips: [], round: null });
  applyDeferredShoe(t);
  showResults(t, null);
}
