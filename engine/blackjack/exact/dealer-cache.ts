import { KEY_WEIGHT } from './compositions.js';
import { OUTCOMES, type DealerTree } from './dealer.js';

/**
 * Dealer outcome probabilities for one up card, cached by the multiset of cards removed from the
 * shoe besides the up card (the player's cards, and for split hands the other split cards). The
 * same removed multiset recurs across hands, split levels and strategies, and the dealer pass is
 * the expensive part of the whole calculation, so it is done once per multiset.
 */
export class DealerCache {
  private readonly slots = new Map<number, number>();
  private data = new Float64Array(OUTCOMES * 4096);
  private used = 0;
  private readonly shoe = new Float64Array(11);
  private readonly out = new Float64Array(OUTCOMES);
  /** Dealer passes actually run (for the performance report). */
  computed = 0;

  /** `base[v]`: cards of value v in the shoe once the up card is out; `baseTotal` their number. */
  constructor(
    private readonly tree: DealerTree,
    private readonly base: Int32Array,
    private readonly baseTotal: number,
  ) {}

  /** Offset into `values()` of the 7 outcome probabilities after removing the multiset `key`. */
  offset(key: number): number {
    const hit = this.slots.get(key);
    if (hit !== undefined) return hit;
    let rest = key;
    let total = this.baseTotal;
    for (let v = 10; v >= 1; v--) {
      const w = KEY_WEIGHT[v]!;
      const k = Math.floor(rest / w);
      rest -= k * w;
      this.shoe[v] = this.base[v]! - k;
      total -= k;
    }
    this.tree.distribution(this.shoe, total, this.out);
    this.computed++;
    if (this.used + OUTCOMES > this.data.length) {
      const bigger = new Float64Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    const at = this.used;
    this.data.set(this.out, at);
    this.used += OUTCOMES;
    this.slots.set(key, at);
    return at;
  }

  /** The backing array; read right after `offset` (it may be replaced when it grows). */
  values(): Float64Array {
    return this.data;
  }
}
