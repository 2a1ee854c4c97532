/**
 * Exact figures of «Desafio ao Casino» for one seat dealt from a shoe of known composition.
 * The three cards burned before each war card are unseen, so by exchangeability the seat's and
 * the croupier's war cards are distributed as the next two cards after the tied pair; no burn
 * needs enumerating (exact as long as the shoe holds the cards a war needs).
 */
import { RANKS } from '../cards/card.js';
import type { WarProfile } from './profiles.js';

export interface WarExact {
  readonly probabilities: { readonly tie: number };
  /**
   * House edge in percent of the initial bet (positive = house advantage); for the main bet going
   * to war and the tie bet, the variance of the result per unit of the initial bet (E[X²] − E[X]²).
   */
  readonly bets: {
    readonly main: { readonly houseEdge: number; readonly variance: number };
    readonly mainSurrender: { readonly houseEdge: number };
    readonly tie: { readonly houseEdge: number; readonly variance: number };
  };
}

function sameRank(counts: readonly number[]): number {
  const n = counts.reduce((a, b) => a + b, 0);
  let same = 0;
  for (const k of counts) same += k * (k - 1);
  return same / (n * (n - 1));
}

/** `counts`: cards of each rank A…K left in the shoe. */
export function exactWar(
  profile: Pick<WarProfile, 'decks' | 'tiePays' | 'warBurns'>,
  counts: readonly number[] = RANKS.map(() => 4 * profile.decks),
): WarExact {
  if (counts.length !== 13 || counts.some((k) => !Number.isInteger(k) || k < 0)) throw new RangeError('expected 13 non-negative rank counts');
  const n = counts.reduce((a, b) => a + b, 0);
  const needed = 4 + 2 * profile.warBurns;
  if (n < needed) throw new RangeError(`a war needs ${needed} cards; the shoe has ${n}`);
  let pTie = 0;
  let warEv = 0; // expectation of the war outcome, weighted by the probability of each tie
  let warSquare = 0; // E[X²] of the war outcome, weighted alike: +1 higher, +2 tied again, −2 lower
  // The non-tie first cards need no sum: higher and lower are equally likely by symmetry, but the
  // sum is done in full so an uneven composition is handled too.
  let firstEv = 0;
  counts.forEach((ki, i) => {
    counts.forEach((kj, j) => {
      if (i === j) return;
      const p = (ki * kj) / (n * (n - 1));
      // ranks are A…K here; war order puts the ace on top
      const hi = (x: number): number => (x === 0 ? 14 : x + 1);
      firstEv += hi(i) > hi(j) ? p : -p;
    });
    if (ki < 2) return;
    const p = (ki * (ki - 1)) / (n * (n - 1));
    pTie += p;
    const rest = counts.map((k, r) => (r === i ? k - 2 : k));
    const eq = sameRank(rest);
    const higher = (1 - eq) / 2; // higher and lower are symmetric for any composition
    warEv += p * (higher * 1 + eq * 2 - higher * 2);
    warSquare += p * (higher * 1 + eq * 4 + higher * 4);
  });
  const tieEv = pTie * profile.tiePays - (1 - pTie);
  const mainEv = firstEv + warEv;
  // Not tied, the main bet is won or lost (±1): E[X²] gets 1 − P(tie) from the first cards.
  const mainSquare = 1 - pTie + warSquare;
  return {
    probabilities: { tie: pTie },
    bets: {
      main: { houseEdge: -100 * mainEv, variance: mainSquare - mainEv * mainEv },
      mainSurrender: { houseEdge: -100 * (firstEv - 0.5 * pTie) },
      tie: { houseEdge: -100 * tieEv, variance: pTie * profile.tiePays ** 2 + (1 - pTie) - tieEv * tieEv },
    },
  };
}
