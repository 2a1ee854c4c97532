import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NEVER } from '../anim/wake.js';
import { CanvasTextSystem, Text, TexturePool } from 'pixi.js';
import { installNodeCanvas } from '../test-hooks/node-canvas.js';
import { pixiMade } from '../test-hooks/pixi-made.js';
import { forgetReleasedTexts, IDLE_MS, isIdle, POOL_IDLE_MS, POOLED_PER_SIZE, releaseWhenStill, trimTexturePool } from './release-still.js';

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
    trimTexturePool(POOLED_PER_SIZE, 0);
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

  /**
   * Issue 52: the table page's texture count stepped 99 → 100 (and 96 → 100 in another run) and stayed
   * there: a text that once needed a size (the shoe's last-round line, a cue) left that size's
   * textures idle in the pool for the page's life. The long-run bench's texture list
   * (BENCH_LONG_TEXTURES=1) named an 8×64 texture, an empty line's, idle from round ~600 on.
   */
  it("lets go of a texture idle for POOL_IDLE_MS: a size once used is not kept for the page's life", () => {
    TexturePool.clear(true);
    const once = TexturePool.getOptimalTexture({ width: 300, height: 60 });
    TexturePool.returnTexture(once);
    releaseWhenStill({}, 0);
    assert.equal(once.destroyed, false, 'kept while it may be wanted again soon');
    // A result line changes every round, a second apart: its size's textures go out and come back.
    let held = TexturePool.getOptimalTexture({ width: 30, height: 20 });
    for (let now = 1000; now <= POOL_IDLE_MS + 5000; now += 1000) {
      const next = TexturePool.getOptimalTexture({ width: 30, height: 20 });
      TexturePool.returnTexture(held);
      held = next;
      releaseWhenStill({}, now);
    }
    assert.equal(once.destroyed, true, 'idle for over POOL_IDLE_MS: let go');
    assert.equal(held.destroyed, false);
    TexturePool.clear(true);
  });

  it('makes no texture a round for a text that changes every round (the pool still serves it)', () => {
    TexturePool.clear(true);
    let held = TexturePool.getOptimalTexture({ width: 30, height: 20 });
    const before = pixiMade().textures;
    for (let round = 1; round <= 1000; round++) {
      const next = TexturePool.getOptimalTexture({ width: 30, height: 20 });
      TexturePool.returnTexture(held);
      held = next;
      releaseWhenStill({}, round * 1000);
    }
    assert.ok(pixiMade().textures - before <= 1, `${pixiMade().textures - before} textures made over 1,000 rounds`);
    TexturePool.clear(true);
  });
});

describe("the text keys pixi keeps (issue 52: a station's heap grew by every words it ever drew)", () => {
  /** pixi's own text system, on a renderer that uploads nothing (its canvases are installNodeCanvas's). */
  function textSystem() {
    installNodeCanvas();
    const renderer = { resolution: 1, texture: { initSource: () => undefined } };
    const system = new CanvasTextSystem(renderer as unknown as ConstructorParameters<typeof CanvasTextSystem>[0]);
    return { renderer: { canvasText: system }, system };
  }
  const keys = (system: CanvasTextSystem) => Object.keys(Reflect.get(system, '_activeTextures') as object).length;

  /**
   * Rounds as a page plays them: one Text shows a new amount each round and one is lit and dark
   * again (its style's version moves on), each drawn through pixi's own calls as its text pipe makes
   * them (the texture of the words shown, the last words' let go).
   */
  function play(system: CanvasTextSystem, rounds: number, still: ((round: number) => void) | null) {
    const result = new Text({ text: '', style: { fontSize: 44 } });
    const spot = new Text({ text: 'Banker', style: { fontSize: 30, fill: '#ffffff' } });
    let shown = ['', ''];
    for (let round = 0; round < rounds; round++) {
      result.text = `Win +MOP$${100 + round}`;
      spot.style.fill = round % 2 ? '#1b1205' : '#ffffff';
      for (const t of [result, spot]) system.getManagedTexture(t);
      // The keys as pixi's pipe keeps them: read after the system has set the text's resolution.
      const now = [result.styleKey, spot.styleKey];
      for (const k of shown) system.decreaseReferenceCount(k);
      shown = now;
      still?.(round);
    }
  }

  it('pixi keeps the key of every words it drew and let go (if this fails, pixi lets go of them itself)', () => {
    const { system } = textSystem();
    play(system, 300, null);
    assert.ok(keys(system) >= 600, `${keys(system)} keys after 300 rounds`);
  });

  it('a still screen deletes the keys of the texts let go: 1,000 rounds leave the texts shown, not one key a round', () => {
    const { renderer, system } = textSystem();
    play(system, 1000, (round) => releaseWhenStill(renderer, round * 1000));
    assert.equal(keys(system), 2, "the two texts on screen, each with its texture's key");
    const active = Reflect.get(system, '_activeTextures') as Record<string, unknown>;
    assert.ok(Object.values(active).every((v) => v !== null));
  });

  it('leaves a pixi without the field alone', () => {
    assert.equal(forgetReleasedTexts({}), 0);
    assert.equal(forgetReleasedTexts({ canvasText: {} }), 0);
    assert.equal(forgetReleasedTexts(null), 0);
  });
});
