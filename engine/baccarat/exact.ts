/**
 * Exact combinatorial enumeration of a baccarat coup dealt from a shoe of known composition
 * (a full shoe, or what is left of one). Cards are grouped by point value (tens and faces are
 * one class of 0) for the main bets and by rank for the pairs. Every terminal of the tableau is
 * weighted by the number of ordered 6-card sequences that lead to it, so the weights are exact
 * integers (exactly representable up to 8 full decks: the total is 52D·…·(52D−5) < 2^53).
 * Probabilities are not money: floats are right here.
 */
import { RANKS } from '../cards/card.js';
import { bankerDraws, playerDraws } from './tableau.js';
import type { BaccaratProfile } from './profiles.js';

/** Cards of each rank A…K still in the shoe (13 counts). */
export type RankCounts = readonly number[];

export function fullShoeCounts(decks: number): number[] {
  return RANKS.map(() => 4 * decks);
}

export interface BaccaratCounts {
  /** Weights (ordered 6-card sequences) of each outcome. */
  readonly bankerWinsOnSix: number;
  /** Of those, the banker's 6 on its first two cards, and with a third (Lucky 6's two prizes). */
  readonly bankerWinsOnSixTwoCards: number;
  readonly bankerWinsOnSixThreeCards: number;
  readonly bankerWinsOther: number;
  readonly playerWins: number;
  readonly ties: number;
  readonly total: number;
}

function valueCounts(ranks: RankCounts): number[] {
  if (ranks.length !== 13 || ranks.some((n) => !Number.isInteger(n) || n < 0)) throw new RangeError('expected 13 non-negative rank counts');
  const v = new Array<number>(10).fill(0);
  ranks.forEach((n, i) => {
    const value = i >= 9 ? 0 : i + 1;
    v[value] = (v[value] ?? 0) + n;
  });
  return v;
}

export function enumerateCoups(ranks: RankCounts): BaccaratCounts {
  const c = valueCounts(ranks);
  const n = c.reduce((a, b) => a + b, 0);
  if (n < 6) throw new RangeError(`a coup may need 6 cards; the shoe has ${n}`);
  const acc = { six2: 0, six3: 0, other: 0, player: 0, tie: 0 };
  /** `three`: the banker drew a third card. */
  const record = (pt: number, bt: number, w: number, three = false): void => {
    if (pt > bt) acc.player += w;
    else if (bt > pt) {
      if (bt !== 6) acc.other += w;
      else if (three) acc.six3 += w;
      else acc.six2 += w;
    } else acc.tie += w;
  };
  // Each draw multiplies the weight by the count left of that value, then takes the card out.
  const at = (v: number): number => c[v] as number;
  for (let p1 = 0; p1 < 10; p1++) {
    const w1 = at(p1);
    if (w1 === 0) continue;
    c[p1] = w1 - 1;
    for (let b1 = 0; b1 < 10; b1++) {
      const x1 = at(b1);
      if (x1 === 0) continue;
      const w2 = w1 * x1;
      c[b1] = x1 - 1;
      for (let p2 = 0; p2 < 10; p2++) {
        const x2 = at(p2);
        if (x2 === 0) continue;
        const w3 = w2 * x2;
        c[p2] = x2 - 1;
        for (let b2 = 0; b2 < 10; b2++) {
          const x3 = at(b2);
          if (x3 === 0) continue;
          const w4 = w3 * x3;
          c[b2] = x3 - 1;
          const pt = (p1 + p2) % 10;
          const bt = (b1 + b2) % 10;
          fromFourCards(c, n, pt, bt, w4, record);
          c[b2] = x3;
        }
        c[p2] = x2;
      }
      c[b1] = x1;
    }
    c[p1] = w1;
  }
  return {
    bankerWinsOnSix: acc.six2 + acc.six3,
    bankerWinsOnSixTwoCards: acc.six2,
    bankerWinsOnSixThreeCards: acc.six3,
    bankerWinsOther: acc.other,
    playerWins: acc.player,
    ties: acc.tie,
    total: n * (n - 1) * (n - 2) * (n - 3) * (n - 4) * (n - 5),
  };
}

/**
 * The coup from its first four cards on (totals `pt` and `bt`, weight `w4`, their cards out of
 * `c`): a natural, or the third-card rules, each outcome recorded with its weight.
 */
