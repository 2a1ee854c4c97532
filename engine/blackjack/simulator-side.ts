import type { Card } from '../cards/card.js';
import { STREAK_PAYS } from './bets/streak.js';
import type { BlackjackRules } from './rules.js';
import { CARD_OF_ID, FIRST_TWO, FIRST_TWO_BETS } from './simulator-cards.js';
import { SIM_SIDE_BETS } from './simulator-totals.js';

const STREAK0 = FIRST_TWO_BETS;

/**
 * The simulator's side bets (`FastBlackjack`): the bets of the first cards, by their table, and
 * the winning streak's four levels. What a round adds is kept out of the hot loop: rounds are
 * counted by their first two cards (`pairCount`) and the counts turned into the bets' sums once
 * per run (`fold`), so a round adds one count instead of a sum and a square per bet; a round that
 * split is settled again by the catalogue (memoised) and adds its difference from the table.
 *
 * `acc` is the simulator's: main sum and sum of squares, then per side bet (SIM_SIDE_BETS order)
 * its sum, sum of squares and count.
 */
export class SimSideBets {
  /** Side-bet results of the last round, per unit staked, in SIM_SIDE_BETS order (first-card bets: only after a split, or `fillFromTable`). */
  readonly net = new Float64Array(SIM_SIDE_BETS.length);
  /** Whether each side bet was decided in the last round (streak bets run over several rounds). */
  readonly decided = new Uint8Array(SIM_SIDE_BETS.length);
  /** Rounds by their result for the winning streak: [lost, tied, won]; counted while the streak is offered. */
  readonly streakRounds = new Float64Array(3);
  /** Indices (in SIM_SIDE_BETS) of the bets of the first cards offered. */
  readonly firstTwoOffered: Int32Array;
  /** Whether any bet of the first cards is offered. */
  readonly anyFirstTwo: boolean;
  /** Rounds by their first two cards (`first * 52 + second`) since the last `fold` (the simulator's fast path adds to it directly). */
  readonly pairCount = new Int32Array(52 * 52);
  /** The last round's first two cards, as `pairCount`'s index; whether it split (its first-card bets settled again). */
  private lastPair = 0;
  private resettled = false;
  /**
   * A split round's first-card bets depend only on its first two cards, the card dealt to the
   * first split hand and the pairs formed again: their settlement, memoised so that the
   * catalogue's code (which allocates) runs once per key, not per split. Per first two cards (only
   * those that split ever get one) a dense array by `(third * (memoPairs + 1) + splitPairs) *
   * FIRST_TWO_BETS + bet`, NaN until settled: a split is then two array reads, not a hash lookup
   * in a map of tens of thousands of keys (which, with its growth, was a fifth of a Macau run).
   */
  private readonly afterSplit: (Float64Array | undefined)[] = Array.from({ length: 52 * 52 }, () => undefined);
  /** The pairs formed again that the memo holds (`afterSplit`). */
  private readonly memoPairs: number;
  /** Winning streak (Art. 13 5)): the four levels are bet together whenever none is open. */
  private readonly streakOpen = new Uint8Array(4);
  private streakWins = 0;

  constructor(
    private readonly rules: BlackjackRules,
    /** `firstTwoCardTable(rules)`. */
    private readonly table: Int16Array,
    offered: Int32Array,
    private readonly streak: boolean,
  ) {
    this.firstTwoOffered = offered.filter((k) => k < FIRST_TWO_BETS);
    this.anyFirstTwo = this.firstTwoOffered.length > 0;
    // A round has at most maxHands hands, so at most that many pairs formed again; past 8, no memo.
    this.memoPairs = Math.min(rules.maxHands, 8);
    // The first-two-card bets are decided every round; the streak levels only when one ends.
    this.decided.fill(1, 0, FIRST_TWO_BETS);
  }

  /** A round's first two cards, for the first-card bets' table; the streak levels open when none is. */
  open(p1: number, p2: number): void {
    this.lastPair = p1 * 52 + p2;
    this.resettled = false;
    if (!this.streak) return;
    for (let k = STREAK0; k < STREAK0 + 4; k++) {
      this.net[k] = 0;
      this.decided[k] = 0;
    }
    const o = this.streakOpen;
    if (o[0] === 0 && o[1] === 0 && o[2] === 0 && o[3] === 0) {
      o.fill(1);
      this.streakWins = 0;
    }
  }

  /** The last round's first-card bets from the table into `net`, unless a split settled them. */
  fillFromTable(): void {
    if (this.resettled) return;
    for (const k of this.firstTwoOffered) this.net[k] = this.table[this.lastPair * FIRST_TWO_BETS + k] as number;
  }

