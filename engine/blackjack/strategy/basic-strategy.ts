import { dealerDrawsOn } from '../hand.js';
import { doublesLoseOriginalOnly, type BlackjackRules } from '../rules.js';

/**
 * Basic strategy computed from the rules, not typed in: expected values of every action for
 * every player hand against every dealer up card, composition-independent (each card value
 * drawn with its full-shoe probability: 1/13 each, 4/13 for ten-values).
 *
 * Values are per unit of the hand's initial bet. Known simplifications, all tiny next to the
 * choices they drive: resplits are valued as a single split, the 6-7-8 special prize is not
 * valued, and inside the hit/stand recursion a future five-card half payment is valued as if the
 * dealer had no Black Jack (the decision itself, `takeFiveCardHalf`, does count that risk). Where the dealer may hold a Black Jack unseen (no hole card, or an unpeeked one), each
 * first decision's value mixes the Black Jack case with the loss the rules take on it (only the
 * original bet on doubles/splits when the profile says so).
 */

export type StrategyAction = 'hit' | 'stand' | 'double' | 'split' | 'surrender';

/** Index of a card value: 1 = ace … 10 = ten-value. */
const P: readonly number[] = [0, 1 / 13, 1 / 13, 1 / 13, 1 / 13, 1 / 13, 1 / 13, 1 / 13, 1 / 13, 1 / 13, 4 / 13];

/** Dealer outcomes: 0..4 = 17..21, 5 = bust, 6 = Black Jack. */
const BJ = 6;
const BUST = 5;

function total(hard: number, ace: boolean): number {
  return ace && hard + 10 <= 21 ? hard + 10 : hard;
}

/** Final-hand distribution of the dealer for up card `u` (full, including Black Jack). */
export function dealerDistribution(rules: BlackjackRules, u: number): number[] {
  const out = [0, 0, 0, 0, 0, 0, 0];
  const go = (hard: number, ace: boolean, n: number, p: number): void => {
    if (n === 2 && ace && hard === 11) {
      out[BJ] = (out[BJ] ?? 0) + p;
      return;
    }
    if (!dealerDrawsOn(hard, ace, n, rules.dealerSoft17)) {
      const t = total(hard, ace);
      const k = t > 21 ? BUST : t - 17;
      out[k] = (out[k] ?? 0) + p;
      return;
    }
    for (let c = 1; c <= 10; c++) go(hard + c, ace || c === 1, n + 1, p * (P[c] as number));
  };
  go(u, u === 1, 1, 1);
  return out;
}

export interface StrategyTable {
  readonly rules: BlackjackRules;
  /** Probability the dealer has Black Jack, by up card, that is still unknown when players act. */
  readonly unseenBlackjack: readonly number[];
  /** EVs of hit/stand/double/split/surrender at a hand's first decision (NaN when not applicable). */
  firstDecisionEvs(up: number, hard: number, ace: boolean, pairValue: number, fromSplit: boolean, aceLock: boolean): Record<StrategyAction, number>;
  /**
   * Actions at a decision, best first. `n` is the number of cards; `pairValue` the value of a
   * two-card pair (0 if none); `first` whether double/split/surrender may apply.
   */
  ranked(up: number, hard: number, ace: boolean, n: number, pairValue: number, first: boolean, fromSplit: boolean): readonly StrategyAction[];
  /** Whether to take the five-card half payment (Art. 19) rather than play on. */
  takeFiveCardHalf(up: number, hard: number, ace: boolean): boolean;
  /** The player's expected result per initial unit for the whole round (infinite deck), for checks. */
  readonly expectedReturn: number;
}

export function computeStrategy(rules: BlackjackRules): StrategyTable {
  const model = new StrategyModel(rules);
  return {
    rules,
    unseenBlackjack: model.unseen,
    firstDecisionEvs: (u, hard, ace, pairValue, fromSplit, aceLock) => model.firstDecisionEvs(u, hard, ace, pairValue, fromSplit, aceLock),
    ranked: (u, hard, ace, n, pairValue, first, fromSplit) => model.ranked(u, hard, ace, n, pairValue, first, fromSplit),
    takeFiveCardHalf: (u, hard, ace) => model.takeFiveCardHalf(u, hard, ace),
    expectedReturn: model.expectedReturn(),
  };
}

/** What the dealer's Black Jack takes of a hand played, doubled or split (per initial unit). */
interface LossOnBlackjack {
  readonly play: number;
  readonly double: number;
  readonly split: number;
}

/** The values behind a `StrategyTable`, for one rule set: the dealer's outcomes by up card and the memoised values of playing on. */
class StrategyModel {
  /** The dealer's full outcome distribution by up card (Black Jack included). */
  private readonly dists: number[][] = [];
  /** The same given the dealer has no Black Jack (17..21, bust). */
  private readonly noBj: number[][] = [];
  readonly unseen: number[] = [0];
  private readonly lossOnBj: LossOnBlackjack;
  /** `best`'s values by state. */
  private readonly memo = new Map<number, number>();
  /** Ranked action lists by state. */
  private readonly cache = new Map<number, readonly StrategyAction[]>();