function fromFourCards(c: number[], n: number, pt: number, bt: number, w4: number, record: (pt: number, bt: number, w: number, three?: boolean) => void): void {
  const at = (v: number): number => c[v] ?? 0;
  if (pt >= 8 || bt >= 8) {
    record(pt, bt, w4 * (n - 4) * (n - 5));
  } else if (playerDraws(pt)) {
    for (let p3 = 0; p3 < 10; p3++) {
      const x4 = at(p3);
      if (x4 === 0) continue;
      const w5 = w4 * x4;
      const pt3 = (pt + p3) % 10;
      if (bankerDraws(bt, p3)) {
        c[p3] = x4 - 1;
        for (let b3 = 0; b3 < 10; b3++) {
          const x5 = at(b3);
          if (x5 !== 0) record(pt3, (bt + b3) % 10, w5 * x5, true);
        }
        c[p3] = x4;
      } else {
        record(pt3, bt, w5 * (n - 5));
      }
    }
  } else if (bankerDraws(bt, null)) {
    for (let b3 = 0; b3 < 10; b3++) {
      const x4 = at(b3);
      if (x4 !== 0) record(pt, (bt + b3) % 10, w4 * x4 * (n - 5), true);
    }
  } else {
    record(pt, bt, w4 * (n - 4) * (n - 5));
  }
}

/** Probability that two given cards of the coup (a side's first two) have the same rank. */
export function pairProbability(ranks: RankCounts): number {
  const n = ranks.reduce((a, b) => a + b, 0);
  let same = 0;
  for (const k of ranks) same += k * (k - 1);
  return same / (n * (n - 1));
}

export interface BaccaratExact {
  readonly probabilities: { readonly banker: number; readonly player: number; readonly tie: number };
  /**
   * House edge in percent of the bet (positive = house advantage), and the variance of the bet's
   * result per unit staked (E[X²] − E[X]² over the same outcome probabilities; a push is 0).
   */
  readonly bets: Record<'banker' | 'player' | 'tie' | 'playerPair' | 'bankerPair' | 'lucky6', { readonly houseEdge: number; readonly variance: number }>;
}

/**
 * Edges use the exact ratios of the profile (5% commission, 50% on six, 8:1 …), i.e. the
 * limit of large stakes; the minor-unit rounding of `settle.ts` only ever helps the player.
 */
export function exactBaccarat(profile: BaccaratProfile, ranks: RankCounts = fullShoeCounts(profile.decks)): BaccaratExact {
  const k = enumerateCoups(ranks);
  const pSix = k.bankerWinsOnSix / k.total;
  const pBanker = (k.bankerWinsOnSix + k.bankerWinsOther) / k.total;
  const pPlayer = k.playerWins / k.total;
  const pTie = k.ties / k.total;
  const b = profile.banker;
  const bankerWin = b.kind === 'commission' ? 1 - b.commissionBasisPoints / 10000 : 1;
  const onSix = b.kind === 'commission' ? bankerWin : b.winOnSixBasisPoints / 10000;
  const bankerEv = (pBanker - pSix) * bankerWin + pSix * onSix - pPlayer;
  const bankerSquare = (pBanker - pSix) * bankerWin ** 2 + pSix * onSix ** 2 + pPlayer;
  const pay = profile.payouts;
  const ratio = (p: { win: number; per: number }): number => p.win / p.per;
  const playerEv = pPlayer * ratio(pay.player) - pBanker;
  const tieEv = pTie * ratio(pay.tie) - (1 - pTie);
  const pPair = pairProbability(ranks);
  const pSix2 = k.bankerWinsOnSixTwoCards / k.total;
  const pSix3 = k.bankerWinsOnSixThreeCards / k.total;
  const lucky6Ev = pSix2 * ratio(pay.lucky6Two) + pSix3 * ratio(pay.lucky6Three) - (1 - pSix2 - pSix3);
  // Each bet's result X per unit: its expectation and E[X²], from the same probabilities.
  const edge = (ev: number, square: number): { houseEdge: number; variance: number } => ({ houseEdge: -100 * ev, variance: square - ev * ev });
  const pairSquare = (r: number): number => pPair * r * r + (1 - pPair);
  return {
    probabilities: { banker: pBanker, player: pPlayer, tie: pTie },
    bets: {
      banker: edge(bankerEv, bankerSquare),
      player: edge(playerEv, pPlayer * ratio(pay.player) ** 2 + pBanker),
      tie: edge(tieEv, pTie * ratio(pay.tie) ** 2 + (1 - pTie)),
      playerPair: edge(pPair * ratio(pay.playerPair) - (1 - pPair), pairSquare(ratio(pay.playerPair))),
      bankerPair: edge(pPair * ratio(pay.bankerPair) - (1 - pPair), pairSquare(ratio(pay.bankerPair))),
      // Whether or not a table offers it: the figures are the text's (Art. 17 n.5).
      lucky6: edge(lucky6Ev, pSix2 * ratio(pay.lucky6Two) ** 2 + pSix3 * ratio(pay.lucky6Three) ** 2 + (1 - pSix2 - pSix3)),
    },
  };
}
