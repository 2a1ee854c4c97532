import { KEY_WEIGHT } from './compositions.js';
import { BUST, DEALER_BJ } from './dealer.js';
import { AB, AO, addScaled, fixedMoments, MOMENTS, prizeMoments, standMoments, type BlackjackMeeting } from './moments.js';
import type { FirstAction, Policy } from './policy.js';
import type { UpCard } from './up-card.js';

/**
 * Exact values of one player hand against one up card, by recursion over the hand's composition
 * with every card it holds removed from the shoe (and `extraCount` more cards of `extraValue`:
 * the other split cards, for a hand of a split). Values are per unit of the hand's initial bet.
 *
 * Each value is a triple, left in the registers `v`, `b`, `o` (no allocation in the recursion):
 * - v: the expected result, a standing hand losing to a dealer Black Jack found after play as if
 *   it were the seat's only hand (exact except for Macau 2009's split rule, see split.ts);
 * - b, o: the probability that the dealer has Black Jack (found after play) and this hand busted
 *   (b) or was settled during play by the five-card payment or the 6-7-8 prize (o). The split
 *   calculation needs them for the "split hands lose only the original bet" rule.
 *
 * With `moments`, the registers of moments.ts beside them (`m`: E[X²], the result by the dealer's
 * outcome, …), carried through the same draws and the same decisions: the expectation chooses,
 * the moments follow; `v` is computed exactly as without them.
 */
export class HandValues {
  v = 0;
  b = 0;
  o = 0;
  /** After `first`: the policy ranks a split first among the legal actions. */
  wantsSplit = false;
  /** The moment registers of the value in v (moments.ts), when asked for; else null. */
  readonly m: Float64Array | null;
  private readonly lm: Float64Array | null;
  /** Scratch registers by recursion depth (no allocation in the recursion). */
  private readonly stack: Float64Array[] = [];
  private depth = 0;
  private readonly meet: BlackjackMeeting;
  private readonly lv: Float64Array;
  private readonly lb: Float64Array;
  private readonly lo: Float64Array;
  private readonly known: Uint8Array;
  private readonly extraKey: number;
  private readonly bonusOn: boolean;
  private readonly bonusReplaces: boolean;

  constructor(
    private readonly t: UpCard,
    private readonly policy: Policy,
    private readonly extraValue = 0,
    private readonly extraCount = 0,
    moments = false,
  ) {
    const n = t.comps.size;
    this.m = moments ? new Float64Array(MOMENTS) : null;
    this.lm = moments ? new Float64Array(n * MOMENTS) : null;
    this.meet = { peek: t.peek, after: t.bjAfterPlay };
    this.lv = new Float64Array(n);
    this.lb = new Float64Array(n);
    this.lo = new Float64Array(n);
    this.known = new Uint8Array(n);
    this.extraKey = extraCount > 0 ? extraCount * 32 ** (extraValue - 1) : 0;
    this.bonusOn = t.rules.bonus678 !== 'none';
    this.bonusReplaces = t.rules.bonus678 === 'replaces-main';
  }

  /** Cards of value c left in the shoe while the hand holds composition `id`. */
  avail(id: number, c: number): number {
    return this.t.shoe[c]! - this.t.comps.count[id * 11 + c]! - (c === this.extraValue ? this.extraCount : 0);
  }

  left(id: number): number {
    return this.t.total - this.t.comps.cards[id]! - this.extraCount;
  }

  /** Probability the dealer's hole (or second) card completes a Black Jack, at composition `id`. */
  blackjackChance(id: number): number {
    return this.t.bjCard > 0 ? this.avail(id, this.t.bjCard) / this.left(id) : 0;
  }

  /** Something of `amount` settled during play at composition `id` (surrender, five cards, prize). */
  private settled(id: number, amount: number): void {
    const pbj = this.blackjackChance(id);
    this.v = this.t.peek ? amount * (1 - pbj) : amount;
    this.b = 0;
    this.o = this.t.bjAfterPlay ? pbj : 0;
    if (this.m) this.fixed(this.t.comps.key[id]!, amount, AO);
  }

  /** Moments of a result `x` fixed during play, the cards of the multiset `key` out of the shoe. */
  private fixed(key: number, x: number, cls: number): void {
    const at = this.t.cache.offset(key + this.extraKey);
    fixedMoments(this.m as Float64Array, this.t.cache.values(), at, x, this.meet, cls);
  }

  /** Scratch registers for one level of the recursion (release with `pop`). */
  private push(): Float64Array {
    const s = (this.stack[this.depth] ??= new Float64Array(MOMENTS));
    this.depth++;
    return s;
  }

  private pop(): void {
    this.depth--;
  }