  constructor(private readonly rules: BlackjackRules) {
    for (let u = 1; u <= 10; u++) {
      const d = dealerDistribution(rules, u);
      this.dists[u] = d;
      const pbj = d[BJ] as number;
      this.noBj[u] = d.slice(0, 6).map((x) => x / (1 - pbj));
      this.unseen[u] = rules.holeCard === 'peek' ? 0 : pbj;
    }
    this.lossOnBj = {
      play: -1,
      double: doublesLoseOriginalOnly(rules) ? -1 : -2,
      split: rules.dealerBlackjackTakes === 'original-only' ? -1 : -2,
    };
  }

  /** Stand value of a non-Black-Jack total, given the dealer has no Black Jack. */
  private standEv(u: number, t: number): number {
    if (t > 21) return -1;
    const d = this.noBj[u] as number[];
    let ev = d[BUST] as number;
    for (let k = 0; k < 5; k++) {
      const dt = 17 + k;
      const p = d[k] as number;
      if (t > dt) ev += p;
      else if (t < dt) ev -= p;
    }
    return ev;
  }

  /** Best value of playing on (hit/stand, five-card offer) with `n` cards; memoised. */
  private best(u: number, hard: number, ace: boolean, n: number): number {
    if (hard > 21) return -1;
    const nn = Math.min(n, 6);
    const key = ((u * 32 + hard) * 2 + (ace ? 1 : 0)) * 8 + nn;
    const hit = this.memo.get(key);
    if (hit !== undefined) return hit;
    const t = total(hard, ace);
    let v: number;
    const stand = t >= this.rules.minStandTotal ? this.standEv(u, t) : -Infinity;
    if (t === 21) v = this.standEv(u, 21);
    else {
      let h = 0;
      for (let c = 1; c <= 10; c++) h += (P[c] as number) * this.best(u, hard + c, ace || c === 1, n + 1);
      v = Math.max(stand, h);
    }
    if (this.rules.fiveCardHalfPay && n === 5 && u !== 1) v = Math.max(v, 0.5);
    this.memo.set(key, v);
    return v;
  }

  private hitEv(u: number, hard: number, ace: boolean, n: number): number {
    let h = 0;
    for (let c = 1; c <= 10; c++) h += (P[c] as number) * this.best(u, hard + c, ace || c === 1, n + 1);
    return h;
  }

  private doubleEv(u: number, hard: number, ace: boolean, lock: boolean): number {
    let ev = 0;
    for (let c = 1; c <= 10; c++) {
      const h = hard + c;
      const a = (ace && !lock) || c === 1;
      ev += (P[c] as number) * (h > 21 ? -1 : this.standEv(u, total(h, a)));
    }
    return 2 * ev;
  }

  private doubleAllowed(hard: number, ace: boolean, fromSplit: boolean): { ok: boolean; lock: boolean } {
    const rules = this.rules;
    if (fromSplit && !rules.doubleAfterSplit) return { ok: false, lock: false };
    if (rules.doubleOn === 'any-two') return { ok: true, lock: false };
    const allowed = rules.doubleOn === 'nine-to-eleven' ? [9, 10, 11] : rules.doubleOn === 'ten-eleven' ? [10, 11] : [11];
    if (allowed.includes(total(hard, ace))) return { ok: true, lock: false };
    if (ace && allowed.includes(hard) && rules.softDoubleAceLocked) return { ok: true, lock: true };
    return { ok: false, lock: false };
  }

  /** One split hand started from a card of value v (dealer without Black Jack). */
  private splitHandEv(u: number, v: number): number {
    let ev = 0;
    for (let c = 1; c <= 10; c++) {
      const hard = v + c;
      const ace = v === 1 || c === 1;
      let x: number;
      if (v === 1) x = this.standEv(u, total(hard, ace));
      else {
        x = Math.max(this.best(u, hard, ace, 2), this.hitEv(u, hard, ace, 2));
        const d = this.doubleAllowed(hard, ace, true);
        if (d.ok) x = Math.max(x, this.doubleEv(u, hard, ace, d.lock));
      }
      ev += (P[c] as number) * x;
    }
    return ev;
  }

  /** A value without the dealer's Black Jack mixed with the loss on one still unseen. */
  private mix(u: number, ev: number, loss: number): number {
    const q = this.unseen[u] as number;
    return q * loss + (1 - q) * ev;
  }

