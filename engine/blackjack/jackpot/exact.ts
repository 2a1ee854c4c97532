import { RANKS, SUITS, type Card } from '../../cards/card.js';
import type { JackpotCombination } from '../../table/vocabulary.js';
import { bestAward } from './settle.js';
import type { JackpotProgram } from './program.js';

/** One combination's exact chance per chip and what it pays at the pools given. */
export interface JackpotComboFigure {
  readonly combination: JackpotCombination;
  readonly level: string;
  /** The chance that this is the best combination the counted cards hold. */
  readonly probability: number;
  /** Minor units paid: the fixed award (never more than the level holds) or the level's pool. */
  readonly award: number;
}

export interface JackpotReturn {
  readonly decks: number;
  readonly cards: number;
  readonly pools: Readonly<Record<string, number>>;
  readonly combos: readonly JackpotComboFigure[];
  /** Expected award per chip, as a share of the chip (1 = the chip back). */
  readonly awardReturn: number;
  /**
   * The share of each chip that goes to the pools (rule 40): paid back to players by later
   * awards, part of the pools a later figure is computed at, not added to this one.
   */
  readonly increment: number;
}

/**
 * The jackpot's exact return at given pools: every ordered sequence of the first `cards` cards
 * dealt from a full shoe of `decks` decks, weighted by its chance, judged by the program's best
 * award (one player alone: rule 50's sharing does not arise). The count assumes the player's
 * hand reaches `cards` cards; a player who stands on two never holds a three- or four-card
 * combination, so for `cards` > 2 it is the most the chip can return (exact for two-card
 * combinations). Pure: the figure of `sim blackjack-jackpot`.
 */
export function jackpotReturn(program: JackpotProgram, decks: number, cards: number, pools: Readonly<Record<string, number>>): JackpotReturn {
  if (!Number.isInteger(decks) || decks < 1 || decks > 8) throw new RangeError('decks must be 1–8');
  if (!Number.isInteger(cards) || cards < 2 || cards > 4) throw new RangeError('cards must be 2–4 (portugal-2001 rule 42)');
  const kinds: Card[] = RANKS.flatMap((rank) => SUITS.map((suit) => ({ rank, suit })));
  const left = kinds.map(() => decks);
  const total = kinds.length * decks;
  const chance = new Map<JackpotCombination, number>();
  const seq: Card[] = [];
  // Depth-first over ordered draws; the weight is the product of the chances of each draw.
  const walk = (depth: number, weight: number): void => {
    if (depth === cards) {
      const award = bestAward(program, seq);
      if (award) chance.set(award.combination, (chance.get(award.combination) ?? 0) + weight);
      return;
    }
    const remaining = total - depth;
    for (let i = 0; i < kinds.length; i++) {
      const n = left[i] as number;
      if (n === 0) continue;
      left[i] = n - 1;
      seq.push(kinds[i] as Card);
      walk(depth + 1, (weight * n) / remaining);
      seq.pop();
      left[i] = n;
    }
  };
  walk(0, 1);
  const combos = program.awards.map((a): JackpotComboFigure => {
    const pool = pools[a.level] ?? 0;
    return {
      combination: a.combination,
      level: a.level,
      probability: chance.get(a.combination) ?? 0,
      award: a.pays === 'pool' ? pool : Math.min(a.pays.fixed, pool),
    };
  });
  const awardReturn = combos.reduce((t, c) => t + (c.probability * c.award) / program.stake, 0);
  const increment = program.incrementBasisPoints / 10_000;
  return { decks, cards, pools: { ...pools }, combos, awardReturn, increment };
}
