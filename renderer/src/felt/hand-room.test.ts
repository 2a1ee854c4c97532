import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HandSprite } from '../cards/hand-view.js';
import {
  circleHitsRect,
  feltLayout,
  handRect,
  HAND_ZONE,
  holderLabelRect,
  labelRect,
  languagesRect,
  overlaps,
  printedCentre,
  resultRect,
  type Rect,
} from './felt-layout.js';
import { HAND_GAP, handPlaces, handRooms } from './hand-room.js';
import { FELT_TEST_PROFILES } from './test-profiles.js';

const screen: Rect = { x: 0, y: 0, width: 1920, height: 1080 };
const inside = (r: Rect, o: Rect) => r.x >= o.x - 1e-6 && r.y >= o.y - 1e-6 && r.x + r.width <= o.x + o.width + 1e-6 && r.y + r.height <= o.y + o.height + 1e-6;

/** The rectangle a hand of `cards` cards and its total takes at a place. */
const drawn = (p: { x: number; y: number; scale: number }, cards: number): Rect => {
  const w = HandSprite.width(cards) * p.scale;
  return { x: p.x - w / 2, y: p.y, width: w, height: HAND_ZONE.height * p.scale };
};

// Portugal's rules set no limit on splitting and a Macau house may choose up to 99 hands: a seat
// of twelve hands fanned a hand's width apart (anim/motion.ts fanOffset) ran over the next seats'
// cards and names, and off the screen at 1920×1080.
describe("a split seat's hands on the table display", () => {
  for (const { game, bets } of FELT_TEST_PROFILES.filter((p) => p.game !== 'baccarat')) {
    for (const seats of [6, 7]) {
      const l = feltLayout(game, seats, bets);
      const rooms = handRooms(l);

      it(`${game} (${bets.length} bets), ${seats} seats: each seat's room is on screen and clear of everything else drawn`, () => {
        const fixed: Rect[] = [
          ...printedCentre(l),
          l.panel,
          l.shoe,
          l.discard,
          holderLabelRect(l.holderLabels.shoe),
          holderLabelRect(l.holderLabels.discard),
          languagesRect(l),
          handRect(l.hands.dealer),
          ...l.seats.flatMap((s) => [labelRect(s.label), resultRect(s.result)]),
        ];
        for (const s of l.seats) {
          const room = rooms.get(s.seat)!;
          assert.ok(inside(room, screen), `seat ${s.seat}'s room off screen`);
          assert.ok(inside(handRect(s.hand), room), `seat ${s.seat}'s room leaves out its own hand's place`);
          for (const f of fixed) assert.ok(!overlaps(room, f), `seat ${s.seat}'s room over ${JSON.stringify(f)}`);
          for (const o of l.seats) {
            o.spots.forEach((p, i) =>
              assert.ok((o.seat === s.seat && i === 0) || !circleHitsRect(p, room), `seat ${s.seat}'s room over seat ${o.seat}'s ${p.bet}`),
            );
            if (o.seat !== s.seat) assert.ok(!overlaps(room, rooms.get(o.seat)!), `seat ${s.seat}'s room over seat ${o.seat}'s`);
          }
        }
      });

      it(`${game} (${bets.length} bets), ${seats} seats: 1 to 99 hands of a seat stay in its room, none over another, in the order split`, () => {
        for (const s of l.seats) {
          const room = rooms.get(s.seat)!;
          for (let n = 1; n <= 99; n++) {
            for (const cards of [2, 3, 5]) {
              const cell = HandSprite.width(Math.max(3, cards)) + HAND_GAP;
              const places = handPlaces(room, s.hand, n, cell);
              assert.equal(places.length, n);
              const rects = places.map((p) => drawn(p, cards));
              for (const [i, r] of rects.entries()) {
                assert.ok(inside(r, n === 1 ? handRect(s.hand) : room), `seat ${s.seat}, ${n} hands of ${cards}: hand ${i} leaves its room`);
                for (let j = i + 1; j < rects.length; j++) assert.ok(!overlaps(r, rects[j]!), `seat ${s.seat}, ${n} hands: ${i} over ${j}`);
              }
              // Read left to right, then down: a hand split later is never before an earlier one.
              for (let i = 1; i < n; i++) {
                const [a, b] = [places[i - 1]!, places[i]!];
                assert.ok(b.y > a.y || (b.y === a.y && b.x > a.x), `seat ${s.seat}, ${n} hands: hand ${i} out of order`);
              }
            }
          }
          // One hand is where it always was, at full size.
          assert.deepEqual(handPlaces(room, s.hand, 1, 200), [{ ...s.hand, scale: 1 }]);
        }
      });

      it(`${game} (${bets.length} bets), ${seats} seats: up to twelve hands keep their cards at 28% of full size or more (27 by 38 units)`, () => {
        const cell = HandSprite.width(3) + HAND_GAP;
        for (const s of l.seats)
          for (let n = 2; n <= 12; n++) {
            const scale = handPlaces(rooms.get(s.seat)!, s.hand, n, cell)[0]!.scale;
            assert.ok(scale >= 0.28, `seat ${s.seat}, ${n} hands at ${scale.toFixed(2)}`);
          }
      });
    }
  }
});
