/**
 * A baccarat shoe from its first card to its last coup, fed one card at a time, so the live table
 * (cards from a reading shoe) and the simulator (cards from a seeded shuffle) run the same code.
 *
 * - Burn at shoe start, by the profile's formula of Art. 2 n.1: `first-card-value`, the first card
 *   is turned face up and as many cards as its point value are burned, tens and faces counting 10
 *   (ace 1); `decks`, as many cards as the decks; `fixed`, the house's number 1–8; `none`, no burn
 *   (an automatic shuffler-dealer, Art. 2 n.3).
 * - Cut card: when it comes out, the coup in progress is finished (a cut card that comes out
 *   between coups makes the next coup the one in progress, since it shows while that coup's
 *   first card is drawn), then `coupsAfterCutCard` more coups are dealt and the shoe ends.
 */
import { isTenValue, type Card } from '../cards/card.js';
import type { BaccaratProfile } from './profiles.js';
import { EMPTY_COUP, coupResult, dealCard, nextExpected, type CoupCards, type CoupResult, type Side } from './tableau.js';

export type ShoeExpectation =
  | { readonly kind: 'burn-indicator' }
  | { readonly kind: 'burn'; readonly remaining: number }
  | { readonly kind: 'card'; readonly to: Side; readonly position: 1 | 2 | 3 }
  | { readonly kind: 'shoe-finished' };

export interface ShoeSession {
  readonly burn: BaccaratProfile['burn'];
  readonly coupsAfterCutCard: number;
  /** Cards still to burn at shoe start; `null` before the indicator card is turned. */
  readonly burnLeft: number | null;
  readonly burned: readonly Card[];
  readonly coup: CoupCards;
  /** Coups still to deal counting the one in progress; `null` until the cut card is out. */
  readonly coupsLeft: number | null;
  readonly results: readonly CoupResult[];
}

/** The cards to burn at shoe start known before any card is seen; null when the first card decides. */
export function burnKnown(profile: Pick<BaccaratProfile, 'burn' | 'decks' | 'burnFixedCards'>): number | null {
  switch (profile.burn) {
    case 'first-card-value':
      return null;
    case 'decks':
      return profile.decks;
    case 'fixed':
      return profile.burnFixedCards;
    case 'none':
      return 0;
  }
}

export function newShoeSession(profile: Pick<BaccaratProfile, 'burn' | 'coupsAfterCutCard' | 'decks' | 'burnFixedCards'>): ShoeSession {
  return {
    burn: profile.burn,
    coupsAfterCutCard: profile.coupsAfterCutCard,
    burnLeft: burnKnown(profile),
    burned: [],
    coup: EMPTY_COUP,
    coupsLeft: null,
    results: [],
  };
}

/** The burn count of the indicator card: point value, but tens and faces burn 10. */
export function burnCount(card: Card): number {
  if (card.rank === 'A') return 1;
  return isTenValue(card.rank) ? 10 : Number(card.rank);
}

/** What the dealer must do next: the display's "burn 3 more", "card 2 to banker"… */
export function shoeExpected(s: ShoeSession): ShoeExpectation {
  if (s.burnLeft === null) return { kind: 'burn-indicator' };
  if (s.burnLeft > 0) return { kind: 'burn', remaining: s.burnLeft };
  if (s.coupsLeft === 0) return { kind: 'shoe-finished' };
  const next = nextExpected(s.coup);
  if (next === null) throw new Error('unreachable: a complete coup is always moved to the results');
  return { kind: 'card', ...next };
}

export class ShoeFinishedError extends Error {
  constructor() {
    super('the shoe is finished: the last coup after the cut card has been dealt');
  }
}

/** Takes the next card from the shoe. `completed` is the coup this card finished, if any. */
export function shoeTake(s: ShoeSession, card: Card): { session: ShoeSession; completed: CoupResult | null } {
  const e = shoeExpected(s);
  switch (e.kind) {
    case 'shoe-finished':
      throw new ShoeFinishedError();
    case 'burn-indicator':
      return { session: { ...s, burnLeft: burnCount(card), burned: [card] }, completed: null };
    case 'burn':
      return { session: { ...s, burnLeft: e.remaining - 1, burned: [...s.burned, card] }, completed: null };
    case 'card': {
      const coup = dealCard(s.coup, card);
      if (nextExpected(coup) !== null) return { session: { ...s, coup }, completed: null };
      const r = coupResult(coup);
      return {
        session: { ...s, coup: EMPTY_COUP, results: [...s.results, r], coupsLeft: s.coupsLeft === null ? null : s.coupsLeft - 1 },
        completed: r,
      };
    }
  }
}

/** The reading shoe reports the cut card. A second report changes nothing. */
export function cutCardOut(s: ShoeSession): ShoeSession {
  if (s.coupsLeft !== null) return s;
  return { ...s, coupsLeft: 1 + s.coupsAfterCutCard };
}

/**
 * The coup in progress is voided (a card anomaly resolved by a void: Despacho 55/2004 as amended,
 * "o lance é considerado nulo"): its cards left the shoe but belong to no coup, so the next coup
 * starts empty. A void coup is no coup of the shoe: after the cut card, as many coups are still
 * dealt as before it.
 */
export function voidCoup(s: ShoeSession): ShoeSession {
  return s.coup === EMPTY_COUP ? s : { ...s, coup: EMPTY_COUP };
}
