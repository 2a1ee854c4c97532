import { HandValues } from './hand-values.js';
import { W } from './moments.js';
import type { Policy } from './policy.js';
import { chainSecondMoment } from './split-moments.js';
import { lossTogether, splitValue, type SplitValue } from './split.js';
import type { UpCard } from './up-card.js';

/** The expected result of a round against one up card, and what the approximations may cost. */
export interface UpCardValue {
  readonly ev: number;
  /** E[X²] of the round's result per unit of the initial bet, when moments were asked for (else NaN). */
  readonly square: number;
  /** The same with a split seat's hands taken independent (a foil for the tests, split-moments.ts). */
  readonly squareIndependentSplits: number;
  /** Probability of the player's Black Jack being better off with even money (always 0 so far). */
  readonly evenMoneyBetter: number;
  /** Probability-weighted error bounds (in units of the initial bet) of the approximations. */
  readonly levelCapBound: number;
  readonly originalOnlyBound: number;
  /** Probability that the round is split (for the report). */
  readonly splitChance: number;
}

/** Largest change a hand's value can see from a different shoe: from -2 (a lost double) to +6 (a doubled prize). */
const HAND_RANGE = 8;

/**
 * Every first two cards of the player against `t.up`, each valued by its best (or the policy's)
 * first decision, split pairs through split.ts. With a peek, a dealer Black Jack costs the
 * original bet once, here, and the player's Black Jack pushes it.
 */
export function upCardValue(t: UpCard, policy: Policy, levelCap: number, moments = false): UpCardValue {
  const rules = t.rules;
  const comps = t.comps;
  const main = new HandValues(t, policy, 0, 0, moments);
  // E[X²] beside E[X]; with a peek a dealer Black Jack (X = 0 in the hand's registers) costs 1 more.
  let square = moments ? 0 : Number.NaN;
  let squareIndependentSplits = square;
  const mainSquare = (): number => (main.m as Float64Array)[W]!;
  const decks = rules.decks;
  let ev = 0;
  let evenMoneyBetter = 0;
  let levelCapBound = 0;
  let originalOnlyBound = 0;
  let splitChance = 0;
  const n = t.total;
  for (let a = 1; a <= 10; a++) {
    for (let b = a; b <= 10; b++) {
      const pa = t.shoe[a]! / n;
      const pb = (t.shoe[b]! - (a === b ? 1 : 0)) / (n - 1);
      if (pb <= 0) continue;
      const pb2 = (t.shoe[a]! - (a === b ? 1 : 0)) / (n - 1);
      const p = a === b ? pa * pb : pa * pb + (t.shoe[b]! / n) * pb2;
      const id = comps.of(a, b);
      const pbj = main.blackjackChance(id);
      if (a === 1 && b === 10) {
        // Even money (a sure 1) is declined whenever 3:2 against a possible dealer Black Jack pays more.
        const keep = 1.5 * (1 - pbj);
        const offered = rules.evenMoney === 'vs-ace-or-ten' ? t.bjCard > 0 : rules.evenMoney === 'vs-ace' && t.up === 1;
        if (offered && keep < 1) evenMoneyBetter += p;
        ev += p * (offered ? Math.max(keep, 1) : keep);
        // 3:2, or a push against the dealer's Black Jack; even money (a sure 1) when taken.
        const bj = p * (offered && keep < 1 ? 1 : 2.25 * (1 - pbj));
        square += bj;
        squareIndependentSplits += bj;
        continue;
      }
      // Same value, and (rank pairs) same rank: tens of one rank with this chance.
      const sameRank = a !== b ? 0 : rules.splitPairsBy === 'rank' && a === 10 ? (4 * decks - 1) / (16 * decks - 1) : 1;
      const canSplit = sameRank > 0 && rules.maxHands > 1;
      main.first(id, false, canSplit ? a : 0);
      let value = main.v;
      let sq = moments ? mainSquare() : 0;
      let sqIndependent = sq;
      if (canSplit) {
        const c = pairValue({ t, policy, levelCap, moments, main, id, pair: a, pbj, sameRank, noSplitSq: sq });
        value = c.value;
        sq = c.sq;
        sqIndependent = c.sqIndependent;
        if (c.split) {
          splitChance += p * sameRank;
          levelCapBound += p * sameRank * HAND_RANGE * c.split.beyondCap;
          if (c.originalOnly) originalOnlyBound += p * sameRank * c.split.bustOrSettledWithBlackjack;
        }
      }
      ev += p * (t.peek ? value - pbj : value);
      square += p * (t.peek ? sq + pbj : sq);
      squareIndependentSplits += p * (t.peek ? sqIndependent + pbj : sqIndependent);
    }
  }
  return { ev, square, squareIndependentSplits, evenMoneyBetter, levelCapBound, originalOnlyBound, splitChance };
}

interface PairSetup {
  readonly t: UpCard;
  readonly policy: Policy;
  readonly levelCap: number;
  readonly moments: boolean;
  /** The first hand's values, `first` just run on the pair (its registers hold the best non-split action). */
  readonly main: HandValues;
  readonly id: number;
  readonly pair: number;
  readonly pbj: number;
  /** Chance the pair is of one rank (rank pairs of tens), else 1. */
  readonly sameRank: number;
  readonly noSplitSq: number;
}

/** A pair: split (split.ts) or not, by the expectation or the policy; the value and its second moments. */
function pairValue(x: PairSetup): { value: number; sq: number; sqIndependent: number; split: SplitValue | null; originalOnly: boolean } {
  const { t, policy, main, id, pair: a, pbj, sameRank, noSplitSq } = x;
  const rules = t.rules;
  const decks = rules.decks;
  const wants = main.wantsSplit;
  const noSplit = main.v;
  const levels = new Map<number, HandValues>();
  const s = splitValue({
    t,
    policy,
    pair: a,
    level: (h) => {
      let hv = levels.get(h);
      if (!hv) levels.set(h, (hv = new HandValues(t, policy, a, h - 1, x.moments)));
      return hv;
    },
    levelCap: x.levelCap,
    resplitShare: (h) => (rules.splitPairsBy === 'rank' && a === 10 ? Math.max(0, (4 * decks - h) / (16 * decks - h)) : 1),
    moments: x.moments,
  });
  let split = s.sum;
  const originalOnly = rules.dealerBlackjackTakes === 'original-only' && t.bjAfterPlay;
  if (originalOnly) split += s.standingWithBlackjack - pbj * (s.noBust - s.allSettled);
  let noSplitValue = noSplit;
  let noSplitValueSq = noSplitSq;
  if (sameRank < 1) {
    // Tens of different ranks (rank pairs): no split on offer.
    main.first(id, false, 0);
    noSplitValue = main.v;
    if (main.m) noSplitValueSq = main.m[W]!;
  }
  const chooseSplit = policy.id === 'simulator-basic' ? wants : split > noSplit;
  const withSplit = chooseSplit ? split : noSplit;
  const value = sameRank * withSplit + (1 - sameRank) * noSplitValue;
  let sq = noSplitSq;
  let sqIndependent = noSplitSq;
  if (s.mo) {
    const withSplitSq = chooseSplit ? chainSecondMoment(s.mo, pbj, lossTogether(t)) : noSplitSq;
    sq = sameRank * withSplitSq + (1 - sameRank) * noSplitValueSq;
    sqIndependent = sameRank * (chooseSplit ? s.mo.independent : noSplitSq) + (1 - sameRank) * noSplitValueSq;
  }
  return { value, sq, sqIndependent, split: chooseSplit ? s : null, originalOnly };
}
