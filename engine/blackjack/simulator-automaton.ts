import { CARD_VALUE, NATURAL, SOFT_TOTAL, isSpecial678Ids } from './simulator-cards.js';
import { doublesLoseOriginalOnly } from './rules.js';
import { DOUBLE, DOUBLE_ACE_LOCKED, HIT, SPLIT, STAND, SURRENDER, type SimTables, fiveKey, firstKey, laterKey } from './simulator-tables.js';

/**
 * The simulator's round as two automata over card values, built once per rule set from the same
 * tables the reference path reads (`SimTables`): every decision, bust, 21, five-card choice and
 * dealer draw is folded into the transition, so playing a hand is one table read per card and
 * its end is a settlement-table read, with no branch but "another card?".
 *
 * Transitions are Int16: a value ≥ 0 is the next state (read with the next card's value at
 * `state * 16 + value`); a value < 0 is `~end`, the hand's (or the dealer's) end.
 *
 * What the automata do not play is left to the reference path (`FastBlackjack.round`), by the
 * player's end FALLBACK: a split, and a first two cards that may make the 6-7-8 bonus when it is
 * offered (they need the suits of a third card). A round is replayed from its first card there.
 */

// Player ends: a standing total t (4..21) is t, doubled 32 + t; the others below.
export const P_BUST = 22;
export const P_FIVE = 23;
export const P_SURRENDER = 24;
export const P_BLACKJACK = 25;
export const P_FALLBACK = 26;
const DOUBLED = 32;

// Dealer ends: the final total (17..26), D_BLACKJACK, or D_NONE when the dealer did not play.
export const D_NONE = 0;
export const D_BLACKJACK = 30;

const HARD = 32;
/** Player states: up card, hard sum, ace, and a card slot: 0 doubled (one card to come), 2..7 cards held (7: seven or more). */
const pState = (u: number, hard: number, ace: number, slot: number): number => ((u * HARD + hard) * 2 + ace) * 8 + slot;
/** Dealer states: hard sum, ace, cards held (1, 2, 3: three or more). */
const dState = (hard: number, ace: number, cards: number): number => ((hard * 2 + ace) << 2) | cards;

export class SimAutomaton {
  /** Player transitions by `state * 16 + value`. */
  readonly player = new Int16Array(11 * HARD * 2 * 8 * 16);
  /**
   * The player's first state (or end) by `up * 64 + class`, where the class of the first two
   * cards is `pairClass[first * 52 + second]`: their hard sum, ace, pair and whether they are a
   * Black Jack or may make the 6-7-8 bonus.
   */
  readonly start: Int16Array;
  readonly pairClass = new Uint8Array(52 * 52);
  /** Dealer transitions by `state * 16 + value`; the dealer's state with the up card alone is `dealerStart[up]`. */
  readonly dealer = new Int16Array(HARD * 2 * 4 * 16);
  readonly dealerStart = new Int16Array(11);
  /** Whether the dealer plays against this player end (a standing hand, or the rules say always; rule 22). */
  readonly contested = new Uint8Array(64);
  /** The main result in half units, by `player end * 32 + dealer end`. */
  readonly settle = new Int8Array(64 * 32);

  constructor(private readonly t: SimTables) {
    const r = t.rules;
    const classes: number[][] = [];
    const classOf = new Map<string, number>();
    const bonus = r.bonus678 !== 'none';
    for (let a = 0; a < 52; a++) {
      for (let b = 0; b < 52; b++) {
        const va = CARD_VALUE[a] as number;
        const vb = CARD_VALUE[b] as number;
        const natural = NATURAL[va * 16 + vb] === 1 ? 1 : 0;
        // Could a third card make 6-7-8 of a suit or three 7s (`isSpecial678Ids` for some third card)?
        let may678 = 0;
        for (let c = 0; bonus && c < 52 && may678 === 0; c++) if (isSpecial678Ids(a, b, c)) may678 = 1;
        const isPair = r.splitPairsBy === 'rank' ? a >> 2 === b >> 2 : va === vb;
        const pair = isPair && r.maxHands > 1 ? va : 0;
        const ace = va === 1 || vb === 1 ? 1 : 0;
        const key = `${va + vb},${ace},${pair},${natural},${may678}`;
        let k = classOf.get(key);
        if (k === undefined) {
          k = classes.length;
          classOf.set(key, k);
          classes.push([va + vb, ace, pair, natural, may678]);
        }
        this.pairClass[a * 52 + b] = k;
      }
    }
    if (classes.length > 64) throw new RangeError(`SimAutomaton: ${classes.length} classes of two cards, at most 64`);
    this.start = new Int16Array(11 * 64);
    for (let u = 1; u <= 10; u++) {
      classes.forEach(([hard, ace, pair, natural, may678], k) => {
        this.start[u * 64 + k] = natural ? ~P_BLACKJACK : may678 ? ~P_FALLBACK : this.firstMove(u, hard as number, ace as number, pair as number);
      });
      for (let hard = 0; hard < HARD; hard++) {
        for (let ace = 0; ace < 2; ace++) {
          for (let slot = 0; slot < 8; slot++) {
            if (slot === 1) continue;
            for (let v = 1; v <= 10; v++) this.player[pState(u, hard, ace, slot) * 16 + v] = this.afterCard(u, hard, ace, slot, v);
          }
        }
      }
      this.dealerStart[u] = dState(u, u === 1 ? 1 : 0, 1);
    }
    this.fillDealer();
    this.fillSettle();
  }

