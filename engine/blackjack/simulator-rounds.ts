import { CARD_VALUE, NATURAL } from './simulator-cards.js';
import { D_BLACKJACK, D_NONE, P_BLACKJACK, P_FALLBACK, type SimAutomaton } from './simulator-automaton.js';
import type { SimRng } from './simulator-rng.js';

/**
 * More cards than a round without a split can take: the player's hand ends by 22 cards (each adds
 * at least 1 to a hard sum that stops past 21), the dealer's by 18 (it stands from hard 17), one burn.
 */
const MAX_ROUND_CARDS = 48;

/** What the loops need of the simulator (`FastBlackjack`): its shoe, its position and the reference path. */
export interface RoundHost {
  /** Card ids of the shoe; `pos` is the next card. */
  readonly shoe: Uint8Array;
  pos: number;
  trace: Float64Array | null;
  /** Fisher–Yates of the whole shoe; `pos` back to 0. */
  shuffle(): void;
  /**
   * Plays by the reference path the round that starts at `pos`, its first `picked` cards already
   * drawn (every-hand mode; 0 in cut-card mode, where the shoe is only read), counts its side
   * bets, and returns its main result.
   */
  replay(picked: number): number;
}

/** The rules the loops read, as booleans and numbers. */
export interface RoundRules {
  readonly holeCard: boolean;
  readonly peek: boolean;
  readonly burnEachRound: boolean;
  readonly burnBeforeDealerSecond: boolean;
  readonly burnStart: number;
  readonly cutAt: number;
}

/**
 * Card `i` of an every-hand round: a uniform pick among the cards not yet drawn this round (lazy
 * Fisher–Yates), as `FastBlackjack`'s reference path draws it, so the same generator outputs give
 * the same cards in both.
 */
function pick(shoe: Uint8Array, rng: SimRng, i: number): number {
  const j = i + rng.below(shoe.length - i);
  const c = shoe[j] as number;
  shoe[j] = shoe[i] as number;
  shoe[i] = c;
  return c;
}

/**
 * The simulator's rounds played by its two automata (`SimAutomaton`): a round is its first cards'
 * class, one table read per card of the player's and of the dealer's, and a settlement-table
 * read. The rounds they do not play (a split, a possible 6-7-8, a shoe too near its end for the
 * longest round) are played again from their first card by the reference path (`RoundHost.replay`):
 * in cut-card mode the shoe is only read, so that replays the same cards; in every-hand mode the
 * cards already picked are kept and the reference path picks on from there. Same results for a
 * seed, round by round (simulator-fast.test.ts).
 *
 * Each loop adds everything inside it, and nothing follows it: V8 compiles the function while the
 * loop runs (on-stack replacement), and code after the loop, never run by then, would carry no
 * type feedback and make V8 discard the compiled code at every call's end.
 */
export class AutomatonRounds {
  constructor(
    private readonly host: RoundHost,
    private readonly auto: SimAutomaton,
    private readonly r: RoundRules,
    private readonly rng: SimRng,
    /** Rounds by their first two cards, for the first-card bets (`SimSideBets.pairCount`). */
    private readonly counts: Int32Array,
    /** The simulator's sums: main result and its square first. */
    private readonly acc: Float64Array,
  ) {}

