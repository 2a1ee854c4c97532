import { DEALER_BJ, OUTCOMES } from './dealer.js';
import { AB, AO, AS, E0, QB, QO, QS, W, W6 } from './moments.js';

/**
 * The second moment of a split seat's result Y = X₁ + … + Xₙ (its hands' results) along the chain
 * of split.ts. The hands meet one dealer, so E[Y²] = Σ E[Xᵢ²] + 2 Σᵢ<ⱼ E[XᵢXⱼ] needs the cross
 * terms, and these come from each hand's result by the dealer's outcome D (moments.ts): on the
 * split model of split.ts (each hand drawn from the shoe less its own cards, the up card and the
 * split cards dealt so far, not the other hands' cards) the hands are independent given D, so
 *
 *     E[XᵢXⱼ] = Σₖ E[Xᵢ; D = k] · E[Xⱼ | D = k],
 *
 * E[Xⱼ | D = k] = E[Xⱼ; D = k] / P(D = k), P the dealer's outcome off the shoe of hand j's level
 * (the up card and that many cards of the pair's value out: by exchangeability, whatever the hand
 * drew, the dealer's outcome averaged over its draws is that shoe's). The second cards and the
 * resplits are drawn, on that model, independently of D. The cross term takes hand i's own joint
 * E[Xᵢ; D = k]: when the hands are of different levels (a resplit) the two shoes differ by a card of
 * the pair's value, as they already do for the expectation.
 *
 * Macau 2009 Art. 16 n.6 (`dealerBlackjackTakes=original-only`): against a dealer Black Jack found
 * after play the standing hands of a split seat lose one original bet together, nothing once a hand
 * busted. Given D = BJ the seat is then Y = Σ aᵢ − [no hand busted and some hand stands] (aᵢ: what
 * hand i is paid whatever the others do, moments.ts): the chain carries, given D = BJ, the chance
 * of each of "no bust, none standing", "no bust, some standing", "a bust", with E[S] and E[S²] of
 * S = Σ aᵢ in each, the hands independent given D = BJ (the same assumption as the expectation's
 * product form in split.ts).
 */
export interface ChainMoments {
  /** E[Y²] with D = BJ left out under Art. 16 n.6 (added from `cls`), else in full. */
  sq: number;
  /**
   * A foil for the tests: E[Y²] as if the hands were independent (E[XᵢXⱼ] = E[Xᵢ]E[Xⱼ], no dealer
   * in common, each standing hand losing its own stake to a Black Jack). The simulation must tell
   * it from `sq`, or its interval is too wide to check the cross terms.
   */
  independent: number;
  /** E[Y | D = k] for each dealer outcome. */
  readonly c: Float64Array;
  /** Given D = BJ, per class (none standing, some standing, a bust): P, E[S; class], E[S²; class]. */
  readonly cls: Float64Array;
}

const N0 = 0;
const N1 = 3;
const BUSTED = 6;

export function emptyChain(): ChainMoments {
  const cls = new Float64Array(9);
  cls[N0] = 1;
  return { sq: 0, independent: 0, c: new Float64Array(OUTCOMES), cls };
}

export function zeroChain(): ChainMoments {
  return { sq: 0, independent: 0, c: new Float64Array(OUTCOMES), cls: new Float64Array(9) };
}

/** A split hand: its registers (moments.ts), its expectation, its chances of a dealer BJ with a bust (b) or a settlement during play (o). */
export interface SplitHandMoments {
  readonly m: Float64Array;
  readonly v: number;
  readonly b: number;
  readonly o: number;
}

/**
 * `acc += q · (hand x, then the rest r)` (`restSum`: the rest's expectation); `p`: the dealer's outcome probabilities off the hand's
 * level's shoe; `together`: Art. 16 n.6 applies (no peek, ace or ten up, original-only).
 */
export function chainAdd(acc: ChainMoments, q: number, x: SplitHandMoments, r: ChainMoments, restSum: number, p: ArrayLike<number>, together: boolean): void {
  const m = x.m;
  acc.independent += q * (m[W]! + r.independent + 2 * x.v * restSum);
  const kMax = together ? DEALER_BJ : OUTCOMES;
  let cross = 0;
  for (let k = 0; k < kMax; k++) cross += m[E0 + k]! * r.c[k]!;
  acc.sq += q * (m[W]! - (together ? m[W6]! : 0) + r.sq + 2 * cross);
  for (let k = 0; k < OUTCOMES; k++) acc.c[k] = acc.c[k]! + q * ((p[k]! > 0 ? m[E0 + k]! / p[k]! : 0) + r.c[k]!);
  if (!together) return;
  const pj = p[DEALER_BJ]!;
  if (!(pj > 0)) return;
  // The hand given D = BJ: busted, settled, standing (the rest of its chance).
  const ends: [number, number, number, number][] = [
    [x.b / pj, m[AB]! / pj, m[QB]! / pj, BUSTED],
    [x.o / pj, m[AO]! / pj, m[QO]! / pj, N0],
    [1 - (x.b + x.o) / pj, m[AS]! / pj, m[QS]! / pj, N1],
  ];
  for (const [ph, a1, a2, to] of ends) {
    for (const from of [N0, N1, BUSTED]) {
      const target = to === BUSTED || from === BUSTED ? BUSTED : to === N1 || from === N1 ? N1 : N0;
      const pr = r.cls[from]!;
      const s1 = r.cls[from + 1]!;
      const s2 = r.cls[from + 2]!;
      acc.cls[target] = acc.cls[target]! + q * ph * pr;
      acc.cls[target + 1] = acc.cls[target + 1]! + q * (a1 * pr + ph * s1);
      acc.cls[target + 2] = acc.cls[target + 2]! + q * (a2 * pr + 2 * a1 * s1 + ph * s2);
    }
  }
}

/** `acc += q · r` (a resplit: its chain in place of this hand and the rest). */
export function chainAddScaled(acc: ChainMoments, q: number, r: ChainMoments): void {
  acc.sq += q * r.sq;
  acc.independent += q * r.independent;
  for (let k = 0; k < OUTCOMES; k++) acc.c[k] = acc.c[k]! + q * r.c[k]!;
  for (let i = 0; i < 9; i++) acc.cls[i] = acc.cls[i]! + q * r.cls[i]!;
}

/** E[Y²] of the split seat: `pbj` the chance of a dealer Black Jack off the seat's shoe (both pair cards out). */
export function chainSecondMoment(r: ChainMoments, pbj: number, together: boolean): number {
  if (!together) return r.sq;
  let bj = 0;
  for (const k of [N0, N1, BUSTED]) bj += r.cls[k + 2]!;
  // Y = S − 1 on "no bust, some standing": E[Y²] = E[S²] − 2E[S; N1] + P(N1).
  bj += -2 * r.cls[N1 + 1]! + r.cls[N1]!;
  return r.sq + pbj * bj;
}
