import { CARD_CODES, cardCode, type CardCode } from '../../engine/cards/card.js';
import type { GameDefinition } from '../../engine/table/game.js';
import { correctionsFor } from '../../engine/table/queries.js';
import type { TableState } from '../../engine/table/state.js';
import type { HoldState } from './live-table.js';

/** The hold in force as service mode and the tests read it, or null when the table does not hold. */
export function holdStateOf<S, R>(s: TableState<S, R>, game: GameDefinition<S, R>): HoldState | null {
  const h = s.hold;
  return h
    ? {
        reason: h.reason,
        shoeSequence: h.sequence,
        readsDuringHold: [...h.reads],
        card: h.card ? cardCode(h.card) : (h.reported ?? null),
        corrections: [...correctionsFor(s, game)],
      }
    : null;
}

/** Simulated mode after a restart mid-round: the cards the engine's shoe still holds, or null. */
export function cardsLeftInOldShoe<S, R>(s: TableState<S, R>, game: GameDefinition<S, R>): CardCode[] | null {
  if (!s.shoeDeferred) return null;
  const out = s.out;
  return CARD_CODES.filter((c) => (out[c] ?? 0) < game.decks);
}
