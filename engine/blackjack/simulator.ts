import { computeStrategy, type StrategyAction, type StrategyTable } from '../strategy/basic-strategy.js';
import { dealerDrawsOn } from './hand.js';
import type { BlackjackRules } from './rules.js';
import { SimRng } from './simulator-rng.js';
import { PERFECT_PAIRS_PAYS, SEVENS_PAYS, ANY_PAIR_PAYS, STREAK_PAYS } from './side-bets.js';

/**
 * The simulator's fast path: one seat, flat main bet of one unit, basic strategy, side bets of
 * one unit each. It shares with the round state machine the rule profile, the dealer's drawing
 * rule (`dealerDrawsOn`), the pay tables and the strategy; the cards are small integers
 * (rank * 4 + suit) in a typed-array shoe so that a hand costs no allocation. A test plays the
 * same shoes through `BlackjackRound` and this path and requires the same results.
 */

export type ShuffleMode = 'every-hand' | 'cut-card';

export const SIM_SIDE_BETS = ['anyPair', 'sevens', 'over13', 'under13', 'perfectPairs', 'streak2', 'streak3', 'streak4', 'streak5'] as const;
const STREAK0 = 5;
export type SimSideBet = (typeof SIM_SIDE_BETS)[number];

export interface SimTotals {
  hands: number;
  /** Sum and sum of squares of the main result per round, in units of the initial bet. */
  sum: number;
  sumSq: number;
  /** Per side bet: results per unit staked, and how many bets were decided. */
  side: Record<SimSideBet, { sum: number; sumSq: number; n: number }>;
}

const A_CODE: Record<StrategyAction, number> = { hit: 1, stand: 2, double: 3, split: 4, surrender: 5 };
const HIT = 1;
const STAND = 2;
const DOUBLE = 3;
const SPLIT = 4;
const SURRENDER = 5;

const MAXH = 100;

export class FastBlackjack {
  readonly rules: BlackjackRules;
  readonly strategy: StrategyTable;
  /** Card ids of the shoe; `pos` is the next card. */
  shoe: Uint8Array;
  pos = 0;
  private readonly val: Uint8Array;
  private readonly rng: SimRng;
  private readonly order = new Uint8Array(10 * 32 * 2 * 8 * 11 * 4 * 5);
  private readonly sides: SimSideBet[];
  private readonly cutAt: number;
  private readonly burnStart: number;
  /** Per-hand state of the seat's hands (split hands in table order). */
  private readonly hHard = new Int32Array(MAXH);
  private readonly hAce = new Uint8Array(MAXH);
  private readonly hN = new Int32Array(MAXH);
  private readonly hStake = new Float64Array(MAXH);
  private readonly hState = new Uint8Array(MAXH); // 0 open, 1 stood, 2 busted, 3 settled
  private readonly hNet = new Float64Array(MAXH);
  private readonly hFromSplit = new Uint8Array(MAXH);
  private readonly hSplitAces = new Uint8Array(MAXH);
  private readonly hFirst = new Uint8Array(MAXH);
  private readonly hSecond = new Uint8Array(MAXH);
  private readonly hThird = new Uint8Array(MAXH);
  private readonly hDoubled = new Uint8Array(MAXH);
  private readonly hLock = new Uint8Array(MAXH);
  private nh = 0;
  /** Side-bet results of the last round, per unit staked, in SIM_SIDE_BETS order. */
  readonly sideNet = new Float64Array(SIM_SIDE_BETS.length);
  /** Whether each side bet was decided in the last round (streak bets run over several rounds). */
  readonly sideDecided = new Uint8Array(SIM_SIDE_BETS.length);
  /** Winning streak (Art. 13 5)): the four levels are bet together whenever none is open. */
  private readonly streakOpen = new Uint8Array(4);
  private streakWins = 0;
  /** Result of each hand for the streak: 1 won, -1 lost, 0 tie. */
  private readonly hOut = new Int8Array(MAXH);

