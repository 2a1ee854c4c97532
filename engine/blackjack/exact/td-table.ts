import { bestTotal } from './compositions.js';
import { BUST, DEALER_BJ } from './dealer.js';
import type { UpCard } from './up-card.js';

/**
 * Total-dependent hit/stand decisions (and the Art. 19 five-card choice) for the plays after a
 * hand's first decision, computed from the full-shoe composition: every card is drawn with its
 * probability in the shoe less the up card, whatever the hand holds. The number of cards is part
 * of the key only because the five-card payment makes it matter (capped at six: no offer after).
 */
export class TotalDependentTable {
  private readonly hit = new Map<number, boolean>();
  private readonly five = new Map<number, boolean>();

  constructor(ups: readonly UpCard[]) {
    for (const t of ups) this.build(t);
  }

  hits(up: number, hard: number, ace: boolean, cards: number): boolean {
    return this.hit.get(key(up, hard, ace, Math.min(cards, 6))) ?? hard + (ace ? 10 : 0) < 12;
  }

  takesFive(up: number, hard: number, ace: boolean): boolean {
    return this.five.get(key(up, hard, ace, 5)) ?? false;
  }

  private build(t: UpCard): void {
    const rules = t.rules;
    const at = t.cache.offset(0);
    const d = t.cache.values().slice(at, at + 7);
    const pbj = t.bjCard > 0 ? t.shoe[t.bjCard]! / t.total : 0;
    const weight = t.peek ? 1 - pbj : 1;
    const p = Array.from({ length: 11 }, (_, c) => (c === 0 ? 0 : t.shoe[c]! / t.total));
    const stand = (total: number): number => {
      let ev = d[BUST]!;
      for (let k = 0; k < 5; k++) ev += (total > 17 + k ? 1 : total < 17 + k ? -1 : 0) * d[k]!;
      return t.bjAfterPlay ? ev + d[DEALER_BJ]! * t.standingLossToBlackjack(1) : ev;
    };
    const memo = new Map<number, number>();
    const value = (hard: number, ace: boolean, cards: number): number => {
      if (hard > 21) return -weight;
      const n = Math.min(cards, 6);
      const k = key(t.up, hard, ace, n);
      const hit = memo.get(k);
      if (hit !== undefined) return hit;
      const total = bestTotal(hard, ace);
      let best: number;
      if (total === 21) best = stand(21);
      else {
        let h = 0;
        for (let c = 1; c <= 10; c++) h += p[c]! * value(hard + c, ace || c === 1, n + 1);
        const s = total >= rules.minStandTotal ? stand(total) : -Infinity;
        this.hit.set(k, h > s);
        best = Math.max(h, s);
      }
      if (t.fiveCard && n === 5) {
        const take = 0.5 * weight;
        this.five.set(k, take > best);
        best = Math.max(best, take);
      }
      memo.set(k, best);
      return best;
    };
    for (let hard = 3; hard <= 21; hard++) {
      for (const ace of [false, true]) {
        if (ace && hard > 11 + 10) continue;
        for (let n = 3; n <= 6; n++) value(hard, ace, n);
      }
    }
  }
}

function key(up: number, hard: number, ace: boolean, cards: number): number {
  return ((up * 32 + hard) * 2 + (ace ? 1 : 0)) * 8 + cards;
}
