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

/** The 52 cards, each one value by its code: a card read or written as a code is always this value. */
const BY_CODE: ReadonlyMap<string, Card> = new Map(
  RANKS.flatMap((rank) => SUITS.map((suit): [CardCode, Card] => [`${rank}${suit}`, Object.freeze({ rank, suit })])),
);

/** Every card's code, in rank then suit order (the journal's form of a card). */
export const CARD_CODES: readonly CardCode[] = RANKS.flatMap((rank) => SUITS.map((suit): CardCode => `${rank}${suit}`));

/** Whether a string is one of the 52 codes exactly as the journal writes them (no trimming, no "10"): a check, not a parse. */
export function isCardCode(s: string): s is CardCode {
  return BY_CODE.has(s);
}

/** The card of a code the type system already knows to be one (a journal entry read by its schema). */
export function cardOf(code: CardCode): Card {
  const card = BY_CODE.get(code);
  if (!card) throw new CardParseError(code);
  return card;
}

/** A card as a person or a device writes it: parsed once, at that edge, into the card's value. */
export function parseCard(code: string): Card {
  const s = code.trim().toUpperCase();
  // "10" is accepted for ten because people type it; the canonical code is "T".
  const card = BY_CODE.get(s.length === 3 && s.startsWith('10') ? `T${s[2]}` : s);
  if (!card) throw new CardParseError(code);
  return card;
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
