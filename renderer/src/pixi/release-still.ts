import { CanvasTextMetrics, TexturePool } from 'pixi.js';

/** A frame whose next is further away than this (ms) leaves its screen idle. */
export const IDLE_MS = 1000;

/**
 * Whether a screen that has just drawn at `now` and wants its next frame at `next` is idle: still
 * (`NEVER`), or woken only by a slow clock. A station's clock wakes it each minute: it was never
 * still, so it kept pixi's caches for good (issue 31).
 */
export function isIdle(now: number, next: number): boolean {
  return next - now > IDLE_MS;
}

/**
 * What pixi keeps for a next change that a still screen (nothing to draw until the host says
 * something) does not need, let go (issue 31: a screen's JS heap):
 * - the texture pool: a text that changes hands its old texture back to it, kept (GPU memory and
 *   its JS objects, a few hundred after the first rounds) for a text of the same size that never
 *   comes;
 * - the text measurements: up to 1,000 strings' line metrics (0.14 MB), each measured again, once,
 *   by the next frame that lays out its text.
 */
export function releaseWhenStill(): void {
  TexturePool.clear(true);
  // pixi gives no call to empty it; the cache is its own LRU, emptied by its own `clear`. A private
  // field: read without trusting it, so a pixi that renamed it keeps its cache rather than throwing
  // in every still frame.
  const cache: unknown = Reflect.get(CanvasTextMetrics, '_measurementCache');
  if (hasClear(cache)) cache.clear();
}

function hasClear(x: unknown): x is { clear(): void } {
  return typeof x === 'object' && x !== null && 'clear' in x && typeof x.clear === 'function';
}
