/**
 * Monte Carlo of «Desafio ao Casino» through the coup machine: each coup has three seats with
 * the same kind of card stream (seat 1 main bet always to war, seat 2 main bet always
 * surrendering, seat 3 tie bet only), so one run estimates the three figures of the exact
 * calculator. Shoe mode deals to the cut card, finishes that coup and reshuffles; the automatic
 * shuffler deals every coup from the whole shuffled pack.
 */
import type { Card } from '../cards/card.js';
import { freshCards } from '../cards/shoe.js';
import { Rng } from '../random/seeded-rng.js';
import { addNet, edges, emptySums, mergeSums, type BetSums, type EdgeEstimate } from '../baccarat/edge-tally.js';
import { warRank, type SeatWar, type WarAction, type WarCoup } from './coup.js';
import type { WarProfile } from './profiles.js';
import { settleWarCoup } from './settle.js';

export const WAR_SIM_STAKE = 1000;
const BETS = ['main', 'mainSurrender', 'tie'] as const;
export type WarSimBet = (typeof BETS)[number];

export interface WarTally {
  hands: number;
  ties: number;
  net: BetSums<WarSimBet>;
}

export function emptyWarTally(): WarTally {
  return { hands: 0, ties: 0, net: emptySums(BETS) };
}

export function mergeWarTallies(a: WarTally, b: WarTally): WarTally {
  return { hands: a.hands + b.hands, ties: a.ties + b.ties, net: mergeSums(BETS, a.net, b.net) };
}

/** Draws without replacement by a lazy Fisher–Yates over the pack; `reset` returns every card. */
class Dealer {
  private next = 0;
  constructor(
    private readonly pack: Card[],
    private readonly rng: Rng,
  ) {}
  reset(): void {
    this.next = 0;
  }
  get dealt(): number {
    return this.next;
  }
  draw(): Card {
    const i = this.next;
    if (i >= this.pack.length) throw new Error('the shoe ran out of cards inside a coup');
    const j = i + this.rng.below(this.pack.length - i);
    const c = this.pack[j] as Card;
    this.pack[j] = this.pack[i] as Card;
    this.pack[i] = c;
    this.next++;
    return c;
  }
}

export const SIM_SEATS = [
  { seat: 1, bets: { main: WAR_SIM_STAKE } },
  { seat: 2, bets: { main: WAR_SIM_STAKE } },
  { seat: 3, bets: { tie: WAR_SIM_STAKE } },
];

/**
 * One coup of the three simulated seats, built directly from the dealer in the order the coup
 * machine expects (seat 1, 2, 3, croupier; then seat 1's war if it tied). The machine itself is
 * too slow for millions of coups; a test checks both give the same coup from the same cards.
 */
export function dealSimCoup(profile: WarProfile, dealer: { draw(): Card }): WarCoup {
  const draw = dealer.draw.bind(dealer);
  const cards = [draw(), draw(), draw()] as const;
  const croupier = draw();
  const r = warRank(croupier.rank);
  const decisions: Record<number, WarAction> = {};
  const wars: Record<number, SeatWar> = {};
  if (warRank(cards[0].rank) === r) {
    decisions[1] = 'war';
    const seatBurns: Card[] = [];
    for (let k = 0; k < profile.warBurns; k++) seatBurns.push(draw());
    const seatCard = draw();
    const croupierBurns: Card[] = [];
    for (let k = 0; k < profile.warBurns; k++) croupierBurns.push(draw());
    wars[1] = { seatBurns, seatCard, croupierBurns, croupierCard: draw() };
  }
  if (warRank(cards[1].rank) === r) decisions[2] = 'surrender';
  return {
    options: { mainBetOnTieWithTieBet: profile.mainBetOnTieWithTieBet, warBurns: profile.warBurns },
    seats: SIM_SEATS,
    cards: [...cards],
    croupier,
    decisions,
    wars,
  };
}

export function simulateWar(profile: WarProfile, hands: number, seed: number): WarTally {
  const dealer = new Dealer(freshCards(profile.decks), Rng.fromSeed(seed));
  const cutAt = profile.decks * 52 - profile.cutCardFromEnd;
  const t = emptyWarTally();
  while (t.hands < hands) {
    if (profile.shuffling === 'automatic-shuffler') dealer.reset();
    const c = dealSimCoup(profile, dealer);
    t.hands++;
    for (const l of settleWarCoup(c, profile)) {
      const bet: WarSimBet = l.bet === 'tie' ? 'tie' : l.seat === 1 ? 'main' : 'mainSurrender';
      if (l.seat === 3 && l.net > 0) t.ties++;
      addNet(t.net[bet], l.net / WAR_SIM_STAKE);
    }
    // Cut card: the coup during which it showed is finished, then the cards are reshuffled.
    if (profile.shuffling === 'shoe' && dealer.dealt > cutAt) dealer.reset();
  }
  return t;
}

export interface WarSimSummary {
  readonly hands: number;
  readonly probabilities: { readonly tie: number };
  readonly bets: Record<WarSimBet, EdgeEstimate>;
}

/** Edges in percent of the initial bet (positive = house), with their standard errors. */
export function summariseWar(t: WarTally): WarSimSummary {
  const n = t.hands;
  return { hands: n, probabilities: { tie: t.ties / n }, bets: edges(BETS, t.net, n) };
}
