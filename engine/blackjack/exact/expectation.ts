import { computeStrategy } from '../strategy/basic-strategy.js';
import type { BlackjackRules } from '../rules.js';
import { Compositions } from './compositions.js';
import { COMPOSITION_DEPENDENT, simulatorBasic, totalDependent, type Policy, type StrategyId } from './policy.js';
import { upCardValue } from './round-value.js';
import { TotalDependentTable } from './td-table.js';
import { fullShoe, UpCard } from './up-card.js';

/**
 * The exact expected value of the main bet for a full shoe of the profile's decks, one seat,
 * flat bet, under a stated strategy (see docs/rules/blackjack.md, "Exact expected value").
 */
export interface StrategyExpectation {
  readonly strategy: StrategyId;
  /** Expected result per unit of the initial bet (negative: the house's advantage). */
  readonly ev: number;
  /** House edge in percent of the initial bet (= -100 ev). */
  readonly houseEdge: number;
  /**
   * With `moments`: E[X²] of the round's result per unit of the initial bet, and its variance
   * E[X²] − ev² (moments.ts, split-moments.ts), under the same strategy; NaN when not asked for.
   */
  readonly square: number;
  readonly variance: number;
  /** The variance as if a split seat's hands were independent (no dealer in common): a foil for the tests. */
  readonly varianceIndependentSplits: number;
  /** Expected result by dealer up card (index 1 = ace … 10), each given that up card. */
  readonly byUpCard: readonly number[];
  /** Probability that the round is split under this strategy. */
  readonly splitChance: number;
  /** Upper bounds (percentage points of the house edge) on the approximations that have one. */
  readonly bounds: { readonly splitLevelCap: number; readonly originalOnlySplits: number };
}

export interface ExactBlackjack {
  readonly decks: number;
  readonly strategies: readonly StrategyExpectation[];
  /** Insurance per unit insured: off the top of the shoe, and its best case (player holds no ten). */
  readonly insurance: { readonly offTheTop: number; readonly best: number };
  /** Probability that taking even money would have been better (0: never taken rightly). */
  readonly evenMoneyBetter: number;
  /** Dealer recursions run (each one exact pass over a shoe composition). */
  readonly dealerPasses: number;
}

export const STRATEGY_IDS: readonly StrategyId[] = ['total-dependent', 'composition-dependent', 'simulator-basic'];

/** Split levels valued exactly (hands formed); deeper resplits reuse the last level (bounded). */
export const SPLIT_LEVEL_CAP = 6;

export function exactBlackjack(
  rules: BlackjackRules,
  strategies: readonly StrategyId[] = STRATEGY_IDS,
  levelCap = SPLIT_LEVEL_CAP,
  moments = false,
): ExactBlackjack {
  const comps = new Compositions();
  const full = fullShoe(rules.decks);
  let all = 0;
  for (let v = 1; v <= 10; v++) all += full[v]!;
  const ups: UpCard[] = [];
  for (let u = 1; u <= 10; u++) ups.push(new UpCard(rules, comps, full, u));
  const policies = new Map<StrategyId, () => Policy>([
    ['composition-dependent', () => COMPOSITION_DEPENDENT],
    ['total-dependent', () => totalDependent(new TotalDependentTable(ups))],
    ['simulator-basic', () => simulatorBasic(computeStrategy(rules), rules.minStandTotal)],
  ]);
  let evenMoneyBetter = 0;
  const results: StrategyExpectation[] = strategies.map((id) => {
    const policy = (policies.get(id) as () => Policy)();
    let ev = 0;
    let square = 0;
    let squareIndependentSplits = 0;
    let splitChance = 0;
    let capBound = 0;
    let ooBound = 0;
    const byUpCard: number[] = [0];
    for (const t of ups) {
      const pu = full[t.up]! / all;
      const r = upCardValue(t, policy, levelCap, moments);
      byUpCard[t.up] = r.ev;
      ev += pu * r.ev;
      square += pu * r.square;
      squareIndependentSplits += pu * r.squareIndependentSplits;
      splitChance += pu * r.splitChance;
      capBound += pu * r.levelCapBound;
      ooBound += pu * r.originalOnlyBound;
      evenMoneyBetter = Math.max(evenMoneyBetter, r.evenMoneyBetter);
    }
    return {
      strategy: id,
      ev,
      houseEdge: -100 * ev,
      square,
      variance: square - ev * ev,
      varianceIndependentSplits: squareIndependentSplits - ev * ev,
      byUpCard,
      splitChance,
      bounds: { splitLevelCap: 100 * capBound, originalOnlySplits: 100 * ooBound },
    };
  });
  const tens = full[10]!;
  const pTen = tens / (all - 1);
  const pTenBest = tens / (all - 3);
  return {
    decks: rules.decks,
    strategies: results,
    insurance: { offTheTop: 3 * pTen - 1, best: 3 * pTenBest - 1 },
    evenMoneyBetter,
    dealerPasses: ups.reduce((s, t) => s + t.cache.computed, 0),
  };
}
