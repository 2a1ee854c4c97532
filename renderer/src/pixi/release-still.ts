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

/** Textures the pool keeps of each size when the screen is still (`releaseWhenStill`). */
export const POOLED_PER_SIZE = 2;

/**
 * What pixi keeps for a next change that a still screen (nothing to draw until the host says
 * something) does not need, let go (issue 31: a screen's JS heap):
 * - the texture pool, down to POOLED_PER_SIZE textures of each size: a text that changes hands its
 *   old texture back to it, kept (GPU memory and its JS objects, a few hundred after the first
 *   rounds) for a text of the same size that never comes. Not emptied: emptied at every still
 *   moment, the next round's first change of each text made its texture anew (issue 52: a texture
 *   and its source made and destroyed for every text, every round);
 * - the text measurements: up to 1,000 strings' line metrics (0.14 MB), each measured again, once,
 *   by the next frame that lays out its text.
 */
export function releaseWhenStill(): void {
  trimTexturePool(POOLED_PER_SIZE);
  // pixi gives no call to empty it; the cache is its own LRU, emptied by its own `clear`. A private
  // field: read without trusting it, so a pixi that renamed it keeps its cache rather than throwing
  // in every still frame.
  const cache: unknown = Reflect.get(CanvasTextMetrics, '_measurementCache');
  if (hasClear(cache)) cache.clear();
}

function hasClear(x: unknown): x is { clear(): void } {
  return typeof x === 'object' && x !== null && 'clear' in x && typeof x.clear === 'function';
}

/**
 * The pool's textures beyond `keep` of each size destroyed, the oldest first. pixi offers only
 * `clear` (all of them); its buckets and its own way to drop textures (which forgets their keys) are
 * private fields, read without trusting them: a pixi that renamed them gets its pool cleared.
 */
export function trimTexturePool(keep: number): void {
  const buckets: unknown = Reflect.get(TexturePool, '_buckets');
  const drop: unknown = Reflect.get(TexturePool, '_dropTextures');
  if (!(buckets instanceof Map) || typeof drop !== 'function') {
    TexturePool.clear(true);
    return;
  }
  for (const textures of buckets.values() as Iterable<unknown>)
    if (Array.isArray(textures) && textures.length > keep) Reflect.apply(drop, TexturePool, [textures.splice(0, textures.length - keep), true]);
}
