/**
 * Every player hand composition (a multiset of card values, ace = 1 … ten-value = 10) whose
 * hard total is 21 or less, numbered once so the recursions can memoise by a small integer
 * instead of hashing card lists. Order of drawing never matters to a hand's future: only which
 * cards it holds (and so which are gone from the shoe).
 */

/** Numeric key of a multiset: 5 bits per card value, so a key fits exactly in a double (< 2^50). */
export const KEY_WEIGHT: readonly number[] = Array.from({ length: 11 }, (_, v) => (v === 0 ? 0 : 32 ** (v - 1)));

export class Compositions {
  /** Hard total (aces as 1), whether an ace is held, and the number of cards, by id. */
  readonly hard: Int32Array;
  readonly ace: Uint8Array;
  readonly cards: Int32Array;
  /** Count of each value 1..10 held, at `id * 11 + value`. */
  readonly count: Int32Array;
  /** Multiset key (see KEY_WEIGHT) by id. */
  readonly key: Float64Array;
  /** Id of the hand after one more card of value c, at `id * 11 + c`; -1 when it busts. */
  readonly child: Int32Array;
  readonly size: number;
  private readonly byKey = new Map<number, number>();

  constructor() {
    const lists: number[][] = [];
    // Non-decreasing value order visits each multiset once.
    const walk = (min: number, held: number[], sum: number): void => {
      lists.push(held.slice());
      for (let c = min; c <= 10; c++) if (sum + c <= 21) walk(c, [...held, c], sum + c);
    };
    walk(1, [], 0);
    const n = lists.length;
    this.size = n;
    this.hard = new Int32Array(n);
    this.ace = new Uint8Array(n);
    this.cards = new Int32Array(n);
    this.count = new Int32Array(n * 11);
    this.key = new Float64Array(n);
    this.child = new Int32Array(n * 11).fill(-1);
    lists.forEach((held, id) => {
      let key = 0;
      for (const c of held) {
        this.hard[id] = this.hard[id]! + c;
        this.count[id * 11 + c] = this.count[id * 11 + c]! + 1;
        key += KEY_WEIGHT[c]!;
        if (c === 1) this.ace[id] = 1;
      }
      this.cards[id] = held.length;
      this.key[id] = key;
      this.byKey.set(key, id);
    });
    for (let id = 0; id < n; id++) {
      for (let c = 1; c <= 10; c++) {
        if (this.hard[id]! + c > 21) continue;
        this.child[id * 11 + c] = this.byKey.get(this.key[id]! + KEY_WEIGHT[c]!) as number;
      }
    }
  }

  /** Id of the multiset holding the given values (each 1..10). */
  of(...values: number[]): number {
    let id = 0;
    for (const v of values) {
      id = this.child[id * 11 + v] as number;
      if (id < 0) throw new RangeError(`cards ${values.join(',')} total more than 21`);
    }
    return id;
  }

  /** Best total: an ace counts 11 when that does not bust. */
  total(id: number): number {
    const h = this.hard[id]!;
    return this.ace[id] === 1 && h + 10 <= 21 ? h + 10 : h;
  }
}

/** Player's best total from a hard sum and whether an ace may count 11. */
export function bestTotal(hard: number, ace: boolean): number {
  return ace && hard + 10 <= 21 ? hard + 10 : hard;
}
