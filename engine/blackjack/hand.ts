import { isTenValue, type Card, type Rank } from '../cards/card.js';

/** Blackjack value of a rank with the ace as 1 (Macau Art. 8; Portugal rule 6). */
export function rankValue(rank: Rank): number {
  if (rank === 'A') return 1;
  if (isTenValue(rank)) return 10;
  return Number(rank);
}

export interface Total {
  /** Best total not above 21 if possible (an ace counted 11 when that does not bust). */
  readonly total: number;
  /** True when an ace is counted as 11 in `total`. */
  readonly soft: boolean;
  /** Total with every ace as 1. */
  readonly hard: number;
}

/** `aceLocked`: an ace doubled as 1 stays 1 (Portugal rule 32). */
export function handTotal(cards: readonly Card[], aceLocked = false): Total {
  let hard = 0;
  let aces = 0;
  for (const c of cards) {
    hard += rankValue(c.rank);
    if (c.rank === 'A') aces++;
  }
  // With a locked ace, only aces beyond the first may be counted as 11.
  const usable = aceLocked ? aces - 1 : aces;
  const soft = usable > 0 && hard + 10 <= 21;
  return { total: soft ? hard + 10 : hard, soft, hard };
}

/** Ace and a ten-value card as the first two cards of a hand that was not split (Art. 10 n.1, n.6; rule 20). */
export function isNaturalPair(cards: readonly Card[]): boolean {
  if (cards.length !== 2) return false;
  const [a, b] = cards as [Card, Card];
  return (a.rank === 'A' && isTenValue(b.rank)) || (b.rank === 'A' && isTenValue(a.rank));
}

export type Soft17 = 'stand' | 'hit' | 'hit-ace-six';

/**
 * Whether the dealer draws, from the hand's hard sum (aces as 1), whether it holds an ace and
 * how many cards it has. `hit-ace-six` is the literal reading of the 2009 text's definition
 * (Art. 6 6)): the "Soft 17" is a hand holding a 6 and an ace «a que é atribuído o valor de um
 * ponto»; with a soft total of 17 that is exactly the two cards A-6 (hard sum 7). After the draw
 * the hand counts as any other: whether its ace should stay at one point is an open reading
 * (docs/rules/blackjack.md, "Soft 17"). Shared by the round and the simulators.
 */
export function dealerDrawsOn(hard: number, hasAce: boolean, cards: number, soft17: Soft17): boolean {
  const soft = hasAce && hard + 10 <= 21;
  const total = soft ? hard + 10 : hard;
  if (total < 17) return true;
  if (total > 17 || !soft || soft17 === 'stand') return false;
  if (soft17 === 'hit') return true;
  return cards === 2 && hard === 7;
}

export function dealerDraws(cards: readonly Card[], soft17: Soft17): boolean {
  let hard = 0;
  let ace = false;
  for (const c of cards) {
    hard += rankValue(c.rank);
    if (c.rank === 'A') ace = true;
  }
  return dealerDrawsOn(hard, ace, cards.length, soft17);
}

/** 6-7-8 of one suit or three 7s, as a hand of exactly three cards (Macau Art. 15; rule 35). */
export function isSpecial678(cards: readonly Card[]): boolean {
  if (cards.length !== 3) return false;
  const ranks = cards
    .map((c) => c.rank)
    .sort()
    .join('');
  if (ranks === '777') return true;
  const [a, b, c] = cards as [Card, Card, Card];
  return ranks === '678' && a.suit === b.suit && b.suit === c.suit;
}
