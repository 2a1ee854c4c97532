import type { StrategyTable } from './strategy/basic-strategy.js';
import { doublesLoseOriginalOnly, type BlackjackRules } from './rules.js';
import { CARD_CODE, CARD_VALUE, FIRST_TWO, FIRST_TWO_BETS, NATURAL, OUTCOME, SOFT_TOTAL, isSpecial678Ids } from './simulator-cards.js';
import { SimAutomaton } from './simulator-automaton.js';
import { AutomatonRounds } from './simulator-rounds.js';
import { SimSideBets } from './simulator-side.js';
import { SimRng } from './simulator-rng.js';
import { DOUBLE, DOUBLE_ACE_LOCKED, SPLIT, STAND, SURRENDER, SimTables, fiveKey, firstKey, laterKey } from './simulator-tables.js';

/**
 * The simulator's fast path: one seat, flat main bet of one unit, basic strategy, side bets of
 * one unit each. It shares with the round state machine the rule profile, the dealer's drawing
 * rule, the pay tables and the strategy (as integer tables, `SimTables`); the cards are small
 * integers (rank * 4 + suit) in a typed-array shoe, and the hand being played lives in local
 * variables, so a round allocates nothing. A test plays the same shoes through the round (round.ts)
 * and this path and requires the same results.
 */

export type ShuffleMode = 'every-hand' | 'cut-card';

import { SIM_SIDE_BETS, type SimSideBet, type SimTotals } from './simulator-totals.js';

export { edge, emptyTotals, mergeTotals, SIM_SIDE_BETS, type SimSideBet, type SimTotals } from './simulator-totals.js';

const MAXH = 100;
const NO_CARD = 255;

// States of a hand once played (0 before): STOOD alone has bit 0 set, so `state & 1` counts the hands the dealer plays against.
const STOOD = 1;
const BUSTED = 2;
const SETTLED = 4;

// rules.bonus678 and rules.dealerBlackjackTakes as small integers.
const BONUS_NONE = 0;
const BONUS_REPLACES = 1;
const TAKES_ORIGINAL_ONLY = 0;
const TAKES_DOUBLES_ORIGINAL_ONLY = 1;
const TAKES_ALL = 2;

export class FastBlackjack {
  readonly rules: BlackjackRules;
  readonly strategy: StrategyTable;
  /** Card ids of the shoe; `pos` is the next card. */
  shoe: Uint8Array;
  pos = 0;
  /** Side-bet results of the last round played by `playRound`, per unit staked, in SIM_SIDE_BETS order. */
  readonly sideNet: Float64Array;
  /** Whether each side bet was decided in the last round (streak bets run over several rounds). */
  readonly sideDecided: Uint8Array;
  /**
   * Rounds by their result for the winning streak (Art. 16 n.7 majority over split hands, Art.
   * 18 n.3 surrender lost): [lost, tied, won]; counted while the streak is offered.
   */
  readonly streakRounds: Float64Array;
  private readonly side: SimSideBets;
  private readonly rounds: AutomatonRounds;
  /**
   * Whether `run` may play rounds through the automata (`AutomatonRounds`); false plays every
   * round through the reference path, which the tests compare it with.
   */
  fastPath = true;
  /** Rounds the automata left to the reference path (`replay`), since construction. */
  replayed = 0;
  /** When set, `run` writes each round's main result here (its first `hands` entries), for the tests. */
  trace: Float64Array | null = null;