  /** `hands` rounds from a freshly shuffled shoe, dealt to the cut card. */
  cutCard(hands: number): void {
    const host = this.host;
    const acc = this.acc;
    const shoe = host.shoe;
    const val = CARD_VALUE;
    const { start, pairClass, player, dealer, dealerStart, contested, settle } = this.auto;
    const counts = this.counts;
    const { holeCard, peek, burnEachRound, burnBeforeDealerSecond: burnBefore, burnStart, cutAt } = this.r;
    const limit = shoe.length - MAX_ROUND_CARDS;
    let pos = burnStart;
    let fresh = true;
    for (let h = 0; h < hands; h++) {
      if (!fresh && burnEachRound) pos++;
      fresh = false;
      const first = pos;
      let net = NaN;
      let pair = 0;
      if (first <= limit) {
        const p1 = shoe[pos] as number;
        const u = val[shoe[pos + 1] as number] as number;
        const p2 = shoe[pos + 2] as number;
        pair = p1 * 52 + p2;
        pos += 3;
        const hole = holeCard ? (shoe[pos++] as number) : -1;
        let s = start[u * 64 + (pairClass[pair] as number)] as number;
        net = -1;
        // A peeked dealer Black Jack ends the round, unless the player has one too.
        if (!(peek && NATURAL[u * 16 + (val[hole] as number)] === 1 && s !== ~P_BLACKJACK)) {
          while (s >= 0) s = player[(s << 4) + (val[shoe[pos++] as number] as number)] as number;
          const pt = ~s;
          if (pt === P_BLACKJACK) {
            // Even money and insurance declined, as `playerBlackjack`.
            net = 1.5;
            if (u === 1 || u === 10) {
              if (hole < 0 && burnBefore) pos++;
              const second = hole >= 0 ? hole : (shoe[pos++] as number);
              if (NATURAL[u * 16 + (val[second] as number)] === 1) net = 0;
            }
          } else if (pt === P_FALLBACK) net = NaN;
          else {
            let dt = D_NONE;
            if (contested[pt] === 1) {
              if (hole < 0 && burnBefore) pos++;
              const second = hole >= 0 ? hole : (shoe[pos++] as number);
              let d = dealer[((dealerStart[u] as number) << 4) + (val[second] as number)] as number;
              while (d >= 0) d = dealer[(d << 4) + (val[shoe[pos++] as number] as number)] as number;
              dt = ~d;
            }
            net = (settle[pt * 32 + dt] as number) * 0.5;
          }
        }
      }
      if (net !== net) {
        // Not the automata's (NaN): the reference path plays the round again from its first card.
        host.pos = first;
        net = host.replay(0);
        pos = host.pos;
      } else counts[pair] = (counts[pair] as number) + 1;
      acc[0] = (acc[0] as number) + net;
      acc[1] = (acc[1] as number) + net * net;
      if (host.trace !== null) host.trace[h] = net;
      host.pos = pos;
      // The cut card came out during this round: it was the last of the shoe (Art. 2 n.2 (1); rule 11).
      if (pos > cutAt) {
        host.shuffle();
        pos = burnStart;
        fresh = true;
      }
    }
  }

  /**
   * `hands` rounds each from a full shoe: every card a lazy pick (`pick`) when the round needs it,
   * in the reference path's order, so that a seed gives the same rounds.
   */
  everyHand(hands: number): void {
    const host = this.host;
    const acc = this.acc;
    const shoe = host.shoe;
    const rng = this.rng;
    const val = CARD_VALUE;
    const { start, pairClass, player, dealer, dealerStart, contested, settle } = this.auto;
    const counts = this.counts;
    const { holeCard, peek, burnBeforeDealerSecond: burnBefore } = this.r;
    const firstCards = holeCard ? 4 : 3;
    for (let h = 0; h < hands; h++) {
      // Few places that pick, so that V8 inlines each (its budget took three, not four): the first
      // cards (the player's, the up card, the player's second, the hole card) in one.
      for (let i = 0; i < firstCards; i++) pick(shoe, rng, i);
      const p1 = shoe[0] as number;
      const u = val[shoe[1] as number] as number;
      const p2 = shoe[2] as number;
      const hole = holeCard ? (shoe[3] as number) : -1;
      let pos = firstCards;
      const pair = p1 * 52 + p2;
      let s = start[u * 64 + (pairClass[pair] as number)] as number;
      let net = -1;
      // A peeked dealer Black Jack ends the round, unless the player has one too.
      if (!(peek && NATURAL[u * 16 + (val[hole] as number)] === 1 && s !== ~P_BLACKJACK)) {
        while (s >= 0) s = player[(s << 4) + (val[pick(shoe, rng, pos++)] as number)] as number;
        const pt = ~s;
        const blackjack = pt === P_BLACKJACK;
        if (pt === P_FALLBACK) net = NaN;
        // The dealer's cards: the second to see a Black Jack beside the player's (even money and
        // insurance declined), or all to play against a standing hand.
        else if (blackjack ? u === 1 || u === 10 : contested[pt] === 1) {
          if (hole < 0 && burnBefore) pick(shoe, rng, pos++);
          let d = dealerStart[u] as number;
          // The second card is the hole card, or the loop's first pick.
          let cards = 1;
          if (hole >= 0) {
            d = dealer[(d << 4) + (val[hole] as number)] as number;
            cards = 2;
          }
          while (d >= 0 && !(blackjack && cards === 2)) {
            d = dealer[(d << 4) + (val[pick(shoe, rng, pos++)] as number)] as number;
            cards++;
          }
          if (blackjack) net = d === ~D_BLACKJACK ? 0 : 1.5;
          else net = (settle[pt * 32 + ~d] as number) * 0.5;
        } else net = blackjack ? 1.5 : (settle[pt * 32 + D_NONE] as number) * 0.5;
      }
      if (net !== net) {
        // The reference path plays the round again: the cards picked so far first, then its own picks.
        host.pos = 0;
        net = host.replay(pos);
        pos = host.pos;
      } else counts[pair] = (counts[pair] as number) + 1;
      acc[0] = (acc[0] as number) + net;
      acc[1] = (acc[1] as number) + net * net;
      if (host.trace !== null) host.trace[h] = net;
      host.pos = pos;
    }
  }
}
