import type { RoadResult } from '../engine/baccarat/roads.js';
import { GrowingRoads } from '../engine/baccarat/roads-grow.js';
import { roadsView } from '../engine/baccarat/roads-view.js';
import { MAX_ROAD_COUPS, type RoadsView, type ShoeCoups } from './screen-extras.js';

/**
 * A baccarat shoe's roads travel to the station screens as the shoe's coups, one short mark each
 * (protocol 6), and each screen lays the roads out itself with the engine's own road functions,
 * the ones the table display's roads are made with: every road (the bead plate, the big road, the
 * three derived roads, the ask preview, the counts) follows from the coups alone. So a coup costs
 * each station one mark spliced onto the list, not the cells of five roads and the ask.
 *
 * A mark is the winner (`B`anker, `P`layer, `T`ie), the winning total (a tie's: the player's, which
 * is the banker's), then `p` for a player pair and `b` for a banker pair: `B7`, `T5pb`, `P9b`.
 */

/** What the roads read of a coup: the winner, the pairs, and both totals (only the winner's is drawn). */
export interface CoupOutcome {
  readonly winner: 'banker' | 'player' | 'tie';
  readonly playerPair: boolean;
  readonly bankerPair: boolean;
  readonly playerTotal: number;
  readonly bankerTotal: number;
}

const WINNER = { banker: 'B', player: 'P', tie: 'T' } as const;

/** A coup's mark. */
export function coupMark(c: CoupOutcome): string {
  const total = c.winner === 'banker' ? c.bankerTotal : c.playerTotal;
  return `${WINNER[c.winner]}${total}${c.playerPair ? 'p' : ''}${c.bankerPair ? 'b' : ''}`;
}

/** The shoe's coups as a station screen is sent them: its id and the first MAX_ROAD_COUPS marks (the roads hold no more). */
export function shoeCoups(id: string, coups: readonly CoupOutcome[]): ShoeCoups {
  return { id, coups: coups.slice(0, MAX_ROAD_COUPS).map(coupMark) };
}

/** A mark back to what the roads read (the schema checked its form: `CoupMark`). */
function outcomeOf(mark: string): RoadResult {
  const w = mark[0];
  const total = Number(mark[1]);
  const pairs = { playerPair: mark.includes('p'), bankerPair: mark.includes('b') };
  if (w === 'B') return { winner: 'banker', bankerTotal: total, ...pairs };
  if (w === 'P') return { winner: 'player', playerTotal: total, ...pairs };
  return { winner: 'tie', playerTotal: total, bankerTotal: total, ...pairs };
}

/** The roads a station screen draws, laid out from the shoe's coups as the table display's are. */
export function roadsOfCoups(shoe: ShoeCoups): RoadsView {
  return roadsView(shoe.id, shoe.coups.map(outcomeOf));
}

/**
 * A screen's roads, laid out from the shoe's coups as they come: a list that extends the one laid
 * out before (the same shoe, the same coups first: every panel patch, which the composer takes only
 * so) grows the roads by its new coups (engine/baccarat/roads-grow.ts); any other list (a new shoe,
 * a panel sent whole that does not extend it) lays them out again. Either way the roads are
 * `roadsOfCoups` of the list (`shoe-coups.test.ts`).
 */
export class ShoeRoads {
  private grown: { id: string; marks: string[]; roads: GrowingRoads } | null = null;

  of(shoe: ShoeCoups): RoadsView {
    let g = this.grown;
    if (!g || g.id !== shoe.id || !beginsWith(shoe.coups, g.marks)) g = this.grown = { id: shoe.id, marks: [], roads: new GrowingRoads(shoe.id) };
    for (let i = g.marks.length; i < shoe.coups.length; i++) {
      const mark = shoe.coups[i] as string;
      g.marks.push(mark);
      g.roads.add(outcomeOf(mark));
    }
    return g.roads.view();
  }
}

/** Whether `list` starts with `head`. */
function beginsWith(list: readonly string[], head: readonly string[]): boolean {
  if (list.length < head.length) return false;
  for (let i = 0; i < head.length; i++) if (list[i] !== head[i]) return false;
  return true;
}

/**
 * Whether `after` can follow `before` within one shoe: the same shoe's coups never change once
 * dealt, so its list only grows at its end. A new shoe (another id) starts again. A patch that
 * rewrote or dropped a coup held did not come from the table (or skipped a version): the screen
 * asks for the part whole.
 */
export function coupsFollow(before: ShoeCoups | undefined, after: ShoeCoups | undefined): boolean {
  if (!before || !after || before.id !== after.id) return true;
  return beginsWith(after.coups, before.coups);
}
