// Card codes as the rest of the kiosk writes them: rank A 2-9 T J Q K, then suit S H D C (e.g. AS,
// TD). The engine has the same strings; hardware imports nothing of ours, so it keeps its own type.

export const RANKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K'] as const;
export const SUITS = ['S', 'H', 'D', 'C'] as const;
export type Rank = (typeof RANKS)[number];
export type Suit = (typeof SUITS)[number];
export type CardCode = `${Rank}${Suit}`;

export function isCardCode(s: string): s is CardCode {
  return s.length === 2 && (RANKS as readonly string[]).includes(s[0] ?? '') && (SUITS as readonly string[]).includes(s[1] ?? '');
}

/** Wire rank 1–13 (A=1 … K=13) and suit 0–3 (S, H, D, C) of the framed shoe protocol. */
export function cardFromWire(rank: number, suit: number): CardCode | null {
  const r = RANKS[rank - 1];
  const s = SUITS[suit];
  return r && s ? `${r}${s}` : null;
}

export function cardToWire(card: CardCode): { rank: number; suit: number } {
  return { rank: RANKS.indexOf(card[0] as Rank) + 1, suit: SUITS.indexOf(card[1] as Suit) };
}

const NUMERIC: Readonly<Record<string, Rank>> = { '1': 'A', '10': 'T', '11': 'J', '12': 'Q', '13': 'K' };

function rankOf(s: string): Rank | null {
  const u = s.toUpperCase();
  if ((RANKS as readonly string[]).includes(u)) return u as Rank;
  if (NUMERIC[u]) return NUMERIC[u];
  if (/^[2-9]$/.test(u)) return u as Rank;
  return null;
}

/**
 * Parses the card strings of vendor ASCII streams: rank then suit or suit then rank, ranks as
 * letters or numbers (`4S`, `H3`, `10H`, `TD`, `D12` = queen of diamonds). Null if it is not a card.
 */
export function parseVendorCard(raw: string): CardCode | null {
  const s = raw.trim().toUpperCase();
  const m1 = /^([AKQJT2-9]|10|1[1-3]|1)([SHDC])$/.exec(s);
  if (m1) {
    const r = rankOf(m1[1] ?? '');
    return r ? (`${r}${m1[2]}` as CardCode) : null;
  }
  const m2 = /^([SHDC])([AKQJT2-9]|1[0-3]|1)$/.exec(s);
  if (m2) {
    const r = rankOf(m2[2] ?? '');
    return r ? (`${r}${m2[1]}` as CardCode) : null;
  }
  return null;
}