  /** A bust of `stake` units after drawing card c to composition `id`. */
  private bust(id: number, c: number, stake: number): void {
    const bj = this.t.bjCard;
    const pbj = bj > 0 ? (this.avail(id, bj) - (c === bj ? 1 : 0)) / (this.left(id) - 1) : 0;
    this.v = this.t.peek ? -stake * (1 - pbj) : -stake;
    this.b = this.t.bjAfterPlay ? pbj : 0;
    this.o = 0;
    // The dealer's outcomes with the busting card out too (its multiset is over 21: not a composition).
    if (this.m) this.fixed(this.t.comps.key[id]! + KEY_WEIGHT[c]!, -stake, AB);
  }

  /** Standing with composition `id`; `locked`: an ace doubled as 1 stays 1 (Portugal rule 32). */
  stand(id: number, stake: number, locked = false): void {
    const comps = this.t.comps;
    const cache = this.t.cache;
    const at = cache.offset(comps.key[id]! + this.extraKey);
    const d = cache.values();
    const hard = comps.hard[id]!;
    const soft = (locked ? comps.count[id * 11 + 1]! > 1 : comps.ace[id] === 1) && hard + 10 <= 21;
    const total = soft ? hard + 10 : hard;
    let ev = d[at + BUST]!;
    for (let k = 0; k < 5; k++) {
      const dt = 17 + k;
      if (total > dt) ev += d[at + k]!;
      else if (total < dt) ev -= d[at + k]!;
    }
    const bjLoss = this.t.bjAfterPlay ? this.t.standingLossToBlackjack(stake) : 0;
    this.v = stake * ev + (this.t.bjAfterPlay ? d[at + DEALER_BJ]! * bjLoss : 0);
    this.b = 0;
    this.o = 0;
    if (this.m) standMoments(this.m, d, at, total, stake, bjLoss);
  }

  /** 6-7-8 (any suits) or 7-7-7 as a three-card hand: the chance it is the prize, else 0. */
  bonusChance(id: number): number {
    const comps = this.t.comps;
    if (!this.bonusOn || comps.cards[id] !== 3) return 0;
    const c = (v: number): number => comps.count[id * 11 + v]!;
    if (c(7) === 3) return 1;
    // The three suits are independent of every rank decision: one suit with probability 1/16.
    if (c(6) === 1 && c(7) === 1 && c(8) === 1) return 1 / 16;
    return 0;
  }

  /** A three-card 21 that may be the 6-7-8 prize with probability `pi` (Art. 15; rule 35). */
  private prize(id: number, pi: number, stake: number, locked: boolean): void {
    this.stand(id, stake, locked);
    const sv = this.v;
    const so = this.o;
    const pbj = this.blackjackChance(id);
    const paid = this.t.peek ? 3 * stake * (1 - pbj) : 3 * stake;
    if (this.bonusReplaces) {
      this.v = pi * paid + (1 - pi) * sv;
      this.o = pi * (this.t.bjAfterPlay ? pbj : 0) + (1 - pi) * so;
    } else this.v = sv + pi * paid;
    if (this.m) {
      const cache = this.t.cache;
      const at = cache.offset(this.t.comps.key[id]! + this.extraKey);
      prizeMoments(this.m, cache.values(), at, pi, 3 * stake, this.bonusReplaces, this.meet, this.push());
      this.pop();
    }
  }

  /** Value of playing on with composition `id` after the hand's first decision (memoised). */
  later(id: number): void {
    if (this.known[id] === 1) {
      this.v = this.lv[id]!;
      this.b = this.lb[id]!;
      this.o = this.lo[id]!;
      if (this.m) this.m.set((this.lm as Float64Array).subarray(id * MOMENTS, (id + 1) * MOMENTS));
      return;
    }
    const comps = this.t.comps;
    const n = comps.cards[id]!;
    const total = comps.total(id);
    const pi = this.bonusChance(id);
    if (pi > 0) this.prize(id, pi, 1, false);
    else {
      if (total === 21) this.stand(id, 1);
      else this.hitOrStand(id, total, n);
      if (this.t.fiveCard && n === 5) this.fiveCardOffer(id);
    }
    this.lv[id] = this.v;
    this.lb[id] = this.b;
    this.lo[id] = this.o;
    if (this.m) (this.lm as Float64Array).set(this.m, id * MOMENTS);
    this.known[id] = 1;
  }

