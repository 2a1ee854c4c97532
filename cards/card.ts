// A playing card, defined once for every layer (issue 53 item 3): the shoe's drivers, the engine,
// the protocol's schemas and the screens' card art all import it. It imports nothing, so any layer
// may: before it, the rule that hardware and the renderer import nothing of the engine made each
// keep its own copy of the ranks and suits (and the protocol a regex).

/** Ranks in order A…K; ten is `T`, so every code is two characters. */
export const RANKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K'] as const;
/** Suits: spades, hearts, diamonds, clubs. */
export const SUITS = ['S', 'H', 'D', 'C'] as const;

export type Rank = (typeof RANKS)[number];
export type Suit = (typeof SUITS)[number];
/** A card as text: rank then suit (`AS`, `TD`, `QH`), the journal's and the screens' form. */
export type CardCode = `${Rank}${Suit}`;

export interface Card {
  readonly rank: Rank;
  readonly suit: Suit;
}

/** A string refused as a card code, saying what in it is wrong. */
export class CardParseError extends Error {
  constructor(
    readonly input: string,
    readonly reason: string,
  ) {
    super(`${JSON.stringify(input)} is not a card code: ${reason}; a code is a rank (A 2-9 T J Q K) then a suit (S H D C), e.g. "AS" or "TD"`);
  }
}

/** Every card's code, in rank then suit order. */
export const CARD_CODES: readonly CardCode[] = RANKS.flatMap((rank) => SUITS.map((suit): CardCode => `${rank}${suit}`));

/** The 52 cards, each one frozen value by its code: a card read or written as a code is always this value. */
const BY_CODE: ReadonlyMap<string, Card> = new Map(
  RANKS.flatMap((rank) => SUITS.map((suit): [CardCode, Card] => [`${rank}${suit}`, Object.freeze({ rank, suit })])),
);

const RANK_SET: ReadonlySet<string> = new Set(RANKS);
const SUIT_SET: ReadonlySet<string> = new Set(SUITS);

export function isRank(s: string): s is Rank {
  return RANK_SET.has(s);
}

export function isSuit(s: string): s is Suit {
  return SUIT_SET.has(s);
}

/** Whether a string is one of the 52 codes exactly (no trimming, no `10`, no lower case): a check, not a parse. */
export function isCardCode(s: string): s is CardCode {
  return BY_CODE.has(s);
}

/** The card of a code the type system already knows to be one (a device's read, a journal entry read by its schema). */
export function cardOf(code: CardCode): Card {
  const card = BY_CODE.get(code);
  if (!card) throw new CardParseError(code, 'not one of the 52 codes');
  return card;
}

/** The card of rank and suit: the one frozen value. */
export function cardOfParts(rank: Rank, suit: Suit): Card {
  return cardOf(`${rank}${suit}`);
}

/**
 * A card's code parsed into its value, strictly: exactly one of the 52 codes, as the journal and the
 * screens write them. No trimming, no lower case, no `10` for `T`: an edge that reads something
 * looser (a vendor shoe's `10H` or `H3`) says so in its own grammar and hands over a code.
 */
export function parseCard(code: string): Card {
  const card = BY_CODE.get(code);
  if (card) return card;
  throw new CardParseError(code, whyNot(code));
}

function whyNot(s: string): string {
  if (s.length !== 2) return `it has ${s.length} characters, a code has 2${/^10/.test(s) ? ' (ten is T)' : ''}`;
  const [r = '', u = ''] = s;
  if (!isRank(r)) return `${JSON.stringify(r)} is not a rank${isRank(r.toUpperCase()) ? ' (upper case only)' : ''}`;
  return `${JSON.stringify(u)} is not a suit${isSuit(u.toUpperCase()) ? ' (upper case only)' : ''}`;
}

export function cardCode(card: Card): CardCode {
  return `${card.rank}${card.suit}`;
}

/** Each suit's sign as a person reads a card: the screens' faces, the card pad, the recall lists. */
export const SUIT_SIGNS: Readonly<Record<Suit, string>> = Object.freeze({ S: '♠', H: '♥', D: '♦', C: '♣' });

/** Hearts and diamonds are red, spades and clubs black. */
export function isRedSuit(suit: Suit): boolean {
  return suit === 'H' || suit === 'D';
}

/** A rank as a person reads it: ten is `10`, every other rank its own character. */
export function rankLabel(rank: Rank): string {
  return rank === 'T' ? '10' : rank;
}

/** A card as a person reads it: `TH` → `10♥`. */
export function cardLabel(card: Card): string {
  return `${rankLabel(card.rank)}${SUIT_SIGNS[card.suit]}`;
}
