import { KEY_WEIGHT } from './compositions.js';
import { OUTCOMES } from './dealer.js';
import type { HandValues } from './hand-values.js';
import { chainAdd, chainAddScaled, emptyChain, zeroChain, type ChainMoments } from './split-moments.js';
import type { Policy } from './policy.js';
import type { UpCard } from './up-card.js';

/**
 * The value of splitting a pair, by the standard published approximation (the one behind the
 * Wizard of Odds' Blackjack Appendix 9 tables): each split hand is played with exact card
 * removal of its own cards, the up card and the split cards dealt so far ("how many hands the
 * player had already split"), but not of the cards drawn to the seat's other split hands.
 *
 * On that model the number of hands is a small Markov chain: hands formed `h` (= cards of the
 * pair's value out of the shoe), hands still waiting for their second card `p`, and whether a
 * resplit was declined (Macau Art. 16 n.5 then forbids later ones). Each hand's value comes from
 * `HandValues` at level h. Levels above `levelCap` reuse the cap's values. A hand valued k levels
 * too low plays from a shoe holding k more cards of the pair's value; drawing at most
 * MAX_DRAWN cards for the hand and the dealer, the two shoes deal the same cards except with
 * probability MAX_DRAWN * k / (cards left), so its value is off by at most that times the range
 * of a hand's result: the caller gets the sum of those chances, for an error bound.
 *
 * For "split hands lose only the original bet to a dealer Black Jack" (Macau 2009 Art. 16 n.6)
 * the loss is not a sum over hands: nothing more is lost once a hand has busted, and one unit at
 * most otherwise. The chain also carries, assuming the hands independent given a dealer Black
 * Jack, the chance that no hand busts and the chance that every hand was settled during play.
 * Whatever the dependence between hands, both chances lie between 1 - (sum over hands of P(bust
 * or settled | BJ)) and 1, so the error of that product form is at most the sum over hands of
 * P(BJ and the hand busted or was settled): `bustOrSettledWithBlackjack`, for the bound.
 */
export interface SplitValue {
  /** Sum of the hands' values (each standing hand losing its own unit to a dealer Black Jack). */
  sum: number;
  /** Sum over hands of P(dealer Black Jack and the hand stands). */
  standingWithBlackjack: number;
  /** E[product over hands of P(no bust | dealer Black Jack)] and of P(settled during play | BJ). */
  noBust: number;
  allSettled: number;
  /** Sum over hands of P(dealer Black Jack and the hand busted or was settled during play). */
  bustOrSettledWithBlackjack: number;
  /** Sum over hands valued above the level cap of the chance their shoe deals differently. */
  beyondCap: number;
  /** The seat's second moment along the chain (split-moments.ts), when the levels carry moments. */
  mo: ChainMoments | null;
}

/** Most cards a split hand and the dealer can draw: 20 to the hand (all aces), 16 to the dealer. */
const MAX_DRAWN = 36;

export interface SplitSetup {
  readonly t: UpCard;
  readonly policy: Policy;
  readonly pair: number;
  /** Hand values with `level - 1` more cards of the pair's value removed than the hand holds. */
  readonly level: (h: number) => HandValues;
  readonly levelCap: number;
  /** Probability that a drawn card of the pair's value may be split again (rank pairs of tens). */
  readonly resplitShare: (h: number) => number;
  /** Second moments asked for (the levels' HandValues carry them). */
  readonly moments?: boolean;
}

const ZERO: SplitValue = { sum: 0, standingWithBlackjack: 0, noBust: 1, allSettled: 1, bustOrSettledWithBlackjack: 0, beyondCap: 0, mo: emptyChain() };

type Hand = { v: number; b: number; o: number; s: number; wantsSplit: boolean; m: Float64Array };

/** Art. 16 n.6 for the moments: a split seat's standing hands lose one original bet together. */
export function lossTogether(t: { rules: { dealerBlackjackTakes: string }; bjAfterPlay: boolean }): boolean {
  return t.rules.dealerBlackjackTakes === 'original-only' && t.bjAfterPlay;
}

