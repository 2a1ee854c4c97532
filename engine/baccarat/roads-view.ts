import { roads as computeRoads, type RoadResult } from './roads.js';

/** A shoe holds at most about 85 coups (8 decks); the display keeps room for any profile. */
export const MAX_ROAD_COUPS = 160;

/** The roads of a shoe as the table display draws them: cells, the ask preview, the counts. */
export function roadsView(shoe: string, all: readonly RoadResult[]) {
  const coups = all.slice(0, MAX_ROAD_COUPS);
  const r = computeRoads(coups);
  const count = (f: (c: RoadResult) => boolean) => coups.filter(f).length;
  return {
    shoe,
    beadPlate: r.beadPlate.map((c) => ({
      x: c.x,
      y: c.y,
      winner: c.winner,
      playerPair: c.playerPair,
      bankerPair: c.bankerPair,
      ...(c.total !== undefined ? { total: c.total } : {}),
    })),
    bigRoad: r.bigRoad.cells.map((c) => ({
      x: c.x,
      y: c.y,
      side: c.value.side,
      ties: c.value.ties,
      playerPair: c.value.playerPair,
      bankerPair: c.value.bankerPair,
    })),
    leadingTies: r.bigRoad.leadingTies,
    bigEyeBoy: r.bigEyeBoy.cells.map((c) => ({ x: c.x, y: c.y, colour: c.value })),
    smallRoad: r.smallRoad.cells.map((c) => ({ x: c.x, y: c.y, colour: c.value })),
    cockroachPig: r.cockroachPig.cells.map((c) => ({ x: c.x, y: c.y, colour: c.value })),
    ask: r.ask,
    stats: {
      coups: coups.length,
      banker: count((c) => c.winner === 'banker'),
      player: count((c) => c.winner === 'player'),
      tie: count((c) => c.winner === 'tie'),
      bankerPair: count((c) => c.bankerPair),
      playerPair: count((c) => c.playerPair),
    },
  };
}
export type RoadsData = ReturnType<typeof roadsView>;
