import { cardCode } from '../cards/card.js';
import type { Turn } from './turn.js';

// Misdrawn cards kept for the hand that asks for one (Portugal rule 18; Macau Art. 5 n.1 2)): placed
// when asked for, discarded with the round otherwise.

/**
 * The round asks for a card a player asked for (or the dealer draws) while a misdrawn card is
 * kept for it (Portugal rule 18; Macau Art. 5 n.1 2)): that card is placed, journalled as read
 * with its own sequence number. It left the shoe before, so the inventory has it already.
 */
export function placeHeld<S, R>(t: Turn<S, R>): boolean {
  const [first, ...rest] = t.state.held ?? [];
  const round = t.state.round;
  if (!first || round === null) return false;
  const r = t.game.round.takeCard(t.state.shoe, round, first.card);
  if (!r.ok) return false;
  const code = cardCode(first.card);
  t.write({
    type: 'card.read',
    payload: {
      tableId: t.tableId,
      roundId: t.state.roundId,
      ...(first.sequence !== undefined ? { sequence: first.sequence } : {}),
      card: code,
      to: r.to,
    },
  });
  t.set({ held: rest, shoe: r.shoe, round: r.round, cards: [...t.state.cards, { card: code, to: r.to }] });
  t.log('info', 'misdrawn card placed where it was asked for', { roundId: t.state.roundId, card: code, to: r.to });
  return true;
}

/** Misdrawn cards nobody asked for go to the discards with the round (rule 18), recorded with its cards. */
export function discardHeld<S, R>(t: Turn<S, R>): void {
  const held = t.state.held ?? [];
  if (held.length === 0) return;
  t.set({ held: [], cards: [...t.state.cards, ...held.map((h) => ({ card: cardCode(h.card), to: 'discard' }))] });
}
