import { BUST, DEALER_BJ, OUTCOMES } from './dealer.js';

/**
 * The second moment of the main bet beside its expectation (issue 49 item 5: the back office's
 * band around the theoretical hold). A hand's result X is a function of how the hand ends (stood
 * with a total, busted, or settled during play) and of the dealer's outcome D (17..21, bust,
 * Black Jack). Every register below is the expectation of such a function, so each is linear in
 * the probabilities exactly like the expected value `v` of hand-values.ts: a draw averages its
 * children's registers, a decision copies the registers of the action the expectation chose.
 *
 * - `W`: E[X²]; `W6`: E[X²; D = Black Jack].
 * - `E0 + k`: E[X; D = k] for each dealer outcome k (OUTCOMES of dealer.ts). A split seat's hands
 *   meet the same dealer: split-moments.ts takes them independent given D, and needs each hand's
 *   result by the dealer's outcome for the cross terms E[X₁X₂].
 * - `AB, QB`, `AO, QO`, `AS, QS`: for the dealer's Black Jack found after play, by how the hand
 *   ended (busted, settled during play, standing), E[a; D = BJ and that end] and E[a²; …], where a
 *   is what the hand is paid whatever the other hands do (its bust, its settlement, a 6-7-8 prize
 *   on top; a standing hand's own loss left out). Macau 2009 Art. 16 n.6 settles a split seat's
 *   standing hands together (one original bet in all, nothing once one hand busted), which is not
 *   a sum over hands: split-moments.ts rebuilds it from these.
 */
export const W = 0;
export const W6 = 1;
export const E0 = 2;
export const AB = E0 + OUTCOMES;
export const QB = AB + 1;
export const AO = AB + 2;
export const QO = AB + 3;
export const AS = AB + 4;
export const QS = AB + 5;
/** Registers per hand. */
export const MOMENTS = AS + 2;

/** How the dealer's Black Jack meets the hand: `peek` (it ended the round before play: X = 0 here, the round adds its loss), `after` (found after play, ace or ten up). */
export interface BlackjackMeeting {
  readonly peek: boolean;
  readonly after: boolean;
}

/**
 * A standing hand of `stake` with `total` against the dealer's outcome probabilities `d[at..]`;
 * `bjLoss`: its result against a Black Jack found after play (0 when none can be).
 */
export function standMoments(m: Float64Array, d: Float64Array, at: number, total: number, stake: number, bjLoss: number): void {
  m.fill(0);
  let w = 0;
  for (let k = 0; k < 5; k++) {
    const x = total > 17 + k ? stake : total < 17 + k ? -stake : 0;
    const p = d[at + k]!;
    m[E0 + k] = x * p;
    w += x * x * p;
  }
  const pb = d[at + BUST]!;
  m[E0 + BUST] = stake * pb;
  w += stake * stake * pb;
  const pj = d[at + DEALER_BJ]!;
  m[E0 + DEALER_BJ] = bjLoss * pj;
  m[W6] = bjLoss * bjLoss * pj;
  m[W] = w + bjLoss * bjLoss * pj;
}

/**
 * A result `x` fixed during play (a bust, a surrender, the five-card payment, the 6-7-8 prize),
 * whatever the dealer then draws, the dealer's outcomes at `d[at..]` (the hand's cards out);
 * `cls`: AB (a bust) or AO (settled). With a peek, a dealer Black Jack came first: X = 0 there.
 */
export function fixedMoments(m: Float64Array, d: Float64Array, at: number, x: number, meet: BlackjackMeeting, cls: number): void {
  m.fill(0);
  let w = 0;
  for (let k = 0; k < DEALER_BJ; k++) {
    const p = d[at + k]!;
    m[E0 + k] = x * p;
    w += x * x * p;
  }
  const pj = d[at + DEALER_BJ]!;
  const onBj = meet.peek ? 0 : x;
  m[E0 + DEALER_BJ] = onBj * pj;
  m[W6] = onBj * onBj * pj;
  m[W] = w + onBj * onBj * pj;
  if (meet.after) {
    m[cls] = x * pj;
    m[cls + 1] = x * x * pj;
  }
}

/**
 * The 6-7-8 prize of `amount` with probability `pi` (the suits), over the standing hand's
 * registers already in `m`: instead of the main result (`replaces`) or on top of it. The prize is
 * a matter of suits, independent of the dealer's cards. `scratch` holds MOMENTS numbers.
 */
export function prizeMoments(
  m: Float64Array,
  d: Float64Array,
  at: number,
  pi: number,
  amount: number,
  replaces: boolean,
  meet: BlackjackMeeting,
  scratch: Float64Array,
): void {
  if (replaces) {
    fixedMoments(scratch, d, at, amount, meet, AO);
    for (let i = 0; i < MOMENTS; i++) m[i] = pi * scratch[i]! + (1 - pi) * m[i]!;
    return;
  }
  // X = S + P, P = amount with probability pi (nothing against a peeked Black Jack, where S = 0 too).
  let es = 0;
  for (let k = 0; k < OUTCOMES; k++) es += m[E0 + k]!;
  const pj = d[at + DEALER_BJ]!;
  m[W] = m[W]! + 2 * amount * pi * es + amount * amount * pi * (meet.peek ? 1 - pj : 1);
  for (let k = 0; k < DEALER_BJ; k++) m[E0 + k] = m[E0 + k]! + pi * amount * d[at + k]!;
  if (!meet.peek) {
    m[W6] = m[W6]! + 2 * amount * pi * m[E0 + DEALER_BJ]! + amount * amount * pi * pj;
    m[E0 + DEALER_BJ] = m[E0 + DEALER_BJ]! + pi * amount * pj;
  }
  if (meet.after) {
    m[AS] = m[AS]! + pi * amount * pj;
    m[QS] = m[QS]! + pi * amount * amount * pj;
  }
}

/** `acc += p · m`. */
export function addScaled(acc: Float64Array, m: Float64Array, p: number): void {
  for (let i = 0; i < MOMENTS; i++) acc[i] = acc[i]! + p * m[i]!;
}
