import { dealerDrawsOn, type Soft17 } from '../hand.js';

/**
 * The dealer's final outcome by exact recursion over the remaining shoe. The dealer's future
 * depends only on which cards it has drawn (not their order), so the recursion runs over a tree
 * of drawn multisets built once per up card; for a given shoe it is a single backward pass.
 *
 * Outcomes: 0..4 = 17..21, 5 = bust, 6 = Black Jack (up card and second card only).
 */
export const OUTCOMES = 7;
export const BUST = 5;
export const DEALER_BJ = 6;

export class DealerTree {
  readonly up: number;
  readonly size: number;
  /** Cards drawn after the up card at each state, at `node * 11 + value`. */
  private readonly drawn: Int32Array;
  private readonly nDrawn: Int32Array;
  /** Next state after a card c, at `node * 11 + c`: a state (< size), size + final outcome, or -1 - DEALER_BJ. */
  private readonly next: Int32Array;
  private readonly scratch: Float64Array;

  constructor(up: number, soft17: Soft17) {
    this.up = up;
    const drawnList: number[][] = [];
    const byKey = new Map<string, number>();
    const nextList: number[][] = [];
    const outcomeOf = (hard: number, ace: boolean, cards: number): number => {
      if (cards === 2 && ace && hard === 11) return DEALER_BJ;
      if (dealerDrawsOn(hard, ace, cards, soft17)) return -1;
      const t = ace && hard + 10 <= 21 ? hard + 10 : hard;
      return t > 21 ? BUST : t - 17;
    };
    // Breadth first: a state's index is below every state it leads to.
    const queue: { counts: number[]; hard: number; ace: boolean; n: number }[] = [{ counts: new Array(11).fill(0), hard: up, ace: up === 1, n: 0 }];
    byKey.set(queue[0]!.counts.join(','), 0);
    drawnList.push(queue[0]!.counts);
    for (let i = 0; i < queue.length; i++) {
      const s = queue[i]!;
      const row: number[] = new Array(11).fill(0);
      for (let c = 1; c <= 10; c++) {
        const counts = s.counts.slice();
        counts[c]!++;
        const hard = s.hard + c;
        const ace = s.ace || c === 1;
        const o = outcomeOf(hard, ace, s.n + 2);
        if (o >= 0) {
          row[c] = -1 - o;
          continue;
        }
        const key = counts.join(',');
        let idx = byKey.get(key);
        if (idx === undefined) {
          idx = drawnList.length;
          byKey.set(key, idx);
          drawnList.push(counts);
          queue.push({ counts, hard, ace, n: s.n + 1 });
        }
        row[c] = idx;
      }
      nextList.push(row);
    }
    this.size = drawnList.length;
    this.drawn = new Int32Array(this.size * 11);
    this.nDrawn = new Int32Array(this.size);
    this.next = new Int32Array(this.size * 11);
    drawnList.forEach((counts, i) => {
      let n = 0;
      for (let c = 1; c <= 10; c++) {
        this.drawn[i * 11 + c] = counts[c]!;
        n += counts[c]!;
        this.next[i * 11 + c] = nextList[i]![c]!;
      }
      this.nDrawn[i] = n;
    });
    // Final outcomes are renumbered after the states (size + outcome) so that the pass tells a
    // final total from a state with one comparison; the dealer Black Jack stays -1 - DEALER_BJ.
    this.scratch = new Float64Array(this.size * OUTCOMES);
    for (let i = 0; i < this.size * 11; i++) {
      const to = this.next[i]!;
      if (to < 0 && to !== -1 - DEALER_BJ) this.next[i] = this.size - 1 - to;
    }
  }

  /**
   * Outcome probabilities into `out` (length OUTCOMES) for a shoe holding `shoe[v]` cards of each
   * value (the up card and every other card already seen removed), `total` cards in all.
   */
  distribution(shoe: ArrayLike<number>, total: number, out: Float64Array): void {
    const val = this.scratch;
    const drawn = this.drawn;
    const next = this.next;
    // Below the root only the six final totals/bust can occur (a Black Jack needs exactly the
    // up card and one more), so deeper states carry 6 numbers, not 7.
    for (let i = this.size - 1; i >= 1; i--) {
      const base = i * OUTCOMES;
      let v0 = 0;
      let v1 = 0;
      let v2 = 0;
      let v3 = 0;
      let v4 = 0;
      let v5 = 0;
      const left = total - this.nDrawn[i]!;
      if (left > 0) {
        const inv = 1 / left;
        const row = i * 11;
        for (let c = 1; c <= 10; c++) {
          const avail = shoe[c]! - drawn[row + c]!;
          if (avail <= 0) continue;
          const p = avail * inv;
          const to = next[row + c]!;
          if (to >= this.size) {
            // A final total: add to its outcome directly.
            switch (to - this.size) {
              case 0:
                v0 += p;
                break;
              case 1:
                v1 += p;
                break;
              case 2:
                v2 += p;
                break;
              case 3:
                v3 += p;
                break;
              case 4:
                v4 += p;
                break;
              default:
                v5 += p;
            }
            continue;
          }
          const cb = to * OUTCOMES;
          v0 += p * val[cb]!;
          v1 += p * val[cb + 1]!;
          v2 += p * val[cb + 2]!;
          v3 += p * val[cb + 3]!;
          v4 += p * val[cb + 4]!;
          v5 += p * val[cb + 5]!;
        }
      }
      val[base] = v0;
      val[base + 1] = v1;
      val[base + 2] = v2;
      val[base + 3] = v3;
      val[base + 4] = v4;
      val[base + 5] = v5;
    }
    for (let k = 0; k < OUTCOMES; k++) out[k] = 0;
    const inv = 1 / total;
    for (let c = 1; c <= 10; c++) {
      const avail = shoe[c]!;
      if (avail <= 0) continue;
      const p = avail * inv;
      const to = next[c]!;
      if (to < 0) out[DEALER_BJ] = out[DEALER_BJ]! + p;
      else if (to >= this.size) out[to - this.size] = out[to - this.size]! + p;
      else for (let k = 0; k <= BUST; k++) out[k] = out[k]! + p * val[to * OUTCOMES + k]!;
    }
  }
}