  constructor(rules: BlackjackRules, seed: number, strategy?: StrategyTable) {
    this.rules = rules;
    this.strategy = strategy ?? computeStrategy(rules);
    const n = rules.decks * 52;
    this.shoe = new Uint8Array(n);
    for (let i = 0; i < n; i++) this.shoe[i] = i % 52;
    this.val = new Uint8Array(52);
    for (let id = 0; id < 52; id++) {
      const r = id >> 2;
      this.val[id] = r === 0 ? 1 : r >= 9 ? 10 : r + 1;
    }
    this.rng = new SimRng(seed);
    this.sides = SIM_SIDE_BETS.filter((b) =>
      b === 'over13' || b === 'under13' ? rules.overUnder13 : b.startsWith('streak') ? rules.winningStreak : rules[b as 'anyPair' | 'sevens' | 'perfectPairs'],
    );
    this.cutAt = n - rules.cutCardFromEnd;
    this.burnStart = rules.burnAtShoeStart === 'decks' ? rules.decks : rules.burnAtShoeStart === 'one' ? 1 : 0;
  }

  sideBetsOffered(): readonly SimSideBet[] {
    return this.sides;
  }

  /** Fisher–Yates of the whole shoe (the cut-card mode). */
  shuffle(): void {
    this.rng.shuffle(this.shoe);
    this.pos = 0;
  }

  private lazy = false;

