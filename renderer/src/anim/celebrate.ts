/** How long a prize is celebrated: brief, well inside the results' minimum time on screen. */
export const CELEBRATE_MS = 4000;
const POP_MS = 350;
/** The largest scale of the pop (celebrationFrame's 0.6 → 1.12 → 1), for the room a celebration takes. */
export const POP_MAX = 1.12;
const FADE_MS = 700;

/**
 * A celebration's look `elapsed` ms after it began, as a pure function of time (tested on a
 * stepped clock): it pops in slightly over size, settles, holds, and fades out at the end.
 */
export function celebrationFrame(elapsed: number): { visible: boolean; scale: number; alpha: number } {
  if (elapsed < 0 || elapsed >= CELEBRATE_MS) return { visible: false, scale: 1, alpha: 0 };
  if (elapsed < POP_MS) {
    const u = elapsed / POP_MS;
    // 0.6 → 1.12 → 1: an ease-out-back without overshooting twice.
    return { visible: true, scale: 0.6 + 0.52 * Math.sin((u * Math.PI) / 2) - 0.12 * u * u, alpha: Math.min(1, u * 2) };
  }
  const left = CELEBRATE_MS - elapsed;
  return { visible: true, scale: 1, alpha: left < FADE_MS ? left / FADE_MS : 1 };
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Distance from a point to a rectangle (0 inside it). */
function distance(p: { x: number; y: number }, r: Box): number {
  const dx = Math.max(r.x - p.x, 0, p.x - (r.x + r.width));
  const dy = Math.max(r.y - p.y, 0, p.y - (r.y + r.height));
  return Math.hypot(dx, dy);
}

const boxesMeet = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * Where a celebration goes when it is wanted at `at` (a seat's cards), in design units: its plate
 * (`plate`: width × height of the words) moved sideways off whatever must stay clear (the road
 * maps, the language buttons) and kept on `screen`, and its rays shortened so that, at the pop's
 * largest, they reach neither those nor the screen's edge. A pure function of the layout, so the
 * same room is checked without a renderer.
 */
export function fitCelebration(
  at: { x: number; y: number },
  plate: { width: number; height: number },
  rays: number,
  clear: readonly Box[],
  screen: Box,
  gap = 8,
): { x: number; y: number; rays: number } {
  const hw = (plate.width / 2) * POP_MAX;
  const hh = (plate.height / 2) * POP_MAX;
  const inScreen = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));
  let x = inScreen(at.x, screen.x + hw + gap, screen.x + screen.width - hw - gap);
  const y = inScreen(at.y, screen.y + hh + gap, screen.y + screen.height - hh - gap);
  for (const r of clear) {
    const box = { x: x - hw, y: y - hh, width: 2 * hw, height: 2 * hh };
    if (!boxesMeet(box, { x: r.x - gap, y: r.y - gap, width: r.width + 2 * gap, height: r.height + 2 * gap })) continue;
    // To the nearer side of it that stays on the screen.
    const left = r.x - gap - hw;
    const right = r.x + r.width + gap + hw;
    const fitsLeft = left - hw >= screen.x;
    const fitsRight = right + hw <= screen.x + screen.width;
    x = fitsLeft && (!fitsRight || x - left <= right - x) ? left : right;
  }
  const p = { x, y };
  const room = Math.min(...clear.map((r) => distance(p, r) - gap), x - screen.x, screen.x + screen.width - x, y - screen.y, screen.y + screen.height - y);
  return { x, y, rays: Math.max(0, Math.min(rays, Math.floor(room / POP_MAX))) };
}
