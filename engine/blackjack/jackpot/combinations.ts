import { isTenValue, type Card } from '../../cards/card.js';
import type { JackpotCombination } from '../../table/vocabulary.js';

/**
 * The winning combinations a jackpot program may name. Portugal rule 43 leaves the combinations
 * and their awards to the concessionaire, approved by the Inspecção-Geral de Jogos, so a program
 * picks among these (by id, never by parsing a name) and gives each its award. Each looks at the
 * player's first 2–4 cards as rule 42 counts them (`jackpot/cards.ts`).
 */
export { JACKPOT_COMBINATIONS, type JackpotCombination } from '../../table/vocabulary.js';

const sameSuit = (cs: readonly Card[]) => cs.every((c) => c.suit === cs[0]?.suit);
const ranks = (cs: readonly Card[]) => cs.map((c) => c.rank).join('');

/** Whether the cards (already cut to the program's 2–4) hold the combination. */
export function holds(combination: JackpotCombination, cards: readonly Card[]): boolean {
  const [a, b] = cards;
  const first3 = cards.slice(0, 3);
  switch (combination) {
    case 'four-aces-suited':
      return cards.length >= 4 && cards.slice(0, 4).every((c) => c.rank === 'A') && sameSuit(cards.slice(0, 4));
    case 'four-aces':
      return cards.length >= 4 && cards.slice(0, 4).every((c) => c.rank === 'A');
    case 'three-sevens-suited':
      return first3.length === 3 && first3.every((c) => c.rank === '7') && sameSuit(first3);
    case 'suited-678':
      // 6-7-8 in any order, one suit (the Portuguese rule 35's combination).
      return first3.length === 3 && sameSuit(first3) && [...ranks(first3)].sort().join('') === '678';
    case 'three-sevens':
      return first3.length === 3 && first3.every((c) => c.rank === '7');
    case 'suited-blackjack':
      return a !== undefined && b !== undefined && a.suit === b.suit && isBlackjack(a, b);
    case 'blackjack':
      return a !== undefined && b !== undefined && isBlackjack(a, b);
    case 'suited-pair':
      return a !== undefined && b !== undefined && a.rank === b.rank && a.suit === b.suit;
  }
}

function isBlackjack(a: Card, b: Card): boolean {
  return (a.rank === 'A' && isTenValue(b.rank)) || (b.rank === 'A' && isTenValue(a.rank));
}
