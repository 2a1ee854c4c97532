/**
 * Road maps (路單) of a baccarat shoe, computed from its coup results:
 * bead plate 珠盤路, big road 大路, big eye boy 大眼仔, small road 小路, cockroach pig 曱甴路,
 * and the ask-road preview (問路): what each derived road would show next if the next coup were a
 * banker or a player win.
 *
 * Conventions, as on Macau tables (docs/rules/baccarat.md):
 * - Bead plate: every coup, ties included, top to bottom in columns of `rows` (6).
 * - Big road: a column per streak of banker or player wins; ties are not cells but are counted
 *   on the previous cell (ties before the first win are `leadingTies`, drawn on the first cell).
 *   A streak longer than the column goes on to the right along its row ("dragon tail"): a cell
 *   moves down while the cell below is free and inside the grid, otherwise right, and once it
 *   has turned it keeps going right. A new streak starts in the top row of the column after
 *   the previous streak's first column (further right if that cell is taken).
 * - Derived roads, with k = 1 (big eye boy), 2 (small road), 3 (cockroach pig), read the big
 *   road's streak lengths (not the drawn cells). For a new big-road entry in streak c, row r:
 *   r = 0 → red if streaks c−1 and c−1−k have the same length, else blue;
 *   r ≥ 1 → red if streak c−k reaches row r, blue if it ends exactly at row r−1, red if it ended
 *   earlier. A derived road starts with the first entry for which those streaks exist (streak k
 *   row 1, or streak k+1 row 0). Its marks are drawn like a big road, streaks of one colour.
 */
import type { Side, Winner } from './tableau.js';

/** A coup as the roads need it; a `CoupResult` is one. Totals, when given, go to the bead plate. */
export interface RoadResult {
  readonly winner: Winner;
  readonly playerPair: boolean;
  readonly bankerPair: boolean;
  readonly playerTotal?: number;
  readonly bankerTotal?: number;
}

export interface Placed<T> {
  readonly x: number;
  readonly y: number;
  readonly value: T;
}

/** Lays out streaks on a grid of `rows` rows, with dragon tails (see the header). */
export function layoutStreaks<T>(streaks: readonly (readonly T[])[], rows: number): Placed<T>[][] {
  if (!Number.isInteger(rows) || rows < 1) throw new RangeError(`rows must be a positive integer, got ${rows}`);
  const taken = new Set<string>();
  const out: Placed<T>[][] = [];
  let prevStart = -1;
  // Loops and module functions, not closures made at each call: the host lays out the roads at every
  // coup, and a closure made anew is a new function to V8, optimised again and again (issue 52).
  for (const streak of streaks) {
    let x = prevStart + 1;
    while (taken.has(cellKey(x, 0))) x++;
    prevStart = x;
    let y = 0;
    let turned = false;
    const cells: Placed<T>[] = [];
    for (let i = 0; i < streak.length; i++) {
      if (i > 0) {
        if (!turned && y + 1 < rows && !taken.has(cellKey(x, y + 1))) y++;
        else {
          turned = true;
          x++;
          while (taken.has(cellKey(x, y))) x++;
        }
      }
      taken.add(cellKey(x, y));
      cells.push({ x, y, value: streak[i] as T });
    }
    out.push(cells);
  }
  return out;
}

/** A grid cell's key in the set of cells taken. */
function cellKey(x: number, y: number): string {
  return `${x},${y}`;
}

export interface BeadCell {
  readonly x: number;
  readonly y: number;
  readonly winner: Winner;
  readonly playerPair: boolean;
  readonly bankerPair: boolean;
  /** The winning total (either total on a tie), for bead plates that show points; absent if not given. */
  readonly total?: number;
}

export function beadPlate(results: readonly RoadResult[], rows = 6): BeadCell[] {
  const cells: BeadCell[] = [];
  for (let i = 0; i < results.length; i++) {
    const r = results[i] as RoadResult;
    const cell = { x: Math.floor(i / rows), y: i % rows, winner: r.winner, playerPair: r.playerPair, bankerPair: r.bankerPair };
    const total = r.winner === 'banker' ? r.bankerTotal : r.playerTotal;
    cells.push(total === undefined ? cell : { ...cell, total });
  }
  return cells;
}

export interface BigRoadEntry {
  readonly side: Side;
  /** Ties that followed this win. */
  readonly ties: number;
  readonly playerPair: boolean;
  readonly bankerPair: boolean;
  /** Streak index and row within the streak (the logical position derived roads read). */
  readonly column: number;
  readonly row: number;
}

export interface BigRoad {
  readonly leadingTies: number;
  /** Entries by streak, in order. */
  readonly streaks: readonly (readonly BigRoadEntry[])[];
  /** The drawn cells, with dragon tails. */
  readonly cells: readonly Placed<BigRoadEntry>[];
}