  private readonly dealerDraws: Uint8Array;
  private readonly firstAction: Uint8Array;
  private readonly laterAction: Uint8Array;
  private readonly takeFive: Uint8Array;
  private readonly splitAcesAgain: Uint8Array;
  private readonly rng: SimRng;
  private readonly firstTwo: Int16Array;
  /** Indices (in SIM_SIDE_BETS) of the side bets offered. */
  private readonly offered: Int32Array;
  private readonly sides: SimSideBet[];
  private readonly cutAt: number;
  private readonly burnStart: number;
  /** Every-hand shuffle: each card drawn is a uniform pick among those not yet drawn this hand. */
  private lazy = false;
  /** Every-hand shuffle: the cards of this hand already picked (`shoe[0..picked)`), which a replay reads again. */
  private picked = 0;
  /** What `playRounds` adds up: main sum and sum of squares, then per side bet its sum, sum of squares and count. */
  private readonly acc = new Float64Array(2 + 3 * SIM_SIDE_BETS.length);
  // The rules read during a round, as booleans and small integers.
  private readonly holeCard: boolean;
  private readonly peek: boolean;
  private readonly burnBeforeDealerSecond: boolean;
  private readonly bonus678: number;
  private readonly fiveCardHalfPay: boolean;
  private readonly splitByRank: boolean;
  private readonly maxHands: number;
  private readonly resplit: boolean;
  private readonly resplitAfterDecline: boolean;
  private readonly resplitAces: boolean;
  private readonly dealerBlackjackTakes: number;
  /** Art. 17 n.3 / Art. 10 n.7 (`doublesLoseOriginalOnly`). */
  private readonly doublesLimited: boolean;
  private readonly dealerDrawsWhenAllLost: boolean;
  private readonly winningStreak: boolean;

  /**
   * The seat's hands in table order. Before its turn a hand is its first card and its second
   * (NO_CARD for a split hand still waiting for it); it is played in local variables, and what
   * the dealer's turn and the settlement need is stored when it ends. Once a hand is split every
   * hand of the round is a split hand, so "from a split" is `nh > 1`.
   */
  private readonly hFirst = new Uint8Array(MAXH);
  private readonly hSecond = new Uint8Array(MAXH);
  private readonly hHard = new Int32Array(MAXH);
  private readonly hAce = new Uint8Array(MAXH);
  private readonly hStake = new Float64Array(MAXH);
  private readonly hState = new Uint8Array(MAXH);
  private readonly hNet = new Float64Array(MAXH);
  private readonly hDoubled = new Uint8Array(MAXH);
  /** Result of each hand for the streak: 1 won, -1 lost, 0 tie. */
  private readonly hOut = new Int8Array(MAXH);
  private nh = 0;
  /** Pairs formed by split hands this round (any pair, Art. 13 1)(2)). */
  private splitPairs = 0;
  /** Art. 16 n.5: a resplit declined this round bars later ones (unless resplitAfterDecline). */
  private declined = false;

  /** `tables` may be shared by several simulators of the same rules. */
  constructor(rules: BlackjackRules, seed: number, tables: SimTables = new SimTables(rules)) {
    if (tables.rules !== rules) throw new Error('FastBlackjack: the tables were built for other rules');
    this.rules = rules;
    this.strategy = tables.strategy;
    this.dealerDraws = tables.dealerDraws;
    this.firstAction = tables.first;
    this.laterAction = tables.later;
    this.takeFive = tables.takeFive;
    this.splitAcesAgain = tables.splitAcesAgain;
    this.firstTwo = tables.firstTwo;
    const n = rules.decks * 52;
    this.shoe = new Uint8Array(n);
    for (let i = 0; i < n; i++) this.shoe[i] = i % 52;
    this.rng = new SimRng(seed);
    this.sides = SIM_SIDE_BETS.filter((b, k) => (k < FIRST_TWO_BETS ? FIRST_TWO[k]?.offered(rules) === true : rules.winningStreak));
    this.offered = Int32Array.from(this.sides.map((b) => SIM_SIDE_BETS.indexOf(b)));
    this.side = new SimSideBets(rules, tables.firstTwo, this.offered, rules.winningStreak);
    this.sideNet = this.side.net;
    this.sideDecided = this.side.decided;
    this.streakRounds = this.side.streakRounds;
    this.cutAt = n - rules.cutCardFromEnd;
    this.burnStart = rules.burnAtShoeStart === 'decks' ? rules.decks : rules.burnAtShoeStart === 'one' ? 1 : 0;
    this.holeCard = rules.holeCard !== 'none';
    this.peek = rules.holeCard === 'peek';
    this.burnBeforeDealerSecond = rules.burnBeforeDealerSecond;
    this.bonus678 = rules.bonus678 === 'none' ? BONUS_NONE : rules.bonus678 === 'replaces-main' ? BONUS_REPLACES : 2;
    this.fiveCardHalfPay = rules.fiveCardHalfPay;
    this.splitByRank = rules.splitPairsBy === 'rank';
    this.maxHands = rules.maxHands;
    this.resplit = rules.resplit;
    this.resplitAfterDecline = rules.resplitAfterDecline;
    this.resplitAces = rules.resplitAces;
    this.dealerBlackjackTakes =
      rules.dealerBlackjackTakes === 'original-only' ? TAKES_ORIGINAL_ONLY : rules.dealerBlackjackTakes === 'all' ? TAKES_ALL : TAKES_DOUBLES_ORIGINAL_ONLY;
    this.doublesLimited = doublesLoseOriginalOnly(rules);
    this.dealerDrawsWhenAllLost = rules.dealerDrawsWhenAllLost;
    this.winningStreak = rules.winningStreak;
    const roundRules = {
      holeCard: this.holeCard,
      peek: this.peek,
      burnEachRound: rules.burnEachRound,
      burnBeforeDealerSecond: this.burnBeforeDealerSecond,
      burnStart: this.burnStart,
      cutAt: this.cutAt,
    };
    this.rounds = new AutomatonRounds(this, new SimAutomaton(tables), roundRules, this.rng, this.side.pairCount, this.acc);
  }

