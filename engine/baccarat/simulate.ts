/**
 * Monte Carlo of baccarat: whole shoes shuffled by the seeded generator, burned and cut as the
 * profile says, every coup settled through `settleBaccaratSeat` with one bet of each kind.
 * Returns sums (so runs on several threads can be merged) and, via `summariseBaccarat`, the
 * same figures as the exact calculator with their standard errors.
 */
import { freshCards, shuffled } from '../cards/shoe.js';
import { Rng } from '../random/seeded-rng.js';
import type { BaccaratProfile } from './profiles.js';
import { BACCARAT_BETS, settleBaccaratSeat, type BaccaratBet, type BaccaratBets } from './settle.js';
import { burnCount, burnKnown } from './shoe-session.js';
import { playCoup, type CoupResult } from './tableau.js';
import type { Card } from '../cards/card.js';
import { addNet, edges, emptySums, mergeSums, type BetSums, type EdgeEstimate } from './edge-tally.js';

/** Stake of each simulated bet: a multiple of 20 and of 2, so commission and halves are exact. */
export const SIM_STAKE = 10000;

export interface BaccaratTally {
  hands: number;
  banker: number;
  player: number;
  tie: number;
  /** Per bet: sum of net/stake and of its square. */
  net: BetSums<BaccaratBet>;
}

export function emptyTally(): BaccaratTally {
  return { hands: 0, banker: 0, player: 0, tie: 0, net: emptySums(BACCARAT_BETS) };
}

export function mergeTallies(a: BaccaratTally, b: BaccaratTally): BaccaratTally {
  return {
    hands: a.hands + b.hands,
    banker: a.banker + b.banker,
    player: a.player + b.player,
    tie: a.tie + b.tie,
    net: mergeSums(BACCARAT_BETS, a.net, b.net),
  };
}

/**
 * The coups of one shoe in shoe order: burn, deal until the cut card is out (it sits
 * `cutCardFromEnd` cards from the end), finish that coup and the ones after it. Same rules as
 * `ShoeSession`, written as a loop because the simulator runs it millions of times (a test
 * checks the two agree).
 */
export function coupsOfShoe(cards: readonly Card[], profile: BaccaratProfile): CoupResult[] {
  let i = burnKnown(profile) ?? 0;
  if (profile.burn === 'first-card-value') {
    const first = cards[0];
    if (first === undefined) return [];
    i = 1 + burnCount(first);
  }
  const cutAt = cards.length - profile.cutCardFromEnd;
  const out: CoupResult[] = [];
  let left: number | null = null;
  while (left !== 0) {
    const start = i;
    const { result, used } = playCoup(cards, i);
    i += used;
    out.push(result);
    if (left !== null) left--;
    // The cut card shows when the card at cutAt is about to be drawn, i.e. within this coup.
    else if (start <= cutAt && cutAt < i) left = profile.coupsAfterCutCard;
    else if (start > cutAt) throw new Error('unreachable: the cut card was passed unseen');
  }
  return out;
}

const ALL_BETS: BaccaratBets = Object.fromEntries(BACCARAT_BETS.map((b) => [b, SIM_STAKE]));

export function simulateBaccarat(profile: BaccaratProfile, hands: number, seed: number): BaccaratTally {
  const rng = Rng.fromSeed(seed);
  const pack = freshCards(profile.decks);
  const t = emptyTally();
  while (t.hands < hands) {
    for (const r of coupsOfShoe(shuffled(pack, rng), profile)) {
      if (t.hands >= hands) break;
      t.hands++;
      t[r.winner]++;
      for (const l of settleBaccaratSeat(1, ALL_BETS, r, profile)) addNet(t.net[l.bet as BaccaratBet], l.net / SIM_STAKE);
    }
  }
  return t;
}

export interface BaccaratSimSummary {
  readonly hands: number;
  readonly probabilities: { readonly banker: number; readonly player: number; readonly tie: number };
  readonly bets: Record<BaccaratBet, EdgeEstimate>;
}

/** Edges in percent (positive = house), with the standard error of each mean in percent. */
export function summariseBaccarat(t: BaccaratTally): BaccaratSimSummary {
  const n = t.hands;
  return { hands: n, probabilities: { banker: t.banker / n, player: t.player / n, tie: t.tie / n }, bets: edges(BACCARAT_BETS, t.net, n) };
}
