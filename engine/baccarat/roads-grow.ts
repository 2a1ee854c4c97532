import { askOf, derivedMark, type Colour, type RoadResult } from './roads.js';
import { MAX_ROAD_COUPS, type RoadsData } from './roads-view.js';
import type { Side } from './tableau.js';

/**
 * A shoe's roads grown one coup at a time: each coup adds its bead, its big-road cell (a tie its
 * count on the last), and at most one mark to each derived road, laid out where `layoutStreaks`
 * lays it, as the coups before left the grid. `view()` is `roadsView` of every coup added (the
 * first `MAX_ROAD_COUPS`), the same object for object (`roads-grow.test.ts`). A station screen
 * lays out its roads at every coup (protocol 6): from scratch that was a shoe's every road again,
 * about 300 KiB of heap at a coup of a 60-coup shoe for each station (issue 55); grown, only the
 * coup's own cells, and the lists of cells copied.
 */

const ROWS = 6;

type Cell<T> = { readonly x: number; readonly y: number } & T;

/** Streaks laid out cell by cell on a grid of `rows` rows, with dragon tails (roads.ts `layoutStreaks`, the same steps). */
export class StreakLayout {
  private readonly taken = new Set<number>();
  private prevStart = -1;
  private x = 0;
  private y = 0;
  private turned = false;

  constructor(private readonly rows = ROWS) {}

  private has(x: number, y: number): boolean {
    return this.taken.has(x * this.rows + y);
  }

  /** Where the next cell goes: the first of a new streak, or the next of the current one. */
  place(newStreak: boolean): { x: number; y: number } {
    if (newStreak) {
      let x = this.prevStart + 1;
      while (this.has(x, 0)) x++;
      this.prevStart = x;
      this.x = x;
      this.y = 0;
      this.turned = false;
    } else if (!this.turned && this.y + 1 < this.rows && !this.has(this.x, this.y + 1)) this.y++;
    else {
      this.turned = true;
      this.x++;
      while (this.has(this.x, this.y)) this.x++;
    }
    this.taken.add(this.x * this.rows + this.y);
    return { x: this.x, y: this.y };
  }
}

/** A derived road (k = 1 big eye boy, 2 small road, 3 cockroach pig): its marks laid out as streaks of one colour. */
class DerivedGrowth {
  readonly cells: Cell<{ colour: Colour }>[] = [];
  private readonly layout = new StreakLayout();
  private last: Colour | null = null;

  constructor(private readonly k: 1 | 2 | 3) {}

  /** The big road's new entry at (column, row), the lengths of its streaks so far. */
  entry(lengths: readonly number[], column: number, row: number): void {
    const mark = derivedMark(lengths, column, row, this.k);
    if (mark === null) return;
    const at = this.layout.place(mark !== this.last);
    this.last = mark;
    this.cells.push({ x: at.x, y: at.y, colour: mark });
  }
}

type BigCell = Cell<{ side: Side; ties: number; playerPair: boolean; bankerPair: boolean }>;

export class GrowingRoads {
  private readonly beads: RoadsData['beadPlate'] = [];
  private readonly big: BigCell[] = [];
  private readonly bigLayout = new StreakLayout();
  /** The big road's streak lengths (what the derived roads and the ask read), and the side of the last. */
  private readonly lengths: number[] = [];
  private lastSide: Side | undefined;
  private leadingTies = 0;
  private readonly derived = [new DerivedGrowth(1), new DerivedGrowth(2), new DerivedGrowth(3)] as const;
  private readonly stats = { coups: 0, banker: 0, player: 0, tie: 0, bankerPair: 0, playerPair: 0 };

  constructor(readonly shoe: string) {}

  /** How many coups the roads hold (at most `MAX_ROAD_COUPS`: the ones after are not drawn). */
  get coups(): number {
    return this.stats.coups;
  }

  add(r: RoadResult): void {
    const i = this.stats.coups;
    if (i >= MAX_ROAD_COUPS) return;
    this.count(r);
    const total = r.winner === 'banker' ? r.bankerTotal : r.playerTotal;
    const bead = { x: Math.floor(i / ROWS), y: i % ROWS, winner: r.winner, playerPair: r.playerPair, bankerPair: r.bankerPair };
    this.beads.push(total === undefined ? bead : { ...bead, total });
    if (r.winner === 'tie') {
      // A tie is counted on the last win's cell (a new cell object: a view handed out before keeps its own).
      const last = this.big.length - 1;
      const prev = this.big[last];
      if (prev) this.big[last] = { ...prev, ties: prev.ties + 1 };
      else this.leadingTies++;
      return;
    }
    const continues = this.lastSide === r.winner;
    const column = continues ? this.lengths.length - 1 : this.lengths.length;
    const row = continues ? (this.lengths[column] ?? 0) : 0;
    this.lengths[column] = row + 1;
    this.lastSide = r.winner;
    const at = this.bigLayout.place(!continues);
    this.big.push({ x: at.x, y: at.y, side: r.winner, ties: 0, playerPair: r.playerPair, bankerPair: r.bankerPair });
    for (const d of this.derived) d.entry(this.lengths, column, row);
  }

  private count(r: RoadResult): void {
    const s = this.stats;
    s.coups++;
    s[r.winner]++;
    if (r.bankerPair) s.bankerPair++;
    if (r.playerPair) s.playerPair++;
  }

  /** The roads of the coups added, as `roadsView` lays them out (its lists copied: later coups leave it as it is). */
  view(): RoadsData {
    const [bigEyeBoy, smallRoad, cockroachPig] = this.derived;
    return {
      shoe: this.shoe,
      beadPlate: this.beads.slice(),
      bigRoad: this.big.slice(),
      leadingTies: this.leadingTies,
      bigEyeBoy: bigEyeBoy.cells.slice(),
      smallRoad: smallRoad.cells.slice(),
      cockroachPig: cockroachPig.cells.slice(),
      ask: askOf(this.lengths, this.lastSide),
      stats: { ...this.stats },
    };
  }
}