  sideBetsOffered(): readonly SimSideBet[] {
    return this.sides;
  }

  /** Fisher–Yates of the whole shoe (the cut-card mode). */
  shuffle(): void {
    this.rng.shuffle(this.shoe);
    this.pos = 0;
  }

  private draw(): number {
    const a = this.shoe;
    const i = this.pos++;
    if (this.lazy) {
      if (i < this.picked) return a[i] as number;
      this.picked = i + 1;
      const j = i + this.rng.below(a.length - i);
      const t = a[j] as number;
      a[j] = a[i] as number;
      a[i] = t;
      return t;
    }
    if (i >= a.length) {
      // Past the end of a cut-card shoe (a freak long round): finish it from a fresh shuffle.
      this.shuffle();
      this.pos = 1;
      return a[0] as number;
    }
    return a[i] as number;
  }

  /** Runs `hands` rounds, adding into `totals`. */
  run(hands: number, mode: ShuffleMode, totals: SimTotals): void {
    const acc = this.acc;
    acc.fill(0);
    this.lazy = mode === 'every-hand';
    if (!this.lazy) this.shuffle();
    // Int32 counts: at most 2^30 rounds between two folds.
    for (let done = 0; done < hands;) {
      const n = Math.min(hands - done, 1 << 30);
      // The streak follows every round's hands (`finishRound`): the automata do not keep them.
      if (!this.fastPath || this.winningStreak) this.playRounds(n);
      else if (this.lazy) this.rounds.everyHand(n);
      else this.rounds.cutCard(n);
      this.side.fold(acc);
      done += n;
    }
    totals.hands += hands;
    totals.sum += acc[0] as number;
    totals.sumSq += acc[1] as number;
    for (const k of this.offered) {
      const side = totals.side[SIM_SIDE_BETS[k] as SimSideBet];
      side.sum += acc[2 + 3 * k] as number;
      side.sumSq += acc[3 + 3 * k] as number;
      side.n += k < FIRST_TWO_BETS ? hands : (acc[4 + 3 * k] as number);
    }
  }

  /**
   * The hot loop: plays `hands` rounds from a shuffled shoe and adds into `acc`. Everything is
   * added inside the loop, and nothing follows it: V8 compiles this function while the loop
   * runs (on-stack replacement), and code after the loop, never run by then, would carry no type
   * feedback and make V8 discard the compiled code on its first pass (so at every call's end).
   */
  private playRounds(hands: number): void {
    const acc = this.acc;
    const burnEachRound = this.rules.burnEachRound;
    const side = this.side;
    let fresh = true;
    for (let h = 0; h < hands; h++) {
      if (this.lazy) this.pos = this.picked = 0;
      else if (fresh) this.pos = this.burnStart;
      else if (burnEachRound) this.pos++;
      const net = this.round();
      fresh = false;
      acc[0] = (acc[0] as number) + net;
      acc[1] = (acc[1] as number) + net * net;
      if (this.trace !== null) this.trace[h] = net;
      side.count(acc);
      // The cut card came out during this round: it was the last of the shoe (Art. 2 n.2 (1); rule 11).
      if (!this.lazy && this.pos > this.cutAt) {
        this.shuffle();
        fresh = true;
      }
    }
  }

