/** How long a prize is celebrated: brief, well inside the results' minimum time on screen. */
export const CELEBRATE_MS = 4000;
const POP_MS = 350;
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
