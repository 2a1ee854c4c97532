// The card is the cards layer's (cards/card.ts, issue 53 item 3): ranks, suits and the 52 codes are
// defined there once for every layer. What is the shoe's own is how its protocols write a card:
// the framed protocol's numbers and the vendor ASCII streams' looser strings, each parsed here, at
// the device edge, into a code.
import { RANKS, SUITS, cardOf, isRank, isSuit, type CardCode, type Rank, type Suit } from '../../cards/card.js';

export { RANKS, SUITS, isCardCode, type CardCode, type Rank, type Suit } from '../../cards/card.js';

/** Wire rank 1–13 (A=1 … K=13) and suit 0–3 (S, H, D, C) of the framed shoe protocol. */
export function cardFromWire(rank: number, suit: number): CardCode | null {
  const r = RANKS[rank - 1];
  const s = SUITS[suit];
  return r && s ? `${r}${s}` : null;
}

export function cardToWire(card: CardCode): { rank: number; suit: number } {
  const [rank = '', suit = ''] = card;
  return { rank: RANKS.findIndex((r) => r === rank) + 1, suit: SUITS.findIndex((s) => s === suit) };
}

/** The rank and suit of a code, typed (the shoe's events carry them beside the code): the cards layer's one value. */
export function partsOf(card: CardCode): { rank: Rank; suit: Suit } {
  const { rank, suit } = cardOf(card);
  return { rank, suit };
}

/** Vendor ranks written as numbers: 1 ace, 10 ten, 11–13 the faces (2–9 are themselves). */
const NUMERIC: Readonly<Record<string, Rank>> = { '1': 'A', '10': 'T', '11': 'J', '12': 'Q', '13': 'K' };

function rankOf(s: string): Rank | null {
  if (isRank(s)) return s;
  return Object.hasOwn(NUMERIC, s) ? (NUMERIC[s] ?? null) : null;
}

function codeOf(rank: string, suit: string): CardCode | null {
  const r = rankOf(rank);
  return r && isSuit(suit) ? `${r}${suit}` : null;
}

/**
 * Parses the card strings of vendor ASCII streams, the grammar those shoes write: rank then suit or
 * suit then rank, ranks as letters or numbers (`4S`, `H3`, `10H`, `TD`, `D12` = queen of
 * diamonds), in either case. Null if it is not a card.
 */
export function parseVendorCard(raw: string): CardCode | null {
  const s = raw.trim().toUpperCase();
  // The ranks and suits are the cards layer's (isRank, isSuit): the grammar here is only their order
  // and the numbers. No letter is both a rank and a suit, so at most one order reads a card.
  return codeOf(s.slice(0, -1), s.slice(-1)) ?? codeOf(s.slice(1), s.slice(0, 1));
}