  /**
   * One round from the current shoe position; returns the main result in units, and leaves every
   * offered side bet's result of the round in `sideNet` (the hot loop counts them instead).
   */
  playRound(): number {
    const net = this.round();
    this.side.fillFromTable();
    return net;
  }

  /** For the automata (`AutomatonRounds`): the round from `pos` by the reference path, its first `picked` cards already drawn in every-hand mode; its side bets counted. */
  replay(picked: number): number {
    this.replayed++;
    this.picked = picked;
    const net = this.round();
    this.side.count(this.acc);
    return net;
  }

  private round(): number {
    const val = CARD_VALUE;
    const p1 = this.draw();
    const up = this.draw();
    const p2 = this.draw();
    const hole = this.holeCard ? this.draw() : -1;
    const u = val[up] as number;
    this.side.open(p1, p2);
    // One table read per Black Jack check (NATURAL: an ace and a ten-value), not a chain of unpredictable branches.
    if (NATURAL[(val[p1] as number) * 16 + (val[p2] as number)] === 1) return this.playerBlackjack(u, hole);
    if (this.peek && NATURAL[u * 16 + (val[hole] as number)] === 1) return this.finishRound(-1);
    this.nh = 1;
    this.hFirst[0] = p1;
    this.hSecond[0] = p2;
    this.playHands(u, p1, p2);
    return this.finishRound(this.dealerAndSettle(u, hole));
  }

  /** Even money and insurance are declined (worth less than the Black Jack's expectation). */
  private playerBlackjack(u: number, hole: number): number {
    if (u !== 1 && u !== 10) return this.finishRound(1.5);
    if (hole < 0 && this.burnBeforeDealerSecond) this.draw();
    const second = hole >= 0 ? hole : this.draw();
    return this.finishRound(u + (CARD_VALUE[second] as number) === 11 ? 0 : 1.5);
  }

  /** Plays the seat's hands in table order; a split inserts the new hand after the one split. */
  private playHands(u: number, p1: number, p2: number): void {
    const val = CARD_VALUE;
    // Rules tested on every card, as locals and tested before the card count: a constant test first is a predictable branch.
    const bonus = this.bonus678;
    const five = this.fiveCardHalfPay && u !== 1;
    // The card dealt to the first hand of a split of the first two cards (a third seven for the
    // sevens bet, Art. 13 2)(2)): -1 no split, -2 the next card dealt to a split hand.
    let afterSplit = -1;
    this.declined = false;
    for (let i = 0; i < this.nh; i++) {
      const first = this.hFirst[i] as number;
      let second = this.hSecond[i] as number;
      if (second === NO_CARD) {
        second = this.draw();
        if (afterSplit === -2) afterSplit = second;
        this.hSecond[i] = second;
        if (first >> 2 === second >> 2) this.splitPairs++;
      }
      if (this.nh > 1 && val[first] === 1) {
        // Split aces: one card each (Art. 16 n.3; rule 26), unless an ace is split again.
        if (this.resplitAces && val[second] === 1 && this.nh < this.maxHands && (this.resplitAfterDecline || !this.declined)) {
          if (this.splitAcesAgain[u] === 1) {
            this.splitAt(i);
            i--;
            continue;
          }
          this.declined = true;
        }
        const code = CARD_CODE;
        this.endHand(i, 1 + (val[second] as number), ((code[first] as number) | (code[second] as number)) >> 4, STOOD, 1, 0, 0, 0);
        continue;
      }
      if (this.playHand(i, u, first, second, bonus, five)) {
        if (this.nh === 1 && afterSplit === -1) afterSplit = -2;
        this.splitAt(i);
        i--;
      }
    }
    if (this.nh > 1) this.side.resettle(afterSplit, p1, p2, this.splitPairs);
  }

