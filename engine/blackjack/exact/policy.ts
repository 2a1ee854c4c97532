import type { StrategyTable } from '../strategy/basic-strategy.js';
import type { TotalDependentTable } from './td-table.js';

/**
 * Who makes the player's decisions while the exact recursion values them. A policy answers from
 * the hand's total (and number of cards); `undefined` means "whichever the exact expected value
 * of this very composition prefers" (composition-dependent play). The recursion computes exact
 * values with card removal whatever the policy: the policy only chooses.
 */
export type FirstAction = 'stand' | 'hit' | 'double' | 'split' | 'surrender';

export type StrategyId = 'composition-dependent' | 'total-dependent' | 'simulator-basic';

export interface Policy {
  readonly id: StrategyId;
  /** First decisions see whether 6-7, 6-8 or 7-8 are suited (the 6-7-8 prize). */
  readonly suitAware: boolean;
  /** After a hand's first decision: hit or stand. */
  later(up: number, hard: number, ace: boolean, cards: number): 'hit' | 'stand' | undefined;
  /** At five cards (Art. 19): take the half payment. */
  takeFive(up: number, hard: number, ace: boolean): boolean | undefined;
  /** A hand's first decision, actions best first (the first legal one is taken). */
  first(up: number, hard: number, ace: boolean, pair: number, fromSplit: boolean): readonly FirstAction[] | undefined;
}

/** Every decision by the exact value of the hand's own composition (optimal for one hand off the top). */
export const COMPOSITION_DEPENDENT: Policy = {
  id: 'composition-dependent',
  suitAware: true,
  later: () => undefined,
  takeFive: () => undefined,
  first: () => undefined,
};

/** First decisions by composition; every later one from the total-dependent table. */
export function totalDependent(table: TotalDependentTable): Policy {
  return {
    id: 'total-dependent',
    suitAware: true,
    later: (up, hard, ace, cards) => (table.hits(up, hard, ace, cards) ? 'hit' : 'stand'),
    takeFive: (up, hard, ace) => table.takesFive(up, hard, ace),
    first: () => undefined,
  };
}

/**
 * The simulator's basic strategy (engine/blackjack/strategy/basic-strategy.ts) exactly as the simulator
 * plays it: ranked actions, first legal one taken; never looks at suits.
 */
export function simulatorBasic(strategy: StrategyTable, minStandTotal: number): Policy {
  return {
    id: 'simulator-basic',
    suitAware: false,
    later: (up, hard, ace, cards) => {
      const tot = ace && hard + 10 <= 21 ? hard + 10 : hard;
      for (const a of strategy.ranked(up, hard, ace, cards, 0, false, false)) {
        if (a === 'hit') return 'hit';
        if (a === 'stand' && tot >= minStandTotal) return 'stand';
      }
      return 'hit';
    },
    takeFive: (up, hard, ace) => strategy.takeFiveCardHalf(up, hard, ace),
    first: (up, hard, ace, pair, fromSplit) => strategy.ranked(up, hard, ace, 2, pair, true, fromSplit),
  };
}