export function bigRoad(results: readonly RoadResult[], rows = 6): BigRoad {
  let leadingTies = 0;
  const streaks: BigRoadEntry[][] = [];
  for (const r of results) {
    const last = streaks[streaks.length - 1];
    if (r.winner === 'tie') {
      const prev = last?.[last.length - 1];
      if (last && prev) last[last.length - 1] = { ...prev, ties: prev.ties + 1 };
      else leadingTies++;
      continue;
    }
    const base = { side: r.winner, ties: 0, playerPair: r.playerPair, bankerPair: r.bankerPair };
    if (last && last[0]?.side === r.winner) last.push({ ...base, column: streaks.length - 1, row: last.length });
    else streaks.push([{ ...base, column: streaks.length, row: 0 }]);
  }
  return { leadingTies, streaks, cells: layoutStreaks(streaks, rows).flat() };
}

export type Colour = 'red' | 'blue';

/** The mark a derived road gives the big-road entry at (column, row), or null if it gives none. */
export function derivedMark(lengths: readonly number[], column: number, row: number, k: number): Colour | null {
  if (row === 0) {
    const a = lengths[column - 1];
    const b = lengths[column - 1 - k];
    if (a === undefined || b === undefined) return null;
    return a === b ? 'red' : 'blue';
  }
  const beside = lengths[column - k];
  if (beside === undefined) return null;
  if (beside >= row + 1) return 'red';
  return beside === row ? 'blue' : 'red';
}

export interface DerivedRoad {
  readonly marks: readonly Colour[];
  readonly cells: readonly Placed<Colour>[];
}

function marksOf(streaks: readonly (readonly unknown[])[], k: number): Colour[] {
  const lengths: number[] = [];
  const marks: Colour[] = [];
  for (let column = 0; column < streaks.length; column++) {
    const length = (streaks[column] as readonly unknown[]).length;
    for (let row = 0; row < length; row++) {
      lengths[column] = row + 1;
      const m = derivedMark(lengths, column, row, k);
      if (m) marks.push(m);
    }
  }
  return marks;
}

function streaksOf<T>(values: readonly T[]): T[][] {
  const out: T[][] = [];
  for (const v of values) {
    const last = out[out.length - 1];
    if (last && last[0] === v) last.push(v);
    else out.push([v]);
  }
  return out;
}

/** k = 1 big eye boy, 2 small road, 3 cockroach pig. */
export function derivedRoad(results: readonly RoadResult[], k: 1 | 2 | 3, rows = 6): DerivedRoad {
  const marks = marksOf(bigRoad(results).streaks, k);
  return { marks, cells: layoutStreaks(streaksOf(marks), rows).flat() };
}

export const bigEyeBoy = (results: readonly RoadResult[], rows = 6): DerivedRoad => derivedRoad(results, 1, rows);
export const smallRoad = (results: readonly RoadResult[], rows = 6): DerivedRoad => derivedRoad(results, 2, rows);
export const cockroachPig = (results: readonly RoadResult[], rows = 6): DerivedRoad => derivedRoad(results, 3, rows);

export interface AskPreview {
  readonly bigEyeBoy: Colour | null;
  readonly smallRoad: Colour | null;
  readonly cockroachPig: Colour | null;
}

/** What each derived road would mark next if the next coup were won by `side` (問路). */
export function askRoad(results: readonly RoadResult[]): Record<Side, AskPreview> {
  const streaks = bigRoad(results).streaks;
  const lengths: number[] = [];
  for (const s of streaks) lengths.push(s.length);
  return askOf(lengths, streaks.at(-1)?.[0]?.side);
}

/** The ask-road preview from the big road's streak lengths and the side of its last streak. */
export function askOf(lengths: readonly number[], lastSide: Side | undefined): Record<Side, AskPreview> {
  return { banker: preview(lengths, lastSide, 'banker'), player: preview(lengths, lastSide, 'player') };
}

/** What each derived road would mark next if the next coup were won by `side`. */
function preview(lengths: readonly number[], lastSide: Side | undefined, side: Side): AskPreview {
  const continues = lastSide === side;
  const l = [...lengths];
  const column = continues ? l.length - 1 : l.length;
  const row = continues ? (l[column] as number) : 0;
  l[column] = row + 1;
  return { bigEyeBoy: derivedMark(l, column, row, 1), smallRoad: derivedMark(l, column, row, 2), cockroachPig: derivedMark(l, column, row, 3) };
}

/** All roads of a shoe at once, for the table display. */
export function roads(results: readonly RoadResult[], rows = 6) {
  return {
    beadPlate: beadPlate(results, rows),
    bigRoad: bigRoad(results, rows),
    bigEyeBoy: bigEyeBoy(results, rows),
    smallRoad: smallRoad(results, rows),
    cockroachPig: cockroachPig(results, rows),
    ask: askRoad(results),
  };
}
