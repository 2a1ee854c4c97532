import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NEVER } from '../anim/wake.js';
import { TexturePool } from 'pixi.js';
import { IDLE_MS, isIdle, POOLED_PER_SIZE, trimTexturePool } from './release-still.js';

describe("when a screen lets go of pixi's caches", () => {
  it('when still, and when only a slow clock will wake it (a station between rounds), never while anything moves', () => {
    const now = 1_000_000;
    assert.equal(isIdle(now, NEVER), true);
    assert.equal(isIdle(now, now + 60_000), true, "the session clock's next minute");
    assert.equal(isIdle(now, now + IDLE_MS + 1), true);
    assert.equal(isIdle(now, now + 250), false, "the countdown bar's next step");
    assert.equal(isIdle(now, now + 1000), false, "a countdown's next second, drawn on the second");
    assert.equal(isIdle(now, now), false, 'a card flying');
  });
});

describe('the texture pool of a still screen (issue 52)', () => {
  it('keeps POOLED_PER_SIZE textures of each size, the newest, and destroys the rest', () => {
    TexturePool.clear(true);
    const small = Array.from({ length: 5 }, () => TexturePool.getOptimalTexture({ width: 30, height: 20 }));
    const large = [TexturePool.getOptimalTexture({ width: 300, height: 60 })];
    for (const t of [...small, ...large]) TexturePool.returnTexture(t);
    trimTexturePool(POOLED_PER_SIZE);
    assert.deepEqual(
      small.map((t) => t.destroyed),
      [true, true, true, false, false],
      'the oldest let go, the last returned kept',
    );
    assert.equal(large[0]!.destroyed, false);
    // A text changing next round finds a texture of its size: none made.
    const again = TexturePool.getOptimalTexture({ width: 30, height: 20 });
    assert.ok(small.slice(3).includes(again), 'a kept texture is handed out again');
    TexturePool.returnTexture(again);
    TexturePool.clear(true);
  });
});
