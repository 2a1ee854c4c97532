import { computeStrategy, type StrategyAction, type StrategyTable } from '../strategy/basic-strategy.js';
import { dealerDrawsOn } from './hand.js';
import type { BlackjackRules } from './rules.js';

/**
 * The basic strategy and the dealer's rule as integer-indexed tables for the simulator. Each
 * entry is the strategy's ranked list (`StrategyTable.ranked`) already filtered by what the rules
 * allow in that state, so a decision is one array read: no list walk, no closure, no map. Every
 * legality condition but the split's is a function of the table key; the split's (hands left,
 * an earlier declined resplit) is decided by the caller, which passes pair value 0 when a split
 * is not allowed, as the strategy itself is asked. Entries are filled on first use, from the same
 * `StrategyTable`, so one `SimStrategy` can serve every simulator instance of a run.
 */

export const HIT = 1;
export const STAND = 2;
export const DOUBLE = 3;
export const SPLIT = 4;
export const SURRENDER = 5;
/** Double with the soft ace counted as 1 for the rest of the hand (Portugal rule 32). */
export const DOUBLE_ACE_LOCKED = 6;

const CODE: Record<StrategyAction, number> = { hit: HIT, stand: STAND, double: DOUBLE, split: SPLIT, surrender: SURRENDER };

const HARD = 32;

export class SimStrategy {
  readonly rules: BlackjackRules;
  readonly strategy: StrategyTable;
  /** Dealer draws, by `(hard * 2 + ace) * 2 + (two cards ? 1 : 0)`; hard up to 31. */
  readonly dealerDraws = new Uint8Array(HARD * 4);
  /** First decision of a hand: by up card, hard sum, ace, pair value (0: no split), from a split. */
  private readonly first = new Uint8Array(11 * HARD * 2 * 11 * 2);
  /** Later decisions (hit or stand): by up card, hard sum, ace, cards (7 = seven or more), from a split. */
  private readonly later = new Uint8Array(11 * HARD * 2 * 8 * 2);
  /** Five-card half payment: 0 not asked yet, 1 play on, 2 take it. */
  private readonly five = new Uint8Array(11 * HARD * 2);
  /** Split aces that drew an ace, by up card: 0 not asked yet, 1 stand, 2 split again. */
  private readonly acesAgain = new Uint8Array(11);
  private readonly doubleFrom: number;

  constructor(rules: BlackjackRules, strategy: StrategyTable = computeStrategy(rules)) {
    this.rules = rules;
    this.strategy = strategy;
    for (let hard = 0; hard < HARD; hard++) {
      for (let ace = 0; ace < 2; ace++) {
        for (let two = 0; two < 2; two++) this.dealerDraws[(hard * 2 + ace) * 2 + two] = dealerDrawsOn(hard, ace === 1, two ? 2 : 3, rules.dealerSoft17) ? 1 : 0;
      }
    }
    this.doubleFrom = rules.doubleOn === 'nine-to-eleven' ? 9 : rules.doubleOn === 'ten-eleven' ? 10 : 11;
  }

  /** Action at a hand's first decision (two cards); `ace`, `fromSplit` are 0 or 1. */
  firstAction(u: number, hard: number, ace: number, pair: number, fromSplit: number): number {
    const key = (((u * HARD + hard) * 2 + ace) * 11 + pair) * 2 + fromSplit;
    const a = this.first[key] as number;
    return a !== 0 ? a : (this.first[key] = this.pickFirst(u, hard, ace, pair, fromSplit));
  }

  /** Hit or stand after the first decision; `n` is the number of cards. */
  laterAction(u: number, hard: number, ace: number, n: number, fromSplit: number): number {
    const key = (((u * HARD + hard) * 2 + ace) * 8 + (n > 7 ? 7 : n)) * 2 + fromSplit;
    const a = this.later[key] as number;
    return a !== 0 ? a : (this.later[key] = this.pickLater(u, hard, ace, n, fromSplit));
  }

  /** Whether to take the five-card half payment (Art. 19). */
  takeFiveCardHalf(u: number, hard: number, ace: number): boolean {
    const key = (u * HARD + hard) * 2 + ace;
    let a = this.five[key] as number;
    if (a === 0) a = this.five[key] = this.strategy.takeFiveCardHalf(u, hard, ace === 1) ? 2 : 1;
    return a === 2;
  }

  /** Whether split aces that drew an ace are split again (when the rules allow it). */
  splitAcesAgain(u: number): boolean {
    let a = this.acesAgain[u] as number;
    if (a === 0) a = this.acesAgain[u] = this.strategy.ranked(u, 2, true, 2, 1, true, true)[0] === 'split' ? 2 : 1;
    return a === 2;
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

  private pickLater(u: number, hard: number, ace: number, n: number, fromSplit: number): number {
    const tot = ace === 1 && hard + 10 <= 21 ? hard + 10 : hard;
    for (const action of this.strategy.ranked(u, hard, ace === 1, n, 0, false, fromSplit === 1)) {
      if (action === 'hit') return HIT;
      if (action === 'stand' && tot >= this.rules.minStandTotal) return STAND;
    }
    return HIT;
  }
}