  /** Adds the last round's side bets into `acc`: its count by first cards (and a split's difference), the streak levels decided. */
  count(acc: Float64Array): void {
    if (this.anyFirstTwo) {
      const pair = this.lastPair;
      this.pairCount[pair] = (this.pairCount[pair] as number) + 1;
      if (this.resettled) this.addResettled(acc, pair);
    }
    if (this.streak) {
      const net = this.net;
      for (let k = STREAK0; k < SIM_SIDE_BETS.length; k++) {
        if (this.decided[k] === 0) continue;
        const v = net[k] as number;
        acc[2 + 3 * k] = (acc[2 + 3 * k] as number) + v;
        acc[3 + 3 * k] = (acc[3 + 3 * k] as number) + v * v;
        acc[4 + 3 * k] = (acc[4 + 3 * k] as number) + 1;
      }
    }
  }

  private addResettled(acc: Float64Array, pair: number): void {
    const bets = this.firstTwoOffered;
    for (let j = 0; j < bets.length; j++) {
      const k = bets[j] as number;
      const v = this.net[k] as number;
      const w = this.table[pair * FIRST_TWO_BETS + k] as number;
      acc[2 + 3 * k] = (acc[2 + 3 * k] as number) + (v - w);
      acc[3 + 3 * k] = (acc[3 + 3 * k] as number) + (v * v - w * w);
    }
  }

  /** Adds the first-card bets' results of the counted rounds into `acc`, and clears the counts. */
  fold(acc: Float64Array): void {
    for (const k of this.firstTwoOffered) {
      let sum = 0;
      let sumSq = 0;
      for (let pair = 0; pair < 52 * 52; pair++) {
        const c = this.pairCount[pair] as number;
        const v = this.table[pair * FIRST_TWO_BETS + k] as number;
        sum += c * v;
        sumSq += c * v * v;
      }
      acc[2 + 3 * k] = (acc[2 + 3 * k] as number) + sum;
      acc[3 + 3 * k] = (acc[3 + 3 * k] as number) + sumSq;
    }
    this.pairCount.fill(0);
  }

  /**
   * A round that split: its bets of the first cards settled again by their own rules with what the
   * split dealt (`afterSplit`: the card dealt to the first split hand, or negative; a third seven,
   * Art. 13 2)(2)) and the pairs formed again (`splitPairs`, 1)(2)).
   */
  resettle(afterSplit: number, p1: number, p2: number, splitPairs: number): void {
    if (!this.anyFirstTwo) return;
    this.resettled = true;
    const third = afterSplit >= 0 ? afterSplit + 1 : 0;
    const net = this.net;
    const bets = this.firstTwoOffered;
    if (splitPairs > this.memoPairs) {
      const results = this.settleSplitRound(afterSplit, p1, p2, splitPairs);
      for (let j = 0; j < bets.length; j++) net[bets[j] as number] = results[bets[j] as number] as number;
      return;
    }
    const pair = p1 * 52 + p2;
    let memo = this.afterSplit[pair];
    if (memo === undefined) {
      memo = new Float64Array(53 * (this.memoPairs + 1) * FIRST_TWO_BETS).fill(NaN);
      this.afterSplit[pair] = memo;
    }
    const at = (third * (this.memoPairs + 1) + splitPairs) * FIRST_TWO_BETS;
    if (memo[at + (bets[0] as number)] !== memo[at + (bets[0] as number)]) {
      const results = this.settleSplitRound(afterSplit, p1, p2, splitPairs);
      for (let k = 0; k < FIRST_TWO_BETS; k++) memo[at + k] = results[k] as number;
    }
    for (let j = 0; j < bets.length; j++) {
      const k = bets[j] as number;
      net[k] = memo[at + k] as number;
    }
  }

  private settleSplitRound(afterSplit: number, p1: number, p2: number, splitPairs: number): Float64Array {
    const third: Card | undefined = afterSplit >= 0 ? CARD_OF_ID[afterSplit] : undefined;
    const cards = {
      first: CARD_OF_ID[p1] as Card,
      second: CARD_OF_ID[p2] as Card,
      ...(third ? { afterSplit: third } : {}),
      splitPairs: Array.from({ length: splitPairs }, (_, i) => i + 1),
    };
    const results = new Float64Array(FIRST_TWO_BETS);
    for (const k of this.firstTwoOffered) {
      const bet = FIRST_TWO[k];
      if (bet) results[k] = bet.settle(cards, 1, this.rules).reduce((t, l) => t + l.net, 0);
    }
    return results;
  }

  /** The streak after a round of this result (1 won, 0 tied, -1 lost; split hands by majority, Art. 16 n.7). */
  settleStreak(result: number): void {
    this.streakRounds[result + 1] = (this.streakRounds[result + 1] as number) + 1;
    if (result > 0) this.streakWins++;
    for (let k = 0; k < 4; k++) {
      if (this.streakOpen[k] === 0) continue;
      const level = (k + 2) as 2 | 3 | 4 | 5;
      if (result < 0) {
        this.net[STREAK0 + k] = -1;
        this.decided[STREAK0 + k] = 1;
        this.streakOpen[k] = 0;
      } else if (result > 0 && this.streakWins >= level) {
        this.net[STREAK0 + k] = STREAK_PAYS[level];
        this.decided[STREAK0 + k] = 1;
        this.streakOpen[k] = 0;
      }
    }
  }
}