export function splitValue(s: SplitSetup): SplitValue {
  const { t, pair: v } = s;
  const rules = t.rules;
  const maxHands = Math.min(rules.maxHands, t.shoe[v]! + 1);
  const mayResplit = v === 1 ? rules.resplitAces : rules.resplit;
  const memo = new Map<number, SplitValue>();
  const moments = s.moments === true;
  const together = lossTogether(t);
  const marginal = levelMarginals(t, v);
  const hand = splitHands(s);

  const value = (h: number, p: number, declined: boolean): SplitValue => {
    if (p === 0) return ZERO;
    const key = (h * 128 + p) * 2 + (declined ? 1 : 0);
    const hit = memo.get(key);
    if (hit) return hit;
    const left = t.total - h;
    // P(dealer Black Jack) from this level's hand's start: its own card and h - 1 others out.
    const bj = t.bjCard;
    const pbj = bj > 0 && t.bjAfterPlay ? (t.shoe[bj]! - (v === bj ? h : 0)) / left : 0;
    const rest = value(h, p - 1, declined);
    const acc: SplitValue = {
      sum: 0,
      standingWithBlackjack: 0,
      noBust: 0,
      allSettled: 0,
      bustOrSettledWithBlackjack: 0,
      beyondCap: 0,
      mo: moments ? zeroChain() : null,
    };
    const pLevel = moments ? marginal(Math.min(h, s.levelCap)) : null;
    const capped = h > s.levelCap ? Math.min(1, (MAX_DRAWN * (h - s.levelCap)) / (left - MAX_DRAWN)) : 0;
    const add = (q: number, x: Hand, r: SplitValue): void => {
      if (acc.mo && r.mo && pLevel) chainAdd(acc.mo, q, x, r.mo, r.sum, pLevel, together);
      acc.sum += q * (x.v + r.sum);
      acc.standingWithBlackjack += q * (x.s + r.standingWithBlackjack);
      acc.noBust += q * (pbj > 0 ? 1 - x.b / pbj : 1) * r.noBust;
      acc.allSettled += q * (pbj > 0 ? x.o / pbj : 0) * r.allSettled;
      acc.bustOrSettledWithBlackjack += q * (x.b + x.o + r.bustOrSettledWithBlackjack);
      acc.beyondCap += q * (capped + r.beyondCap);
    };
    const canResplit = mayResplit && h < maxHands && (!declined || rules.resplitAfterDecline);
    for (let x = 1; x <= 10; x++) {
      const avail = t.shoe[x]! - (x === v ? h : 0);
      if (avail <= 0) continue;
      const q = avail / left;
      const share = x === v && canResplit ? s.resplitShare(h) : 0;
      if (share < 1) add(q * (1 - share), hand(h, x, false), rest);
      if (share <= 0) continue;
      const no = hand(h, x, true);
      const noRest = value(h, p - 1, true);
      const yes = value(h + 1, p + 1, declined);
      const split = s.policy.id === 'simulator-basic' ? no.wantsSplit : yes.sum > no.v + noRest.sum;
      if (split) addResplit(acc, q * share, yes);
      else add(q * share, no, noRest);
    }
    memo.set(key, acc);
    return acc;
  };
  return value(2, 2, false);
}

/** One split hand at level h whose second card is x (`offered`: a resplit would be legal), valued once. */
function splitHands(s: SplitSetup): (h: number, x: number, offered: boolean) => Hand {
  const { t, pair: v } = s;
  const comps = t.comps;
  const hands = new Map<number, Hand>();
  const acesWanted = (): boolean => {
    const ranked = s.policy.first(t.up, 2, true, 1, true);
    return ranked ? ranked[0] === 'split' : true;
  };
  return (h, x, offered) => {
    const level = Math.min(h, s.levelCap);
    const key = (level * 16 + x) * 2 + (offered ? 1 : 0);
    const hit = hands.get(key);
    if (hit) return hit;
    const hv = s.level(level);
    const id = comps.of(v, x);
    if (v === 1)
      hv.stand(id, 1); // one card to each split ace (Art. 16 n.3; rule 26)
    else hv.first(id, true, offered ? v : 0);
    const pbj = hv.blackjackChance(id);
    const out: Hand = {
      v: hv.v,
      b: hv.b,
      o: hv.o,
      s: t.bjAfterPlay ? pbj - hv.b - hv.o : 0,
      wantsSplit: v === 1 ? acesWanted() : hv.wantsSplit,
      m: hv.m ? hv.m.slice() : new Float64Array(0),
    };
    hands.set(key, out);
    return out;
  };
}

/** The dealer's outcome off each level's shoe (the up card and `level` cards of the pair's value `v` out), kept. */
function levelMarginals(t: UpCard, v: number): (level: number) => Float64Array {
  const marginals = new Map<number, Float64Array>();
  return (level) => {
    let p = marginals.get(level);
    if (!p) {
      const at = t.cache.offset(level * KEY_WEIGHT[v]!);
      marginals.set(level, (p = t.cache.values().slice(at, at + OUTCOMES)));
    }
    return p;
  };
}

/** `acc += w · yes`: a resplit taken, its chain in place of this hand and the rest. */
function addResplit(acc: SplitValue, w: number, yes: SplitValue): void {
  acc.sum += w * yes.sum;
  acc.standingWithBlackjack += w * yes.standingWithBlackjack;
  acc.noBust += w * yes.noBust;
  acc.allSettled += w * yes.allSettled;
  acc.bustOrSettledWithBlackjack += w * yes.bustOrSettledWithBlackjack;
  acc.beyondCap += w * yes.beyondCap;
  if (acc.mo && yes.mo) chainAddScaled(acc.mo, w, yes.mo);
}