  private hitOrStand(id: number, total: number, n: number): void {
    const comps = this.t.comps;
    const mayStand = total >= this.t.rules.minStandTotal;
    const choice = this.policy.later(this.t.up, comps.hard[id]!, comps.ace[id] === 1, n);
    if (choice === 'stand' && mayStand) return this.stand(id, 1);
    if (choice === 'hit' || !mayStand) return this.hit(id);
    this.stand(id, 1);
    const sv = this.v;
    const sb = this.b;
    const so = this.o;
    const sm = this.save();
    this.hit(id);
    if (sv >= this.v) {
      this.v = sv;
      this.b = sb;
      this.o = so;
      this.restore(sm);
    }
    this.release(sm);
  }

  /** The moment registers kept aside while another action is valued (null without moments). */
  private save(): Float64Array | null {
    if (!this.m) return null;
    const s = this.push();
    s.set(this.m);
    return s;
  }

  private restore(saved: Float64Array | null): void {
    if (saved) (this.m as Float64Array).set(saved);
  }

  private release(saved: Float64Array | null): void {
    if (saved) this.pop();
  }

  /** Art. 19: at five cards the player may take half the bet at once instead of playing on. */
  private fiveCardOffer(id: number): void {
    const cv = this.v;
    const cb = this.b;
    const co = this.o;
    const cm = this.save();
    const comps = this.t.comps;
    const choice = this.policy.takeFive(this.t.up, comps.hard[id]!, comps.ace[id] === 1);
    this.settled(id, 0.5);
    const take = choice === undefined ? this.v > cv : choice;
    if (!take) {
      this.v = cv;
      this.b = cb;
      this.o = co;
      this.restore(cm);
    }
    this.release(cm);
  }

  /** Draw one card and play on. */
  hit(id: number): void {
    const comps = this.t.comps;
    const n = this.left(id);
    let v = 0;
    let b = 0;
    let o = 0;
    const acc = this.accumulator();
    for (let c = 1; c <= 10; c++) {
      const a = this.avail(id, c);
      if (a <= 0) continue;
      const p = a / n;
      const next = comps.child[id * 11 + c]!;
      if (next < 0) this.bust(id, c, 1);
      else this.later(next);
      v += p * this.v;
      b += p * this.b;
      o += p * this.o;
      if (acc) addScaled(acc, this.m as Float64Array, p);
    }
    this.v = v;
    this.b = b;
    this.o = o;
    this.settle(acc);
  }

  /** Zeroed scratch registers to average a draw's children into (null without moments). */
  private accumulator(): Float64Array | null {
    if (!this.m) return null;
    const acc = this.push();
    acc.fill(0);
    return acc;
  }

  /** The averaged registers become the value's; the scratch is released. */
  private settle(acc: Float64Array | null): void {
    if (!acc) return;
    (this.m as Float64Array).set(acc);
    this.pop();
  }

  /** Double: one card at twice the stake, then stand; `pi` overrides the prize chance of the 3-card 21. */
  double(id: number, locked: boolean, piOverride = -1, overrideCard = 0): void {
    const comps = this.t.comps;
    const n = this.left(id);
    let v = 0;
    let b = 0;
    let o = 0;
    const acc = this.accumulator();
    for (let c = 1; c <= 10; c++) {
      const a = this.avail(id, c);
      if (a <= 0) continue;
      const p = a / n;
      const next = comps.child[id * 11 + c]!;
      if (next < 0) this.bust(id, c, 2);
      else {
        const pi = c === overrideCard ? piOverride : this.bonusChance(next);
        if (pi > 0) this.prize(next, pi, 2, locked);
        else this.stand(next, 2, locked);
      }
      v += p * this.v;
      b += p * this.b;
      o += p * this.o;
      if (acc) addScaled(acc, this.m as Float64Array, p);
    }
    this.v = v;
    this.b = b;
    this.o = o;
    this.settle(acc);
  }

  /** Hit from a two-card hand when the 6-7-8 prize chance of the card completing it is `pi`. */
  private hitWithPrize(id: number, missing: number, pi: number): void {
    this.hit(id);
    const a = this.avail(id, missing);
    const next = this.t.comps.child[id * 11 + missing]!;
    if (a <= 0 || next < 0) return;
    const p = a / this.left(id);
    let v = this.v - p * this.lv[next]!;
    let b = this.b - p * this.lb[next]!;
    let o = this.o - p * this.lo[next]!;
    const acc = this.save();
    if (acc) addScaled(acc, (this.lm as Float64Array).subarray(next * MOMENTS, (next + 1) * MOMENTS), -p);
    this.prize(next, pi, 1, false);
    v += p * this.v;
    b += p * this.b;
    o += p * this.o;
    if (acc) addScaled(acc, this.m as Float64Array, p);
    this.v = v;
    this.b = b;
    this.o = o;
    this.settle(acc);
  }