  /** The first decision on two cards (no Black Jack, no split taken here): a state to draw in, or the hand's end. */
  private firstMove(u: number, hard: number, ace: number, pair: number): number {
    const act = this.t.first[firstKey(u, hard, ace, pair, 0)] as number;
    const tot = SOFT_TOTAL[hard * 2 + ace] as number;
    if (act === STAND) return ~tot;
    if (act === SURRENDER) return ~P_SURRENDER;
    if (act === SPLIT) return ~P_FALLBACK;
    if (act === DOUBLE) return pState(u, hard, ace, 0);
    if (act === DOUBLE_ACE_LOCKED) return pState(u, hard, 0, 0);
    if (act !== HIT) throw new Error(`SimAutomaton: action ${act}`);
    return pState(u, hard, ace, 2);
  }

  /** The hand after a card of value v, in the reference path's order of checks (`FastBlackjack.playHands`). */
  private afterCard(u: number, hard0: number, ace0: number, slot: number, v: number): number {
    const hard = hard0 + v;
    const ace = ace0 | (v === 1 ? 1 : 0);
    const doubled = slot === 0;
    const n = doubled ? 3 : slot + 1;
    if (hard > 21) return ~(doubled ? DOUBLED + P_BUST : P_BUST);
    if (this.t.rules.fiveCardHalfPay && u !== 1 && n === 5 && this.t.takeFive[fiveKey(u, hard, ace)] === 1) return ~P_FIVE;
    const tot = SOFT_TOTAL[hard * 2 + ace] as number;
    if (doubled) return ~(DOUBLED + tot);
    if (tot === 21) return ~tot;
    const act = this.t.later[laterKey(u, hard, ace, n)] as number;
    return act === STAND ? ~tot : pState(u, hard, ace, n > 7 ? 7 : n);
  }

  private fillDealer(): void {
    const draws = this.t.dealerDraws;
    for (let hard = 1; hard < HARD; hard++) {
      for (let ace = 0; ace < 2; ace++) {
        for (let cards = 1; cards <= 3; cards++) {
          for (let v = 1; v <= 10; v++) {
            const h = hard + v;
            const a = ace | (v === 1 ? 1 : 0);
            let next: number;
            if (cards === 1 && NATURAL[hard * 16 + v] === 1) next = ~D_BLACKJACK;
            else if (h >= HARD) next = ~(SOFT_TOTAL[(HARD - 1) * 2] as number);
            else if (draws[(h * 2 + a) * 2 + (cards === 1 ? 1 : 0)] === 1) next = dState(h, a, cards === 1 ? 2 : 3);
            else next = ~(SOFT_TOTAL[h * 2 + a] as number);
            this.dealer[dState(hard, ace, cards) * 16 + v] = next;
          }
        }
      }
    }
  }

  /** The main result of one hand (stake 1, doubled 2) against the dealer's end, as `FastBlackjack.dealerAndSettle` and `dealerBlackjack` settle it. */
  private fillSettle(): void {
    const r = this.t.rules;
    // A single hand (no split): a doubled hand loses its first bet only where Art. 17 n.3 / Art. 10 n.7 say.
    const limited = doublesLoseOriginalOnly(r);
    for (let p = 0; p < 64; p++) {
      const dbl = p >= DOUBLED;
      const base = dbl ? p - DOUBLED : p;
      const stake = dbl ? 2 : 1;
      const stood = base >= 4 && base <= 21;
      this.contested[p] = stood || r.dealerDrawsWhenAllLost ? 1 : 0;
      for (let d = 0; d < 32; d++) {
        let net = 0;
        if (base === P_BUST) net = -stake;
        else if (base === P_FIVE) net = 0.5;
        else if (base === P_SURRENDER) net = -0.5;
        else if (stood && d === D_BLACKJACK) net = dbl && limited ? -1 : -stake;
        else if (stood && d !== D_NONE) {
          const out = d > 21 || base > d ? 1 : base < d ? -1 : 0;
          net = out * stake;
        }
        this.settle[p * 32 + d] = net * 2;
      }
    }
  }
}
