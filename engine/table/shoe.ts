import { cardCode, type Card } from '../cards/card.js';
import { advance } from './dealing.js';
import { putOnHold, readDuringHold } from './on-hold.js';
import { applyNewShoe } from './shoe-change.js';
import type { Turn } from './turn.js';

// The card-reading shoe's events: each card in the order it left the shoe, the cut card, a new
// shoe. A card is placed where the game expects it, or the table holds.

/** Records a card out of the shoe; false (nothing recorded) when it would exceed the decks' copies. */
function takeFromInventory<S, R>(t: Turn<S, R>, card: Card): boolean {
  const code = cardCode(card);
  const n = t.state.out[code] ?? 0;
  if (n >= t.game.decks) return false;
  t.set({ out: { ...t.state.out, [code]: n + 1 } });
  return true;
}

function journalled<S, R>(t: Turn<S, R>, sequence: number | undefined): void {
  if (sequence !== undefined) t.set({ sequences: [...t.state.sequences, sequence] });
}

/**
 * A card read by the shoe (or entered by hand), in the order it left the shoe. `burnt`: the shoe
 * says the dealer burnt it (its burn mode, docs/protocols/shoe.md); where the table waits for a card
 * of the round, not a burn, it went to the burns, not where the table would place it: a card out of
 * turn, for a person to look at (a correction discards it, or the round is voided).
 */
export function takeCard<S, R>(t: Turn<S, R>, card: Card, sequence?: number, burnt = false): void {
  const code = cardCode(card);
  if (sequence !== undefined && t.state.sequences.includes(sequence)) {
    return t.log('warn', 'card re-reported with a sequence already journalled: not placed again', { card: code, sequence });
  }
  if (t.state.hold) return readDuringHold(t, 'card', code, sequence);
  // A halted table deals nothing: a card drawn anyway must be looked at by a supervisor.
  if (t.state.faults.halted) return putOnHold(t, 'out-of-turn', { card }, sequence);
  if (!takeFromInventory(t, card)) return putOnHold(t, 'inventory', { card }, sequence);
  const { round } = t.state;
  if (t.state.phase === 'dealing' && round !== null) {
    const pending = t.game.round.pending(t.state.shoe, round);
    if (pending.kind !== 'card' || (burnt && pending.cue.to !== 'burn')) return putOnHold(t, 'out-of-turn', { card }, sequence);
    const r = t.game.round.takeCard(t.state.shoe, round, card);
    if (!r.ok) return putOnHold(t, 'out-of-turn', { card }, sequence);
    t.write({
      type: 'card.read',
      payload: { tableId: t.tableId, roundId: t.state.roundId, ...(sequence !== undefined ? { sequence } : {}), card: code, to: r.to },
    });
    journalled(t, sequence);
    t.set({ shoe: r.shoe, round: r.round, cards: [...t.state.cards, { card: code, to: r.to }] });
    return advance(t);
  }
  if (t.game.shoe.shoeCue(t.state.shoe)) {
    const r = t.game.shoe.takeShoeCard(t.state.shoe, card);
    if (r.ok) {
      t.write({ type: 'card.read', payload: { tableId: t.tableId, ...(sequence !== undefined ? { sequence } : {}), card: code, to: r.to } });
      journalled(t, sequence);
      return t.set({ shoe: r.shoe });
    }
  }
  putOnHold(t, 'extra-card', { card }, sequence);
}

export function cutCard<S, R>(t: Turn<S, R>, sequence?: number): void {
  t.set({ shoe: t.game.shoe.cutCard(t.state.shoe) });
  t.write({ type: 'shoe.change', payload: { tableId: t.tableId, event: 'cut-card', ...(sequence !== undefined ? { sequence } : {}) } });
  journalled(t, sequence);
}

/** A new shoe is in: the shoe-level procedure (burns) starts again and betting may resume. */
export function shoeLoaded<S, R>(t: Turn<S, R>, sequence?: number): void {
  // The device numbers its events anew with a new shoe (the load is the first it numbers).
  t.set({ sequences: sequence !== undefined ? [sequence] : [], needsShuffle: false });
  // A shoe loaded while a round is in play (a simulated shoe after a restart mid-round): the
  // round finishes on the game's current shoe, the new shoe's procedure starts after it.
  if (t.state.phase === 'dealing' && t.state.round !== null) return t.set({ shoeDeferred: true });
  applyNewShoe(t, sequence);
}