  /** Every-hand shuffle: each card drawn is a uniform pick among those not yet drawn this hand. */
  private draw(): number {
    const a = this.shoe;
    const i = this.pos++;
    if (this.lazy) {
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
    const nSide = SIM_SIDE_BETS.length;
    const sideOn = new Uint8Array(nSide);
    for (const b of this.sides) sideOn[SIM_SIDE_BETS.indexOf(b)] = 1;
    const sSum = new Float64Array(nSide);
    const sSq = new Float64Array(nSide);
    const sN = new Float64Array(nSide);
    const decided = this.sideDecided;
    const sideNet = this.sideNet;
    let sum = 0;
    let sumSq = 0;
    this.lazy = mode === 'every-hand';
    let fresh = true;
    if (!this.lazy) this.shuffle();
    for (let h = 0; h < hands; h++) {
      if (this.lazy) this.pos = 0;
      else if (fresh) {
        this.pos = this.burnStart;
      } else if (this.rules.burnEachRound) this.pos++;
      const net = this.playRound();
      fresh = false;
      sum += net;
      sumSq += net * net;
      for (let k = 0; k < nSide; k++) {
        if (sideOn[k] === 0 || decided[k] === 0) continue;
        const v = sideNet[k] as number;
        sN[k] = (sN[k] as number) + 1;
        sSum[k] = (sSum[k] as number) + v;
        sSq[k] = (sSq[k] as number) + v * v;
      }
      // The cut card came out during this round: it was the last of the shoe (Art. 2 n.2 (1); rule 11).
      if (!this.lazy && this.pos > this.cutAt) {
        this.shuffle();
        fresh = true;
      }
    }
    totals.hands += hands;
    totals.sum += sum;
    totals.sumSq += sumSq;
    SIM_SIDE_BETS.forEach((b, k) => {
      totals.side[b].sum += sSum[k] as number;
      totals.side[b].sumSq += sSq[k] as number;
      totals.side[b].n += sN[k] as number;
    });
  }

  private ranked(up: number, hard: number, ace: number, n: number, pair: number, first: boolean, fromSplit: boolean, k: number): number {
    const key = ((((((up - 1) * 32 + hard) * 2 + ace) * 8 + (n > 7 ? 7 : n)) * 11 + pair) * 4 + (first ? 2 : 0) + (fromSplit ? 1 : 0)) * 5;
    let c = this.order[key + k] as number;
    if (c === 0 && k === 0) {
      const list = this.strategy.ranked(up, hard, ace === 1, n, pair, first, fromSplit);
      for (let i = 0; i < list.length && i < 5; i++) this.order[key + i] = A_CODE[list[i] as StrategyAction];
      c = this.order[key + k] as number;
    }
    return c;
  }

  /** One round from the current shoe position; returns the main result in units. */
  playRound(): number {
    const r = this.rules;
    const val = this.val;
    const p1 = this.draw();
    const up = this.draw();
    const p2 = this.draw();
    const hole = r.holeCard !== 'none' ? this.draw() : -1;
    const u = val[up] as number;
    const v1 = val[p1] as number;
    const v2 = val[p2] as number;
    this.sideNet.fill(0);
    this.sideDecided.fill(0);
    if (r.winningStreak && this.streakOpen[0] === 0 && this.streakOpen[1] === 0 && this.streakOpen[2] === 0 && this.streakOpen[3] === 0) {
      this.streakOpen.fill(1);
      this.streakWins = 0;
    }
    this.sidePre(p1, p2);
    const playerBJ = (v1 === 1 && v2 === 10) || (v1 === 10 && v2 === 1);
    const upAT = u === 1 || u === 10;
    if (playerBJ) {
      if (!upAT) return this.finishRound(1.5);
      // Even money and insurance are declined (worth less than the Black Jack's expectation).
      if (hole < 0 && r.burnBeforeDealerSecond) this.draw();
      const second = hole >= 0 ? hole : this.draw();
      const dealerBJ = (u === 1 && val[second] === 10) || (u === 10 && val[second] === 1);
      return this.finishRound(dealerBJ ? 0 : 1.5);
    }
    if (r.holeCard === 'peek' && upAT && hole >= 0) {
      const hv = val[hole] as number;
      if ((u === 1 && hv === 10) || (u === 10 && hv === 1)) return this.finishRound(-1);
    }
    // The seat's first hand.
    this.nh = 1;
    this.initHand(0, p1, p2);
    let sevensThird = -1;
    // Art. 16 n.5: a declined resplit bars later ones (unless resplitAfterDecline).
    let declined = false;
    for (let i = 0; i < this.nh; i++) {
      if (this.hN[i] === 1) {
        const c = this.draw();
        if (sevensThird === -2) sevensThird = c;
        this.addCard(i, c);
        this.hSecond[i] = c;
        if ((this.hFirst[i] as number) >> 2 === c >> 2) this.splitPairs++;
      }
      if (this.hSplitAces[i]) {
        if (r.resplitAces && val[this.hSecond[i] as number] === 1 && this.nh < r.maxHands && (r.resplitAfterDecline || !declined)) {
          if (this.ranked(u, 2, 1, 2, 1, true, true, 0) === SPLIT) {
            this.splitAt(i);
            i--;
            continue;
          }
          declined = true;
        }
        this.hState[i] = 1;
        continue;
      }
      let first = true;
      for (;;) {
        const hard = this.hHard[i] as number;
        const ace = this.hAce[i] as number;
        const tot = ace && hard + 10 <= 21 ? hard + 10 : hard;
        const n = this.hN[i] as number;
        if (hard > 21) {
          this.hState[i] = 2;
          this.hNet[i] = -(this.hStake[i] as number);
          this.hOut[i] = -1;
          break;
        }
        if (r.bonus678 !== 'none' && n === 3 && this.is678(i)) {
          if (r.bonus678 === 'replaces-main') {
            this.hState[i] = 3;
            this.hNet[i] = 3 * (this.hStake[i] as number);
            this.hOut[i] = 1;
            break;
          }
          this.hNet[i] = 3 * (this.hStake[i] as number); // on top of the main result
        }
        if (n === 5 && r.fiveCardHalfPay && u !== 1 && this.strategy.takeFiveCardHalf(u, hard, ace === 1)) {
          this.hState[i] = 3;
          this.hNet[i] = Math.floor((this.hStake[i] as number) * 50) / 100;
          this.hOut[i] = 1;
          break;
        }
        if (tot === 21 || this.hDoubled[i]) {
          this.hState[i] = 1;
          break;
        }
        const fromSplit = this.hFromSplit[i] === 1;
        let pair = 0;
        let canSplit = false;
        let canDouble = false;
        let lock = false;
        let canSurrender = false;
        if (first) {
          const c1 = this.hFirst[i] as number;
          const c2 = this.hSecond[i] as number;
          const a = val[c1] as number;
          const b = val[c2] as number;
          const isPair = r.splitPairsBy === 'rank' ? c1 >> 2 === c2 >> 2 : a === b;
          if (isPair && this.nh < r.maxHands && (!fromSplit || (r.resplit && (r.resplitAfterDecline || !declined)))) {
            canSplit = true;
            pair = a;
          }
          if (!fromSplit || r.doubleAfterSplit) {
            if (r.doubleOn === 'any-two') canDouble = true;
            else {
              const lo = r.doubleOn === 'nine-to-eleven' ? 9 : r.doubleOn === 'ten-eleven' ? 10 : 11;
              if (tot >= lo && tot <= 11) canDouble = true;
              else if (ace && hard >= lo && hard <= 11 && r.softDoubleAceLocked) {
                canDouble = true;
                lock = true;
              }
            }
          }
          canSurrender = !fromSplit && r.surrender !== 'none' && (r.surrender === 'late' || u !== 1);
        }
        let act = 0;
        for (let k = 0; k < 5; k++) {
          const c = this.ranked(u, hard, ace, n, canSplit ? pair : 0, first, fromSplit, k);
          if (c === HIT || (c === STAND && tot >= r.minStandTotal) || (c === DOUBLE && canDouble) || (c === SPLIT && canSplit) || (c === SURRENDER && canSurrender)) {
            act = c;
            break;
          }
        }
        if (act === 0) act = HIT;
        if (canSplit && fromSplit && act !== SPLIT) declined = true;
        first = false;
        if (act === STAND) {
          this.hState[i] = 1;
          break;
        }
        if (act === SURRENDER) {
          this.hState[i] = 3;
          this.hNet[i] = -0.5;
          this.hOut[i] = -1;
          break;
        }
        if (act === SPLIT) {
          if (this.nh === 1 && v1 === 7 && v2 === 7 && sevensThird === -1) sevensThird = -2;
          this.splitAt(i);
          i--;
          break;
        }
        if (act === DOUBLE) {
          this.hDoubled[i] = 1;
          this.hLock[i] = lock ? 1 : 0;
          this.hStake[i] = 2 * (this.hStake[i] as number);
          if (lock) this.hAce[i] = 0;
        }
        const c = this.draw();
        this.addCard(i, c);
        if (this.hN[i] === 3) this.hThird[i] = c;
      }
    }
    if (sevensThird >= 0) this.sidePostSevens(sevensThird, p1, p2);
    // Dealer: draws only while some hand stands against it (rule 22).
    let contested = false;
    for (let i = 0; i < this.nh; i++) if (this.hState[i] === 1) contested = true;
    let dHard = u;
    let dAce = u === 1 ? 1 : 0;
    let dN = 1;
    let second = hole;
    if (hole < 0 && (contested || r.dealerDrawsWhenAllLost)) {
      if (r.burnBeforeDealerSecond) this.draw();
      second = this.draw();
    }
    if (second >= 0) {
      const sv = val[second] as number;
      dHard += sv;
      if (sv === 1) dAce = 1;
      dN = 2;
    }
    const dealerBJ = dN === 2 && dAce === 1 && dHard === 11;
    let total = 0;
    if (dealerBJ) {
      const split = this.nh > 1;
      let lostAlready = false;
      for (let i = 0; i < this.nh; i++) if (this.hState[i] === 2) lostAlready = true;
      for (let i = 0; i < this.nh; i++) {
        if (this.hState[i] === 1) {
          const stake = this.hStake[i] as number;
          const base = this.hDoubled[i] ? stake / 2 : stake;
          let net = -stake;
          if (split && r.dealerBlackjackTakes === 'original-only') {
            net = lostAlready ? 0 : -base;
            lostAlready = true;
          } else if (this.hDoubled[i] && r.dealerBlackjackTakes !== 'all') net = -base;
          this.hNet[i] = (this.hNet[i] as number) + net;
          this.hOut[i] = -1;
        }
        total += this.hNet[i] as number;
      }
      return this.finishRound(total);
    }
    if (contested || r.dealerDrawsWhenAllLost) {
      while (dealerDrawsOn(dHard, dAce === 1, dN, r.dealerSoft17)) {
        const c = this.draw();
        const cv = val[c] as number;
        dHard += cv;
        if (cv === 1) dAce = 1;
        dN++;
      }
    }
    const dt = dAce && dHard + 10 <= 21 ? dHard + 10 : dHard;
    for (let i = 0; i < this.nh; i++) {
      if (this.hState[i] === 1) {
        const hard = this.hHard[i] as number;
        const pt = this.hAce[i] && hard + 10 <= 21 ? hard + 10 : hard;
        const stake = this.hStake[i] as number;
        let net = 0;
        if (dt > 21 || pt > dt) net = stake;
        else if (pt < dt) net = -stake;
        this.hNet[i] = (this.hNet[i] as number) + net;
        this.hOut[i] = net > 0 ? 1 : net < 0 ? -1 : 0;
      }
      total += this.hNet[i] as number;
    }
    return this.finishRound(total);
  }

  private initHand(i: number, c1: number, c2: number): void {
    const a = this.val[c1] as number;
    const b = this.val[c2] as number;
    this.hHard[i] = a + b;
    this.hAce[i] = a === 1 || b === 1 ? 1 : 0;
    this.hN[i] = 2;
    this.hStake[i] = 1;
    this.hState[i] = 0;
    this.hNet[i] = 0;
    this.hFromSplit[i] = 0;
    this.hSplitAces[i] = 0;
    this.hFirst[i] = c1;
    this.hSecond[i] = c2;
    this.hDoubled[i] = 0;
    this.hLock[i] = 0;
    this.hOut[i] = 0;
  }

  private addCard(i: number, c: number): void {
    const v = this.val[c] as number;
    this.hHard[i] = (this.hHard[i] as number) + v;
    // A drawn ace may count 11 even beside a locked one (rule 32 locks only the doubled ace).
    if (v === 1) this.hAce[i] = 1;
    this.hN[i] = (this.hN[i] as number) + 1;
  }

  /** Splits hand i: i keeps its first card, a new hand i+1 gets the second. */
  private splitAt(i: number): void {
    for (let j = this.nh; j > i + 1; j--) this.copyHand(j - 1, j);
    this.nh++;
    const c1 = this.hFirst[i] as number;
    const c2 = this.hSecond[i] as number;
    const aces = this.val[c1] === 1;
    for (const [k, c] of [
      [i, c1],
      [i + 1, c2],
    ] as const) {
      const v = this.val[c] as number;
      this.hHard[k] = v;
      this.hAce[k] = v === 1 ? 1 : 0;
      this.hN[k] = 1;
      this.hStake[k] = 1;
      this.hState[k] = 0;
      this.hNet[k] = 0;
      this.hFromSplit[k] = 1;
      this.hSplitAces[k] = aces ? 1 : 0;
      this.hFirst[k] = c;
      this.hDoubled[k] = 0;
      this.hLock[k] = 0;
      this.hOut[k] = 0;
    }
  }

  private copyHand(from: number, to: number): void {
    this.hHard[to] = this.hHard[from] as number;
    this.hAce[to] = this.hAce[from] as number;
    this.hN[to] = this.hN[from] as number;
    this.hStake[to] = this.hStake[from] as number;
    this.hState[to] = this.hState[from] as number;
    this.hNet[to] = this.hNet[from] as number;
    this.hFromSplit[to] = this.hFromSplit[from] as number;
    this.hSplitAces[to] = this.hSplitAces[from] as number;
    this.hFirst[to] = this.hFirst[from] as number;
    this.hSecond[to] = this.hSecond[from] as number;
    this.hThird[to] = this.hThird[from] as number;
    this.hDoubled[to] = this.hDoubled[from] as number;
    this.hLock[to] = this.hLock[from] as number;
    this.hOut[to] = this.hOut[from] as number;
  }

  private is678(i: number): boolean {
    const a = this.hFirst[i] as number;
    const b = this.hSecond[i] as number;
    const c = this.hThird[i] as number;
    const ra = a >> 2;
    const rb = b >> 2;
    const rc = c >> 2;
    if (ra === 6 && rb === 6 && rc === 6) return true;
    const sum = ra + rb + rc;
    const suited = (a & 3) === (b & 3) && (b & 3) === (c & 3);
    // Ranks 5, 6, 7 are the 6, 7, 8; distinct ranks summing to 18 with each in 5..7.
    return suited && sum === 18 && ra !== rb && rb !== rc && ra !== rc && ra >= 5 && ra <= 7 && rb >= 5 && rb <= 7 && rc >= 5 && rc <= 7;
  }

  /** Side bets decided by the first two cards; split pairs and the third seven come later. */
  private sidePre(p1: number, p2: number): void {
    const r = this.rules;
    for (let k = 0; k < STREAK0; k++) this.sideDecided[k] = 1;
    const sameRank = p1 >> 2 === p2 >> 2;
    if (r.anyPair) this.sideNet[0] = sameRank ? ANY_PAIR_PAYS : -1;
    if (r.sevens) {
      const two = p1 >> 2 === 6 && p2 >> 2 === 6;
      this.sideNet[1] = two ? ((p1 & 3) === (p2 & 3) ? SEVENS_PAYS.twoSuited : SEVENS_PAYS.two) : -1;
    }
    if (r.overUnder13) {
      const av = r.overUnderAceValue;
      const t = (p1 >> 2 === 0 ? av : (this.val[p1] as number)) + (p2 >> 2 === 0 ? av : (this.val[p2] as number));
      this.sideNet[2] = t > 13 ? 1 : -1;
      this.sideNet[3] = t < 13 ? 1 : -1;
    }
    if (r.perfectPairs) {
      if (!sameRank) this.sideNet[4] = -1;
      else if ((p1 & 3) === (p2 & 3)) this.sideNet[4] = PERFECT_PAIRS_PAYS.perfect;
      else this.sideNet[4] = ((p1 & 3) === 1 || (p1 & 3) === 2) === ((p2 & 3) === 1 || (p2 & 3) === 2) ? PERFECT_PAIRS_PAYS.coloured : PERFECT_PAIRS_PAYS.mixed;
    }
  }

  private sidePostSevens(third: number, p1: number, p2: number): void {
    if (!this.rules.sevens || third >> 2 !== 6) return;
    const suited = (p1 & 3) === (p2 & 3) && (p2 & 3) === (third & 3);
    this.sideNet[1] = suited ? SEVENS_PAYS.threeSuited : SEVENS_PAYS.three;
  }

  /** Adds the any-pair wins of pairs formed by split hands (Art. 13 1)(2)), then returns the main result. */
  private finishRound(main: number): number {
    if (this.rules.anyPair && this.splitPairs > 0 && (this.sideNet[0] as number) > 0) {
      this.sideNet[0] = (this.sideNet[0] as number) + ANY_PAIR_PAYS * this.splitPairs;
    }
    if (this.rules.winningStreak) {
      // Rounds ended before the hands were played (Black Jacks, a peeked dealer Black Jack) have one hand.
      let result = Math.sign(main);
      if (this.nh > 0) {
        let w = 0;
        let l = 0;
        for (let i = 0; i < this.nh; i++) {
          if (this.hOut[i] === 1) w++;
          else if (this.hOut[i] === -1) l++;
        }
        // Art. 16 n.7: split hands count by majority.
        result = w > l ? 1 : w < l ? -1 : 0;
      }
      if (result > 0) this.streakWins++;
      for (let k = 0; k < 4; k++) {
        if (this.streakOpen[k] === 0) continue;
        const level = (k + 2) as 2 | 3 | 4 | 5;
        if (result < 0) {
          this.sideNet[STREAK0 + k] = -1;
          this.sideDecided[STREAK0 + k] = 1;
          this.streakOpen[k] = 0;
        } else if (result > 0 && this.streakWins >= level) {
          this.sideNet[STREAK0 + k] = STREAK_PAYS[level];
          this.sideDecided[STREAK0 + k] = 1;
          this.streakOpen[k] = 0;
        }
      }
    }
    this.splitPairs = 0;
    this.nh = 0;
    return main;
  }

  private splitPairs = 0;

}

export function emptyTotals(): SimTotals {
  const side = {} as SimTotals['side'];
  for (const b of SIM_SIDE_BETS) side[b] = { sum: 0, sumSq: 0, n: 0 };
  return { hands: 0, sum: 0, sumSq: 0, side };
}

export function mergeTotals(into: SimTotals, from: SimTotals): void {
  into.hands += from.hands;
  into.sum += from.sum;
  into.sumSq += from.sumSq;
  for (const b of SIM_SIDE_BETS) {
    into.side[b].sum += from.side[b].sum;
    into.side[b].sumSq += from.side[b].sumSq;
    into.side[b].n += from.side[b].n;
  }
}

/** House edge and its standard error, in percent of the stake; positive = house advantage. */
export function edge(sum: number, sumSq: number, n: number): { houseEdge: number; stdErr: number } {
  if (n === 0) return { houseEdge: 0, stdErr: 0 };
  const mean = sum / n;
  const variance = Math.max(0, sumSq / n - mean * mean);
  return { houseEdge: -mean * 100, stdErr: Math.sqrt(variance / n) * 100 };
}
