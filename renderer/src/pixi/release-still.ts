import { CanvasTextMetrics, TexturePool } from 'pixi.js';

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
