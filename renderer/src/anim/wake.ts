/**
 * When a screen next needs a frame, on its own clock (ms): a screen's `tick` answers with the
 * earliest of its parts' answers, and the frame loop (renderer/src/pixi/frames.ts) sleeps until
 * then. Anything moving answers `now`; a countdown, its next second; a still part, `NEVER`.
 */
export const NEVER = Number.POSITIVE_INFINITY;

/** When `ceil((endsAt - now) / 1000)` next changes (the seconds a countdown shows); NEVER once it reads 0. */
export function nextSecondAt(endsAt: number | null, now: number): number {
  if (endsAt === null || endsAt <= now) return NEVER;
  const seconds = Math.ceil((endsAt - now) / 1000);
  return endsAt - (seconds - 1) * 1000;
}

/** The start of the next step of `stepMs` after `now`: a slow pulse drawn in steps, not every display frame. */
export function nextStepAt(now: number, stepMs: number): number {
  return (Math.floor(now / stepMs) + 1) * stepMs;
}
