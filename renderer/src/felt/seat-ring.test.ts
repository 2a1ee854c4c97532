import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { feltLayout, spotRect, type SpotLayout } from './felt-layout.js';
import { RING_STROKE, seatRing } from './seat-ring.js';
import { FELT_TEST_PROFILES } from './test-profiles.js';

const PROFILES = FELT_TEST_PROFILES;

/** Nearest and farthest distance from (x, y) to a spot's area. */
function reach(s: SpotLayout, x: number, y: number): { near: number; far: number } {
  if (s.shape === 'circle') {
    const d = Math.hypot(s.x - x, s.y - y);
    return { near: Math.max(0, d - s.r), far: d + s.r };
  }
  const r = spotRect(s);
  const nx = Math.max(r.x, Math.min(x, r.x + r.width));
  const ny = Math.max(r.y, Math.min(y, r.y + r.height));
  const fx = Math.max(Math.abs(r.x - x), Math.abs(r.x + r.width - x));
  const fy = Math.max(Math.abs(r.y - y), Math.abs(r.y + r.height - y));
  return { near: Math.hypot(nx - x, ny - y), far: Math.hypot(fx, fy) };
}

describe('the highlight ring of a seat', () => {
  for (const p of PROFILES)
    for (const seats of [1, 3, 5, 7])
      it(`${p.game} (${p.bets.join(',')}), ${seats} seats: on the seat's spot, crossing no spot`, () => {
        const layout = feltLayout(p.game, seats, p.bets);
        for (const seat of layout.seats) {
          const ring = seatRing(seat);
          const inner = ring.r - RING_STROKE / 2;
          const outer = ring.r + RING_STROKE / 2;
          // The seat's main spot lies wholly inside the ring: the ring is on the seat, not beside it.
          const main = seat.spots[0]!;
          assert.ok(reach(main, ring.x, ring.y).far <= inner, `seat ${seat.seat}: main spot inside its ring`);
          // No spot (the seat's side bets, any other seat's spots) is crossed by the ring's stroke.
          for (const other of layout.seats)
            for (const s of other.spots) {
              const { near, far } = reach(s, ring.x, ring.y);
              assert.ok(far <= inner || near >= outer, `seat ${seat.seat}'s ring crosses seat ${other.seat}'s ${s.bet}`);
            }
        }
      });
});
