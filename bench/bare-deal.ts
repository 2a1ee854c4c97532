// Baselines for the simulators: a bare shuffle-and-deal loop with the simulator's own shoe size,
// generator and shuffle, dealing as many cards per hand as the simulator used on average (counted
// in an untimed pass), and doing nothing with them but add their values. A simulator's ratio to it
// is what playing the hand costs on top of the cards it needs.
import type { Card } from '../engine/cards/card.js';
import { freshCards, shuffled } from '../engine/cards/shoe.js';
import { CARD_VALUE } from '../engine/blackjack/simulator-cards.js';
import { SimRng } from '../engine/blackjack/simulator-rng.js';
import { Rng } from '../engine/random/seeded-rng.js';

/** What the bare loops add up, kept where the optimiser must assume it is read. */
export const sink = { sum: 0 };

/** Runs `batch` until `seconds` have passed (after one untimed batch); returns units per second. */
export function rate(seconds: number, batch: () => number): number {
  batch();
  const t0 = performance.now();
  let units = 0;
  while (performance.now() - t0 < seconds * 1000) units += batch();
  return units / ((performance.now() - t0) / 1000);
}

/**
 * The blackjack simulator's cards (ids 0..51 in a Uint8Array of `decks` × 52) and generator
 * (`SimRng`): in 'cut-card' mode the whole shoe is shuffled by `SimRng.shuffle` and dealt to the
 * cut card; in 'every-hand' mode each card is a lazy Fisher–Yates pick (`SimRng.below`) from the
 * whole shoe, as the simulator draws. Returns a batch function for `rate` (hands per batch).
 */
export function bareBlackjackDeal(opts: {
  decks: number;
  cutAt: number;
  burnStart: number;
  cardsPerHand: number;
  mode: 'cut-card' | 'every-hand';
  seed: number;
  handsPerBatch: number;
}): () => number {
  const n = opts.decks * 52;
  const shoe = new Uint8Array(n);
  for (let i = 0; i < n; i++) shoe[i] = i % 52;
  const rng = new SimRng(opts.seed);
  rng.shuffle(shoe);
  let pos = opts.burnStart;
  let owed = 0;
  const lazy = opts.mode === 'every-hand';
  return () => {
    let sum = 0;
    for (let h = 0; h < opts.handsPerBatch; h++) {
      owed += opts.cardsPerHand;
      if (lazy) {
        pos = 0;
        while (owed >= 1) {
          const j = pos + rng.below(n - pos);
          const c = shoe[j] as number;
          shoe[j] = shoe[pos] as number;
          shoe[pos] = c;
          sum += CARD_VALUE[c] as number;
          pos++;
          owed--;
        }
      } else {
        while (owed >= 1) {
          sum += CARD_VALUE[shoe[pos++] as number] as number;
          owed--;
        }
        if (pos > opts.cutAt) {
          rng.shuffle(shoe);
          pos = opts.burnStart;
        }
      }
    }
    sink.sum += sum;
    return opts.handsPerBatch;
  };
}

/**
 * The baccarat simulator's shoe: `shuffled(freshCards(decks), Rng)` (the same generator and
 * shuffle) and every card read up to the cut card, `coupsPerShoe` coups counted per shoe.
 * Returns a batch function for `rate` (coups per batch: one shoe).
 */
export function bareBaccaratDeal(opts: { decks: number; cutAt: number; coupsPerShoe: number; seed: number }): () => number {
  const rng = Rng.fromSeed(opts.seed);
  const pack = freshCards(opts.decks);
  return () => {
    const cards = shuffled(pack, rng);
    let sum = 0;
    for (let i = 0; i <= opts.cutAt; i++) sum += (cards[i] as Card).rank.charCodeAt(0);
    sink.sum += sum;
    return opts.coupsPerShoe;
  };
}

/** The war simulator's dealer: a lazy Fisher–Yates over the pack with `Rng.below`; `reset` returns every card. */
export class LazyDealer {
  dealt = 0;
  constructor(
    private readonly pack: Card[],
    private readonly rng: Rng,
  ) {}
  reset(): void {
    this.dealt = 0;
  }
  draw(): Card {
    const i = this.dealt;
    const j = i + this.rng.below(this.pack.length - i);
    const c = this.pack[j] as Card;
    this.pack[j] = this.pack[i] as Card;
    this.pack[i] = c;
    this.dealt++;
    return c;
  }
}

/** The war simulator's shuffle and deal: `cardsPerCoup` lazy draws per coup, the pack back at the cut card (or every coup). */
export function bareWarDeal(opts: {
  decks: number;
  cutAt: number;
  cardsPerCoup: number;
  everyCoup: boolean;
  seed: number;
  coupsPerBatch: number;
}): () => number {
  const dealer = new LazyDealer(freshCards(opts.decks), Rng.fromSeed(opts.seed));
  let owed = 0;
  return () => {
    let sum = 0;
    for (let h = 0; h < opts.coupsPerBatch; h++) {
      if (opts.everyCoup) dealer.reset();
      owed += opts.cardsPerCoup;
      while (owed >= 1) {
        sum += dealer.draw().rank.charCodeAt(0);
        owed--;
      }
      if (!opts.everyCoup && dealer.dealt > opts.cutAt) dealer.reset();
    }
    sink.sum += sum;
    return opts.coupsPerBatch;
  };
}
