// The card is the cards layer's (cards/card.ts, issue 53 item 3), defined once for every layer; the
// engine re-exports it for its own files and adds what the games read of a card.
import { RANKS, isRedSuit, type Card, type Rank } from '../../cards/card.js';

export {
  CARD_CODES,
  CardParseError,
  RANKS,
  SUITS,
  cardCode,
  cardOf,
  isCardCode,
  parseCard,
  type Card,
  type CardCode,
  type Rank,
  type Suit,
} from '../../cards/card.js';

/** Red suits: hearts and diamonds (perfect-pair colour rules, Macau 2009 Art. 14). */
export function isRed(card: Card): boolean {
  return isRedSuit(card.suit);
}

/** Index of the rank in A…K (0–12), convenient for composition arrays. */
export function rankIndex(rank: Rank): number {
  return RANKS.indexOf(rank);
}

/** Tens and faces: the cards worth ten in blackjack and zero in baccarat. */
export function isTenValue(rank: Rank): boolean {
  return rank === 'T' || rank === 'J' || rank === 'Q' || rank === 'K';
}
