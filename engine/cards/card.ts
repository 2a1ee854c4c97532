/**
 * Cards as the shoe reads them and as the scripted-round runner writes them: rank then suit,
 * ranks `A 2-9 T J Q K`, suits `S H D C` (e.g. `AS`, `TD`, `QH`).
 */
export const RANKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K'] as const;
export const SUITS = ['S', 'H', 'D', 'C'] as const;

export type Rank = (typeof RANKS)[number];
export type Suit = (typeof SUITS)[number];
export type CardCode = `${Rank}${Suit}`;

export interface Card {
  readonly rank: Rank;
  readonly suit: Suit;
}

export class CardParseError extends Error {
  constructor(readonly input: string) {
    super(`"${input}" is not a card: expected rank (A 2-9 T J Q K) then suit (S H D C), e.g. "AS" or "TD"`);
  }
}

const RANK_SET: ReadonlySet<string> = new Set(RANKS);
const SUIT_SET: ReadonlySet<string> = new Set(SUITS);

export function parseCard(code: string): Card {
  const s = code.trim().toUpperCase();
  // "10" is accepted for ten because people type it; the canonical code is "T".
  const rank = s.length === 3 && s.startsWith('10') ? 'T' : s.length === 2 ? s[0] : undefined;
  const suit = s[s.length - 1];
  if (rank === undefined || suit === undefined || !RANK_SET.has(rank) || !SUIT_SET.has(suit)) {
    throw new CardParseError(code);
  }
  return { rank: rank as Rank, suit: suit as Suit };
}

export function cardCode(card: Card): CardCode {
  return `${card.rank}${card.suit}`;
}

/** Red suits: hearts and diamonds (perfect-pair colour rules, Macau 2009 Art. 14). */
export function isRed(card: Card): boolean {
  return card.suit === 'H' || card.suit === 'D';
}

/** Index of the rank in A…K (0–12), convenient for composition arrays. */
export function rankIndex(rank: Rank): number {
  return RANKS.indexOf(rank);
}

/** Tens and faces: the cards worth ten in blackjack and zero in baccarat. */
export function isTenValue(rank: Rank): boolean {
  return rank === 'T' || rank === 'J' || rank === 'Q' || rank === 'K';
}
