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
 * A texture idle in the pool at every still moment for this long (ms, the screen's clock) is let go,
 * whatever its size: no text has wanted a texture of that size meanwhile (a text whose words change
 * takes one out and gives one back). Kept for good, every size a text ever needed kept its two
 * textures for the page's life: the table's count stepped up when a line first needed a new size
 * (issue 52, the long-run bench: 99 → 100 at the shoe's first last-round line, 96 → 100 in another run).
 */
export const POOL_IDLE_MS = 60_000;

/**
 * What pixi keeps for a next change that a still screen (nothing to draw until the host says
 * something) does not need, let go (issue 31: a screen's JS heap):
 * - the texture pool, down to POOLED_PER_SIZE textures of each size, and none idle for POOL_IDLE_MS:
 *   a text that changes hands its old texture back to it, kept (GPU memory and its JS objects, a few
 *   hundred after the first rounds) for a text of the same size that never comes. Not emptied:
 *   emptied at every still moment, the next round's first change of each text made its texture anew
 *   (issue 52: a texture and its source made and destroyed for every text, every round);
 * - the text measurements: up to 1,000 strings' line metrics (0.14 MB), each measured again, once,
 *   by the next frame that lays out its text;
 * - the keys of the texts the renderer has let go (`forgetReleasedTexts`).
 */
export function releaseWhenStill(renderer: unknown, now: number): void {
  trimTexturePool(POOLED_PER_SIZE, now);
  forgetReleasedTexts(renderer);
  // pixi gives no call to empty it; the cache is its own LRU, emptied by its own `clear`. A private
  // field: read without trusting it, so a pixi that renamed it keeps its cache rather than throwing
  // in every still frame.
  const cache: unknown = Reflect.get(CanvasTextMetrics, '_measurementCache');
  if (hasClear(cache)) cache.clear();
}

/**
 * pixi's text system (`renderer.canvasText`) keeps a Text's texture under a key of the Text's words
 * and its style's version (`words:style-uid-tick:resolution`), and when no Text shows it any more it
 * sets the key's value to null but never deletes the key. So every words a page ever drew, in every
 * version of their style (a button's words change colour each time it is lit or dark), stayed a key
 * of one object: each key a string of the words and a slot in the object's dictionary, about 1.4
 * keys and 0.13 KiB a round on a baccarat station and 0.9 keys on the table display, without end (the
 * long-run bench's heap snapshots, issue 52: 462 → 1,722 keys from round 100 to 1,000). The null
 * keys are deleted here, the live ones (a Text on screen) kept: the object holds the texts shown.
 * A private field, read without trusting it: a pixi that renamed it is left alone. Returns how many
 * keys were let go.
 */
export function forgetReleasedTexts(renderer: unknown): number {
  const system: unknown = isObject(renderer) ? Reflect.get(renderer, 'canvasText') : undefined;
  const active: unknown = isObject(system) ? Reflect.get(system, '_activeTextures') : undefined;
  if (!isObject(active)) return 0;
  let forgotten = 0;
  for (const key of Object.keys(active))
    if (Reflect.get(active, key) === null) {
      Reflect.deleteProperty(active, key);
      forgotten++;
    }
  return forgotten;
}

function isObject(x: unknown): x is object {
  return typeof x === 'object' && x !== null;
}

function hasClear(x: unknown): x is { clear(): void } {
  return typeof x === 'object' && x !== null && 'clear' in x && typeof x.clear === 'function';
}

/** When each texture in the pool was first seen idle there, at a still moment (one taken out since is seen anew). */
const idleSince = new WeakMap<object, number>();
/** The textures seen idle at the last still moment. */
let idleLast = new Set<object>();

/**
 * The pool's textures beyond `keep` of each size destroyed, the oldest first, and any seen idle at
 * every still moment since `now - idleMs`. pixi offers only `clear` (all of them); its buckets and
 * its own way to drop textures (which forgets their keys) are private fields, read without trusting
 * them: a pixi that renamed them gets its pool cleared.
 */
export function trimTexturePool(keep: number, now: number, idleMs = POOL_IDLE_MS): void {
  const buckets: unknown = Reflect.get(TexturePool, '_buckets');
  const drop: unknown = Reflect.get(TexturePool, '_dropTextures');
  if (!(buckets instanceof Map) || typeof drop !== 'function') {
    TexturePool.clear(true);
    return;
  }
  const idle = new Set<object>();
  for (const textures of buckets.values() as Iterable<unknown>) {
    if (!Array.isArray(textures)) continue;
    const stale = textures.filter((t: unknown) => isObject(t) && idleLast.has(t) && now - (idleSince.get(t) ?? now) >= idleMs);
    const gone = new Set<unknown>(stale);
    const left = textures.filter((t) => !gone.has(t));
    // The oldest first: a texture given back last is the one a text of its size took most lately.
    const over = left.splice(0, Math.max(0, left.length - keep));
    if (stale.length + over.length) {
      textures.splice(0, textures.length, ...left);
      Reflect.apply(drop, TexturePool, [[...stale, ...over], true]);
    }
    for (const t of left as unknown[])
      if (isObject(t)) {
        if (!idleLast.has(t)) idleSince.set(t, now);
        idle.add(t);
      }
  }
  idleLast = idle;
}