  firstDecisionEvs(u: number, hard: number, ace: boolean, pairValue: number, fromSplit: boolean, aceLock = false): Record<StrategyAction, number> {
    const rules = this.rules;
    const lossOnBj = this.lossOnBj;
    const t = total(hard, ace);
    const stand = t >= rules.minStandTotal ? this.mix(u, this.standEv(u, t), lossOnBj.play) : NaN;
    const hit = this.mix(u, this.hitEv(u, hard, ace, 2), lossOnBj.play);
    const d = this.doubleAllowed(hard, ace, fromSplit);
    const dbl = d.ok || aceLock ? this.mix(u, this.doubleEv(u, hard, ace, d.lock || aceLock), lossOnBj.double) : NaN;
    const split = pairValue > 0 && rules.maxHands > 1 ? this.mix(u, 2 * this.splitHandEv(u, pairValue), lossOnBj.split) : NaN;
    const surrender = !fromSplit && rules.surrender !== 'none' && (rules.surrender === 'late' || u !== 1) ? -0.5 : NaN;
    return { hit, stand, double: dbl, split, surrender };
  }

  /** Ranked action lists, cached per state. */
  ranked(u: number, hard: number, ace: boolean, n: number, pairValue: number, first: boolean, fromSplit: boolean): readonly StrategyAction[] {
    const key = ((((u * 32 + hard) * 2 + (ace ? 1 : 0)) * 8 + Math.min(n, 7)) * 11 + pairValue) * 4 + (first ? 2 : 0) + (fromSplit ? 1 : 0);
    const c = this.cache.get(key);
    if (c) return c;
    let evs: Partial<Record<StrategyAction, number>>;
    if (first) evs = this.firstDecisionEvs(u, hard, ace, pairValue, fromSplit);
    else {
      const t = total(hard, ace);
      evs = { hit: this.hitEv(u, hard, ace, n), stand: t >= this.rules.minStandTotal ? this.standEv(u, t) : NaN };
    }
    const list = (Object.entries(evs) as [StrategyAction, number][])
      .filter(([, v]) => !Number.isNaN(v))
      .sort((a, b) => b[1] - a[1])
      .map(([k]) => k);
    // Always end with the actions that are always legal, so a choice exists.
    if (!list.includes('hit')) list.push('hit');
    if (!list.includes('stand')) list.push('stand');
    this.cache.set(key, list);
    return list;
  }

  takeFiveCardHalf(u: number, hard: number, ace: boolean): boolean {
    const t = total(hard, ace);
    const stand = t >= this.rules.minStandTotal ? this.standEv(u, t) : -Infinity;
    const playOn = t === 21 ? this.standEv(u, 21) : Math.max(stand, this.hitEv(u, hard, ace, 6));
    // The half payment is settled at once; playing on still loses to a dealer Black Jack not yet seen.
    return 0.5 > this.mix(u, playOn, this.lossOnBj.play);
  }

  /** Whole-round expectation (one hand, infinite deck), as a cross-check of the simulator. */
  expectedReturn(): number {
    let er = 0;
    for (let u = 1; u <= 10; u++) {
      const pu = P[u] as number;
      const pbj = (this.dists[u] as number[])[BJ] as number;
      for (let a = 1; a <= 10; a++) {
        for (let b = 1; b <= 10; b++) {
          const p = pu * (P[a] as number) * (P[b] as number);
          const hard = a + b;
          const ace = a === 1 || b === 1;
          if (ace && hard === 11) {
            // Player Black Jack: push against a dealer Black Jack, else 3:2 (even money is worth the same on an ace).
            er += p * (1 - pbj) * 1.5;
            continue;
          }
          const evs = this.firstDecisionEvs(u, hard, ace, a === b ? a : 0, false);
          const bestEv = Math.max(...Object.values(evs).filter((v) => !Number.isNaN(v)));
          // With a peek, a dealer Black Jack ends the round before any decision.
          er += this.rules.holeCard === 'peek' ? p * (pbj * -1 + (1 - pbj) * bestEv) : p * bestEv;
        }
      }
    }
    return er;
  }
}

/** A printable chart: rows of hard totals, soft totals and pairs; columns dealer 2..10, A. */
export function strategyChart(table: StrategyTable): { hard: Record<string, string[]>; soft: Record<string, string[]>; pairs: Record<string, string[]> } {
  const ups = [2, 3, 4, 5, 6, 7, 8, 9, 10, 1];
  const code: Record<StrategyAction, string> = { hit: 'H', stand: 'S', double: 'D', split: 'P', surrender: 'R' };
  const cell = (u: number, hard: number, ace: boolean, pair: number): string => code[table.ranked(u, hard, ace, 2, pair, true, false)[0] as StrategyAction];
  const hard: Record<string, string[]> = {};
  for (let t = 5; t <= 20; t++) hard[t] = ups.map((u) => cell(u, t, false, 0));
  const soft: Record<string, string[]> = {};
  for (let o = 2; o <= 9; o++) soft[`A,${o}`] = ups.map((u) => cell(u, 1 + o, true, 0));
  const pairs: Record<string, string[]> = {};
  for (let v = 1; v <= 10; v++) pairs[v === 1 ? 'A,A' : `${v},${v}`] = ups.map((u) => cell(u, 2 * v, v === 1, v));
  return { hard, soft, pairs };
}