  /**
   * Plays hand i from its first two cards by the strategy's tables, in local variables, and
   * stores it (`endHand`); returns true, storing nothing, when the strategy splits it.
   */
  private playHand(i: number, u: number, first: number, second: number, bonus: number, five: boolean): boolean {
    const val = CARD_VALUE;
    const code = CARD_CODE;
    let hard = (val[first] as number) + (val[second] as number);
    let ace = ((code[first] as number) | (code[second] as number)) >> 4;
    let n = 2;
    const fromSplit = this.nh > 1 ? 1 : 0;
    let stake = 1;
    let doubled = 0;
    let third = -1;
    let state: number;
    let net = 0;
    let out = 0;
    let decided = false;
    for (;;) {
      if (hard > 21) {
        state = BUSTED;
        net = -stake;
        out = -1;
        break;
      }
      if (bonus !== BONUS_NONE && n === 3 && isSpecial678Ids(first, second, third)) {
        net = 3 * stake;
        if (bonus === BONUS_REPLACES) {
          state = SETTLED;
          out = 1;
          break;
        }
        // In addition: on top of the main result.
      }
      if (five && n === 5 && this.takeFive[fiveKey(u, hard, ace)] === 1) {
        state = SETTLED;
        net = Math.floor(stake * 50) / 100;
        out = 1;
        break;
      }
      const tot = SOFT_TOTAL[hard * 2 + ace] as number;
      if (tot === 21 || doubled === 1) {
        state = STOOD;
        break;
      }
      let act: number;
      if (!decided) {
        decided = true;
        act = this.firstDecision(u, first, second, hard, ace, fromSplit);
      } else act = this.laterAction[laterKey(u, hard, ace, n)] as number;
      if (act === STAND) {
        state = STOOD;
        break;
      }
      if (act === SURRENDER) {
        state = SETTLED;
        net = -0.5;
        out = -1;
        break;
      }
      if (act === SPLIT) return true;
      if (act === DOUBLE || act === DOUBLE_ACE_LOCKED) {
        doubled = 1;
        stake *= 2;
        if (act === DOUBLE_ACE_LOCKED) ace = 0;
      }
      const c = this.draw();
      const k = code[c] as number;
      hard += k & 15;
      // A drawn ace may count 11 even beside a locked one (rule 32 locks only the doubled ace).
      ace |= k >> 4;
      n++;
      if (n === 3) third = c;
    }
    this.endHand(i, hard, ace, state, stake, doubled, net, out);
    return false;
  }

  /** A hand's first decision (split only when the rules allow it here); a resplit not taken bars later ones (Art. 16 n.5). */
  private firstDecision(u: number, first: number, second: number, hard: number, ace: number, fromSplit: number): number {
    const a = CARD_VALUE[first] as number;
    const isPair = this.splitByRank ? first >> 2 === second >> 2 : a === CARD_VALUE[second];
    const canSplit = isPair && this.nh < this.maxHands && (fromSplit === 0 || (this.resplit && (this.resplitAfterDecline || !this.declined)));
    const act = this.firstAction[firstKey(u, hard, ace, canSplit ? a : 0, fromSplit)] as number;
    if (canSplit && fromSplit === 1 && act !== SPLIT) this.declined = true;
    return act;
  }

