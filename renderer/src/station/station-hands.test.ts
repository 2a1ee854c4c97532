import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HandSprite } from '../cards/hand-view.js';
import { HAND_ZONE, overlaps, type Rect } from '../felt/felt-layout.js';
import { HAND_LABEL, HAND_SCALE, stationHandPlaces } from './station-hands.js';
import { PLAY } from './station-play.js';

const HEIGHT = PLAY.result - PLAY.hands - 8;
const area: Rect = { x: 0, y: 0, width: PLAY.width, height: HEIGHT };
const inside = (r: Rect, o: Rect) => r.x >= o.x - 1e-6 && r.y >= o.y - 1e-6 && r.x + r.width <= o.x + o.width + 1e-6 && r.y + r.height <= o.y + o.height + 1e-6;

// A station's own seat split to twelve hands (Portugal: no limit on splitting) drew them in slots
// of 1140/13 units, each hand 212 wide at HAND_SCALE: the hands and their names lay on each other.
describe("the station's hands of a seat split to many hands", () => {
  it('stay in the play column, name over hand, none over another, from the dealer and one hand to the dealer and 99', () => {
    for (let n = 2; n <= 100; n++)
      for (const cards of [2, 3, 5]) {
        const counts = Array.from({ length: n }, () => cards);
        const places = stationHandPlaces(counts, PLAY.width, HEIGHT);
        const rects = places.map((p) => {
          const w = Math.max(HandSprite.width(cards), 120) * (p.scale / 1);
          return { x: p.x - w / 2, y: p.y, width: w, height: (HAND_LABEL + HAND_ZONE.height) * p.scale };
        });
        for (const [i, r] of rects.entries()) {
          assert.ok(inside(r, area), `${n} hands of ${cards}: hand ${i} leaves the column: ${JSON.stringify(r)}`);
          for (let j = i + 1; j < rects.length; j++) assert.ok(!overlaps(r, rects[j]!), `${n} hands of ${cards}: ${i} over ${j}`);
        }
      }
  });

  it('keep the one row of slots at HAND_SCALE where it fits, as before', () => {
    assert.deepEqual(stationHandPlaces([2, 2], PLAY.width, HEIGHT), [
      { x: 170, y: 0, scale: HAND_SCALE },
      { x: 510, y: 0, scale: HAND_SCALE },
    ]);
  });
});
