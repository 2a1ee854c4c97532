import type { SeatLayout } from './felt-layout.js';

/** Gap between a spot's edge and the ring drawn round it. */
const RING_GAP = 1;
/** Width of the ring's gold stroke (design units): it must clear the side-bet spots round the main one. */
export const RING_STROKE = 6;

/**
 * The highlight ring of a seat the dealer must serve (a card or a decision due): on the seat's
 * own spots, where the player and the dealer look for the seat. It was once centred on the hand's
 * place above the spot, so mid-deal it sat beside the seat's circle rather than on it. Round the
 * main circle only where there is one (blackjack, war), inside the ring of side-bet spots; round
 * the row of boxes on baccarat's seats.
 */
export function seatRing(seat: SeatLayout): { x: number; y: number; r: number } {
  const main = seat.spots[0];
  if (main?.shape === 'circle') return { x: main.x, y: main.y, r: main.r + RING_GAP + RING_STROKE / 2 };
  let r = 0;
  for (const s of seat.spots) {
    const dx = Math.max(Math.abs(s.x - s.width / 2 - seat.x), Math.abs(s.x + s.width / 2 - seat.x));
    const dy = Math.max(Math.abs(s.y - s.height / 2 - seat.y), Math.abs(s.y + s.height / 2 - seat.y));
    r = Math.max(r, Math.hypot(dx, dy));
  }
  return { x: seat.x, y: seat.y, r: r + RING_GAP + RING_STROKE / 2 };
}