  /**
   * A hand's first decision on two cards (`fromSplit`: a split hand; split itself is valued by
   * the caller). Leaves the chosen non-split action's value in the registers and sets
   * `wantsSplit` when the policy would split this pair (`pair` > 0: a split is legal).
   */
  first(id: number, fromSplit: boolean, pair: number): void {
    const comps = this.t.comps;
    this.wantsSplit = false;
    if (comps.total(id) === 21) return this.stand(id, 1);
    const missing = this.policy.suitAware ? this.prizeMissing(id) : 0;
    if (missing === 0) return this.chooseFirst(id, fromSplit, pair, -1, 0);
    // Two of 6, 7, 8 of different ranks: suited one time in four (then the prize needs the
    // third card's suit, 1 in 4), never otherwise. Decide on each case.
    this.chooseFirst(id, fromSplit, pair, 1 / 4, missing);
    const sv = this.v;
    const sb = this.b;
    const so = this.o;
    const sm = this.save();
    this.chooseFirst(id, fromSplit, pair, 0, missing);
    this.v = sv / 4 + (3 * this.v) / 4;
    this.b = sb / 4 + (3 * this.b) / 4;
    this.o = so / 4 + (3 * this.o) / 4;
    if (sm) {
      const m = this.m as Float64Array;
      for (let i = 0; i < MOMENTS; i++) m[i] = sm[i]! / 4 + (3 * m[i]!) / 4;
      this.pop();
    }
  }

  /** The value 6, 7 or 8 that would complete a prize from this two-card hand, else 0. */
  private prizeMissing(id: number): number {
    const comps = this.t.comps;
    if (!this.bonusOn || comps.cards[id] !== 2) return 0;
    const c6 = comps.count[id * 11 + 6]!;
    const c7 = comps.count[id * 11 + 7]!;
    const c8 = comps.count[id * 11 + 8]!;
    if (c6 + c7 + c8 !== 2 || c6 > 1 || c7 > 1 || c8 > 1) return 0;
    return c6 === 0 ? 6 : c7 === 0 ? 7 : 8;
  }

  private chooseFirst(id: number, fromSplit: boolean, pair: number, pi: number, missing: number): void {
    const t = this.t;
    const rules = t.rules;
    const comps = this.t.comps;
    const hard = comps.hard[id]!;
    const ace = comps.ace[id] === 1;
    const total = comps.total(id);
    const opts: [FirstAction, number, number, number, Float64Array | null][] = [];
    const take = (a: FirstAction): void => {
      opts.push([a, this.v, this.b, this.o, this.m ? this.m.slice() : null]);
    };
    if (total >= rules.minStandTotal) {
      this.stand(id, 1);
      take('stand');
    }
    if (missing > 0) this.hitWithPrize(id, missing, pi);
    else this.hit(id);
    take('hit');
    const dbl = doubleRule(rules, hard, ace, fromSplit);
    if (dbl !== 'no') {
      if (missing > 0) this.double(id, false, pi, missing);
      else this.double(id, dbl === 'locked');
      take('double');
    }
    if (!fromSplit && rules.surrender !== 'none' && (rules.surrender === 'late' || t.up !== 1)) {
      this.settled(id, -0.5);
      take('surrender');
    }
    const ranked = this.policy.first(t.up, hard, ace, pair, fromSplit);
    let pick: (typeof opts)[number] | undefined;
    if (ranked) {
      for (const a of ranked) {
        if (a === 'split' && pair > 0) {
          this.wantsSplit = true;
          continue;
        }
        pick = opts.find((x) => x[0] === a);
        if (pick) break;
      }
    } else for (const x of opts) if (!pick || x[1] > pick[1]) pick = x;
    pick ??= opts.find((x) => x[0] === 'hit') as (typeof opts)[number];
    this.v = pick[1];
    this.b = pick[2];
    this.o = pick[3];
    this.restore(pick[4]);
  }
}

/** Whether a two-card hand may double, and whether its ace is then locked at 1 (Portugal rule 32). */
export function doubleRule(
  rules: { doubleOn: string; doubleAfterSplit: boolean; softDoubleAceLocked: boolean },
  hard: number,
  ace: boolean,
  fromSplit: boolean,
): 'no' | 'yes' | 'locked' {
  if (fromSplit && !rules.doubleAfterSplit) return 'no';
  if (rules.doubleOn === 'any-two') return 'yes';
  const lo = rules.doubleOn === 'nine-to-eleven' ? 9 : rules.doubleOn === 'ten-eleven' ? 10 : 11;
  const total = ace && hard + 10 <= 21 ? hard + 10 : hard;
  if (total >= lo && total <= 11) return 'yes';
  if (ace && hard >= lo && hard <= 11 && rules.softDoubleAceLocked) return 'locked';
  return 'no';
}
