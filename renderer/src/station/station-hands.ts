import { HandSprite } from '../cards/hand-view.js';
import { HAND_ZONE } from '../felt/felt-layout.js';
import { HAND_GAP, handPlaces, type HandPlace } from '../felt/hand-room.js';

/** Cards on the station are drawn larger than on the table: the player sits a forearm away. */
export const HAND_SCALE = 1.2;

/** Room over a hand on the station for its name (26 units at HAND_SCALE), in the hand's own units. */
export const HAND_LABEL = 44 / HAND_SCALE;

/**
 * Where the station's hands go (the dealer's or the sides', then its own seat's, each with its name
 * over it), by their cards, in the play column's hands part (`width` by `height`): in one row of slots up to 340 wide while each hand fits its slot at
 * HAND_SCALE, as ever; else in a grid as large as the play column's hands part allows (felt/hand-room.ts).
 * Before, the slots only narrowed: a seat of twelve split hands drew them on each other, their names
 * too. `y` is the top of the name; the hand goes HAND_LABEL (scaled) under it.
 */
export function stationHandPlaces(cards: readonly number[], width: number, height: number): HandPlace[] {
  const n = cards.length;
  const cell = HandSprite.width(Math.max(3, ...cards)) + HAND_GAP;
  const slot = Math.min(340, width / Math.max(1, n));
  if (slot >= cell * HAND_SCALE) return cards.map((_, i) => ({ x: slot * i + slot / 2, y: 0, scale: HAND_SCALE }));
  const room = { x: 0, y: 0, width: width / HAND_SCALE, height: height / HAND_SCALE };
  return handPlaces(room, { x: 0, y: 0 }, n, cell, HAND_ZONE.height + HAND_LABEL + HAND_GAP).map((p) => ({
    x: p.x * HAND_SCALE,
    y: p.y * HAND_SCALE,
    scale: p.scale * HAND_SCALE,
  }));
}