  /** The dealer's hand, then the main results of the seat's hands (summed, in units). */
  private dealerAndSettle(u: number, hole: number): number {
    const val = CARD_VALUE;
    const code = CARD_CODE;
    const nh = this.nh;
    // The dealer draws only while some hand stands against it (rule 22).
    let contested = 0;
    for (let i = 0; i < nh; i++) contested |= (this.hState[i] as number) & STOOD;
    const plays = contested !== 0 || this.dealerDrawsWhenAllLost;
    let second = hole;
    if (hole < 0 && plays) {
      if (this.burnBeforeDealerSecond) this.draw();
      second = this.draw();
    }
    if (second >= 0 && NATURAL[u * 16 + (val[second] as number)] === 1) return this.dealerBlackjack();
    let dHard = u + (second >= 0 ? (val[second] as number) : 0);
    let dAce = ((second >= 0 ? (code[second] as number) : 0) | (u === 1 ? 16 : 0)) >> 4;
    if (plays) {
      // With two cards (the hole card or the second dealt) while the table says draw.
      const draws = this.dealerDraws;
      let two = 1;
      while (draws[(dHard * 2 + dAce) * 2 + two] === 1) {
        const k = code[this.draw()] as number;
        dHard += k & 15;
        dAce |= k >> 4;
        two = 0;
      }
    }
    // Each hand standing against the dealer: won, tied or lost by one table read (OUTCOME), no compare-and-branch.
    const dt = SOFT_TOTAL[dHard * 2 + dAce] as number;
    let total = 0;
    for (let i = 0; i < nh; i++) {
      const stood = (this.hState[i] as number) & STOOD;
      const sign = stood * (OUTCOME[(SOFT_TOTAL[(this.hHard[i] as number) * 2 + (this.hAce[i] as number)] as number) * 32 + dt] as number);
      const net = (this.hNet[i] as number) + sign * (this.hStake[i] as number);
      this.hNet[i] = net;
      this.hOut[i] = (this.hOut[i] as number) + sign;
      total += net;
    }
    return total;
  }

  /** The dealer's Black Jack after the hands were played (no hole card, or not peeked): each hand standing loses its stake, or its first bet only where the rules say. */
  private dealerBlackjack(): number {
    const nh = this.nh;
    let total = 0;
    const split = nh > 1;
    let lostAlready = false;
    for (let i = 0; i < nh; i++) if (this.hState[i] === BUSTED) lostAlready = true;
    for (let i = 0; i < nh; i++) {
      if (this.hState[i] === STOOD) {
        const stake = this.hStake[i] as number;
        const base = this.hDoubled[i] ? stake / 2 : stake;
        let net = -stake;
        if (split && this.dealerBlackjackTakes === TAKES_ORIGINAL_ONLY) {
          net = lostAlready ? 0 : -base;
          lostAlready = true;
        } else if (this.hDoubled[i] && this.doublesLimited) net = -base;
        this.hNet[i] = (this.hNet[i] as number) + net;
        this.hOut[i] = -1;
      }
      total += this.hNet[i] as number;
    }
    return total;
  }

  /** Stores a played hand for the dealer's turn and the settlement. */
  private endHand(i: number, hard: number, ace: number, state: number, stake: number, doubled: number, net: number, out: number): void {
    this.hHard[i] = hard;
    this.hAce[i] = ace;
    this.hState[i] = state;
    this.hStake[i] = stake;
    this.hDoubled[i] = doubled;
    this.hNet[i] = net;
    this.hOut[i] = out;
  }

  /** Splits hand i: i keeps its first card, a new hand i+1 gets the second. */
  private splitAt(i: number): void {
    for (let j = this.nh; j > i + 1; j--) this.moveHand(j - 1, j);
    this.nh++;
    this.hFirst[i + 1] = this.hSecond[i] as number;
    this.hSecond[i + 1] = NO_CARD;
    this.hSecond[i] = NO_CARD;
  }

  /** Hands after the one being split are not played yet: only their dealt cards move. */
  private moveHand(from: number, to: number): void {
    this.hFirst[to] = this.hFirst[from] as number;
    this.hSecond[to] = this.hSecond[from] as number;
  }

  /** Ends the round (the streak follows its result), then returns the main result. */
  private finishRound(main: number): number {
    if (this.winningStreak) this.side.settleStreak(this.streakResult(main));
    this.splitPairs = 0;
    this.nh = 0;
    return main;
  }

  /** The round's result for the streak: rounds ended before the hands were played (Black Jacks, a peeked dealer Black Jack) have one hand. */
  private streakResult(main: number): number {
    if (this.nh === 0) return Math.sign(main);
    let w = 0;
    let l = 0;
    for (let i = 0; i < this.nh; i++) {
      if (this.hOut[i] === 1) w++;
      else if (this.hOut[i] === -1) l++;
    }
    // Art. 16 n.7: split hands count by majority.
    return w > l ? 1 : w < l ? -1 : 0;
  }
}
