import { ANY_PAIR_PAYS, OVER_UNDER_PAYS, PERFECT_PAIRS_PAYS, SEVENS_PAYS } from './side-bets.js';

/**
 * Exact expected values of the additional bets decided by a hand's first two cards (Macau 2009
 * Art. 13–14), for a full shoe of `decks` decks. Results are the house edge in percent of the
 * stake (positive = house advantage).
 *
 * - any pair: the first two cards only (pairs formed later by splits, Art. 13 1)(2), pay more
 *   and are not in this figure; the simulator counts them);
 * - sevens: with the third 7 (Art. 13 2)(2)) counted as if the player always splits 7-7, the
 *   bettor's best play for this bet; `sevensNoSplit` counts two 7s only;
 * - over/under 13 with the ace counted `aceValue` (1 by default).
 */
export interface ExactSideBets {
  anyPair: number;
  perfectPairs: number;
  sevens: number;
  sevensNoSplit: number;
  over13: number;
  under13: number;
}

export function exactSideBetEdges(decks: number, aceValue = 1): ExactSideBets {
  if (!Number.isInteger(decks) || decks < 1) throw new RangeError(`decks must be a positive integer, got ${decks}`);
  const D = decks;
  const N = 52 * D;
  // First card any; second from the N-1 left.
  const sameRank = (4 * D - 1) / (N - 1);
  const anyPair = ANY_PAIR_PAYS * sameRank - (1 - sameRank);

  const perfect = (D - 1) / (N - 1);
  const coloured = D / (N - 1);
  const mixed = (2 * D) / (N - 1);
  const perfectPairs =
    PERFECT_PAIRS_PAYS.perfect * perfect + PERFECT_PAIRS_PAYS.coloured * coloured + PERFECT_PAIRS_PAYS.mixed * mixed - (1 - perfect - coloured - mixed);

  // Two sevens: same suit or not; a third seven is the next card of the shoe we know nothing
  // else about (the dealer's cards in between are unseen, so by exchangeability it is any of the N-2).
  const p7 = (4 * D) / N;
  const twoSuited = p7 * ((D - 1) / (N - 1));
  const twoMixed = p7 * ((3 * D) / (N - 1));
  const thirdSeven = (4 * D - 2) / (N - 2);
  const thirdSuitedGivenSuited = (D - 2) / (N - 2);
  const threeSuited = twoSuited * Math.max(0, thirdSuitedGivenSuited);
  const three = twoSuited * (thirdSeven - Math.max(0, thirdSuitedGivenSuited)) + twoMixed * thirdSeven;
  const twoSuitedOnly = twoSuited - twoSuited * thirdSeven;
  const twoMixedOnly = twoMixed * (1 - thirdSeven);
  const win = threeSuited + three + twoSuitedOnly + twoMixedOnly;
  const sevens =
    SEVENS_PAYS.threeSuited * threeSuited + SEVENS_PAYS.three * three + SEVENS_PAYS.twoSuited * twoSuitedOnly + SEVENS_PAYS.two * twoMixedOnly - (1 - win);
  const sevensNoSplit = SEVENS_PAYS.twoSuited * twoSuited + SEVENS_PAYS.two * twoMixed - (1 - twoSuited - twoMixed);

  // Over/under 13 over the rank-value composition.
  const counts: number[] = [];
  for (let v = 1; v <= 10; v++) counts[v] = v === 10 ? 16 * D : 4 * D;
  let pOver = 0;
  let pUnder = 0;
  for (let a = 1; a <= 10; a++) {
    for (let b = 1; b <= 10; b++) {
      const p = ((counts[a] as number) / N) * (((counts[b] as number) - (a === b ? 1 : 0)) / (N - 1));
      const t = (a === 1 ? aceValue : a) + (b === 1 ? aceValue : b);
      if (t > 13) pOver += p;
      else if (t < 13) pUnder += p;
    }
  }
  const over13 = OVER_UNDER_PAYS * pOver - (1 - pOver);
  const under13 = OVER_UNDER_PAYS * pUnder - (1 - pUnder);
  const pct = (ev: number): number => -ev * 100;
  return {
    anyPair: pct(anyPair),
    perfectPairs: pct(perfectPairs),
    sevens: pct(sevens),
    sevensNoSplit: pct(sevensNoSplit),
    over13: pct(over13),
    under13: pct(under13),
  };
}
