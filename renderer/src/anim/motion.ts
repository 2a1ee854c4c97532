/**
 * The card motions of the felt as pure functions of time: a flight from the shoe to a spot, a
 * flip (hole card revealed) and a slide. They write into objects the
 * caller keeps, so a frame allocates nothing.
 */

/** How long a card takes from the shoe to its place, and a flip. */
export const FLIGHT_MS = 420;
export const FLIP_MS = 300;
export const SLIDE_MS = 260;

export function easeOutCubic(u: number): number {
  const v = 1 - clamp01(u);
  return 1 - v * v * v;
}

export function clamp01(u: number): number {
  return u < 0 ? 0 : u > 1 ? 1 : u;
}

/** A straight move from (x0, y0) to (x1, y1) starting at `start`, eased out. */
export interface Move {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  start: number;
  duration: number;
}

export function newMove(): Move {
  return { x0: 0, y0: 0, x1: 0, y1: 0, start: 0, duration: 0 };
}

export function setMove(m: Move, x0: number, y0: number, x1: number, y1: number, start: number, duration: number): Move {
  m.x0 = x0;
  m.y0 = y0;
  m.x1 = x1;
  m.y1 = y1;
  m.start = start;
  m.duration = duration;
  return m;
}

/** Writes the position at `now` into `out`; true once the move has arrived. */
export function moveAt(m: Move, now: number, out: { x: number; y: number }): boolean {
  const u = m.duration <= 0 ? 1 : clamp01((now - m.start) / m.duration);
  const e = easeOutCubic(u);
  out.x = m.x0 + (m.x1 - m.x0) * e;
  out.y = m.y0 + (m.y1 - m.y0) * e;
  return u >= 1;
}

/**
 * A card turned over around its vertical axis: the horizontal scale goes 1 → 0 showing the back,
 * then 0 → 1 showing the face. `faceShown` says which side is drawn at `now`.
 */
export function flipAt(start: number, now: number, duration = FLIP_MS): { scaleX: number; faceShown: boolean; done: boolean } {
  const u = duration <= 0 ? 1 : clamp01((now - start) / duration);
  const faceShown = u >= 0.5;
  return { scaleX: Math.abs(Math.cos(u * Math.PI)), faceShown, done: u >= 1 };
}

/** Spacing of the cards within a hand: overlapping, and tighter as the hand grows. */
export function cardStep(count: number, cardWidth: number): number {
  return count <= 3 ? cardWidth * 0.42 : count <= 5 ? cardWidth * 0.32 : cardWidth * 0.24;
}
