import { computeStrategy, type StrategyAction, type StrategyTable } from './strategy/basic-strategy.js';
import { dealerDrawsOn } from './hand.js';
import type { BlackjackRules } from './rules.js';
import { firstTwoCardTable } from './simulator-cards.js';

/**
 * What the simulator reads instead of calling the strategy, the dealer's rule and the side-bet
 * rules: integer-indexed tables, built once per rule set and shared by every simulator of a run.
 *
 * A decision entry is the strategy's ranked list (`StrategyTable.ranked`) already filtered by
 * what the rules allow in that state, so a decision is one array read: no list walk, closure or
 * map. Every legality condition but the split's is a function of the key; the split's (hands
 * left, an earlier declined resplit) is decided by the caller, which passes pair value 0 when a
 * split is not allowed, as the strategy itself is asked. The tables are filled whole, for every
 * state a hand can reach, before play: the hot code then has no fill path, which V8 would
 * otherwise compile into it.
 */

export const HIT = 1;
export const STAND = 2;
export const DOUBLE = 3;
export const SPLIT = 4;
export const SURRENDER = 5;
/** Double with the soft ace counted as 1 for the rest of the hand (Portugal rule 32). */
export const DOUBLE_ACE_LOCKED = 6;

const CODE: Record<StrategyAction, number> = { hit: HIT, stand: STAND, double: DOUBLE, split: SPLIT, surrender: SURRENDER };

/** Hard sums index the tables up to 31 (a dealer's hard 16 plus a ten is 26). */
const HARD = 32;

/** Index of a hand's first decision: up card, hard sum, ace (0/1), pair value (0: split not allowed), from a split (0/1). */
export function firstKey(u: number, hard: number, ace: number, pair: number, fromSplit: number): number {
  return (((u * HARD + hard) * 2 + ace) * 11 + pair) * 2 + fromSplit;
}

/**
 * Index of a later decision (hit or stand): up card, hard sum, ace, cards (7 stands for seven or
 * more, as in the strategy). Whether the hand came from a split does not enter: the strategy
 * values a later decision by hitting and standing alone.
 */
export function laterKey(u: number, hard: number, ace: number, n: number): number {
  return ((u * HARD + hard) * 2 + ace) * 8 + (n > 7 ? 7 : n);
}

/** Index of the five-card half-payment choice: up card, hard sum, ace. */
export function fiveKey(u: number, hard: number, ace: number): number {
  return (u * HARD + hard) * 2 + ace;
}

export class SimTables {
  readonly rules: BlackjackRules;
  readonly strategy: StrategyTable;
  /** Action codes by `firstKey`. */
  readonly first = new Uint8Array(11 * HARD * 2 * 11 * 2);
  /** HIT or STAND by `laterKey`. */
  readonly later = new Uint8Array(11 * HARD * 2 * 8);
  /** 1 where the five-card half payment is taken, by `fiveKey`. */
  readonly takeFive = new Uint8Array(11 * HARD * 2);
  /** 1 where split aces that drew an ace are split again, by up card. */
  readonly splitAcesAgain = new Uint8Array(11);
  /** 1 where the dealer draws, by `(hard * 2 + ace) * 2 + (two cards ? 1 : 0)`. */
  readonly dealerDraws = new Uint8Array(HARD * 4);
  /** The first-two-card side bets (`firstTwoCardTable`). */
  readonly firstTwo: Int16Array;
  private readonly doubleFrom: number;

  constructor(rules: BlackjackRules, strategy: StrategyTable = computeStrategy(rules)) {
    this.rules = rules;
    this.strategy = strategy;
    this.doubleFrom = rules.doubleOn === 'nine-to-eleven' ? 9 : rules.doubleOn === 'ten-eleven' ? 10 : 11;
    this.firstTwo = firstTwoCardTable(rules);
    for (let hard = 0; hard < HARD; hard++) {
      for (let ace = 0; ace < 2; ace++) {
        for (let two = 0; two < 2; two++)
          this.dealerDraws[(hard * 2 + ace) * 2 + two] = dealerDrawsOn(hard, ace === 1, two ? 2 : 3, rules.dealerSoft17) ? 1 : 0;
      }
    }
    for (let u = 1; u <= 10; u++) {
      this.splitAcesAgain[u] = strategy.ranked(u, 2, true, 2, 1, true, true)[0] === 'split' ? 1 : 0;
      // Two cards of values a ≤ b; a 21 (ace and ten) takes no decision.
      for (let a = 1; a <= 10; a++) {
        for (let b = a; b <= 10; b++) {
          const ace = a === 1 ? 1 : 0;
          if (ace === 1 && b === 10) continue;
          for (let fromSplit = 0; fromSplit < 2; fromSplit++) {
            this.first[firstKey(u, a + b, ace, 0, fromSplit)] = this.pickFirst(u, a + b, ace, 0, fromSplit);
            if (a === b) this.first[firstKey(u, a + b, ace, a, fromSplit)] = this.pickFirst(u, a + b, ace, a, fromSplit);
          }
        }
      }
      // n cards: with an ace the hard sum is at least n, without one at least 2n; below 21 in total.
      for (let n = 3; n <= 7; n++) {
        for (let hard = n; hard <= 20; hard++) {
          for (let ace = 0; ace < 2; ace++) {
            if ((ace === 0 && hard < 2 * n) || (ace === 1 && hard === 11)) continue;
            this.later[laterKey(u, hard, ace, n)] = this.pickLater(u, hard, ace, n);
          }
        }
      }
      if (rules.fiveCardHalfPay) {
        for (let hard = 5; hard <= 21; hard++) {
          for (let ace = 0; ace < 2; ace++) {
            if (ace === 0 && hard < 10) continue;
            this.takeFive[fiveKey(u, hard, ace)] = strategy.takeFiveCardHalf(u, hard, ace === 1) ? 1 : 0;
          }
        }
      }
    }
  }

  private pickFirst(u: number, hard: number, ace: number, pair: number, fromSplit: number): number {
    const r = this.rules;
    const tot = ace === 1 && hard + 10 <= 21 ? hard + 10 : hard;
    let double = 0;
    if (fromSplit === 0 || r.doubleAfterSplit) {
      if (r.doubleOn === 'any-two' || (tot >= this.doubleFrom && tot <= 11)) double = DOUBLE;
      else if (ace === 1 && hard >= this.doubleFrom && hard <= 11 && r.softDoubleAceLocked) double = DOUBLE_ACE_LOCKED;
    }
    const surrender = fromSplit === 0 && r.surrender !== 'none' && (r.surrender === 'late' || u !== 1);
    for (const action of this.strategy.ranked(u, hard, ace === 1, 2, pair, true, fromSplit === 1)) {
      const c = CODE[action];
      if (c === HIT || (c === STAND && tot >= r.minStandTotal) || (c === SPLIT && pair > 0) || (c === SURRENDER && surrender)) return c;
      if (c === DOUBLE && double !== 0) return double;
    }
    return HIT;
  }

  private pickLater(u: number, hard: number, ace: number, n: number): number {
    const tot = ace === 1 && hard + 10 <= 21 ? hard + 10 : hard;
    for (const action of this.strategy.ranked(u, hard, ace === 1, n, 0, false, false)) {
      if (action === 'hit') return HIT;
      if (action === 'stand' && tot >= this.rules.minStandTotal) return STAND;
    }
    return HIT;
  }
}
