import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Graphics, Rectangle, Sprite, Texture, type Container, type GraphicsContext } from 'pixi.js';
import { DISPOSE } from '../pixi/dispose.js';
import { Button } from './button.js';
import { FACE_KEPT_MS, installFaceBake, liveFaces, releaseUnusedFaces, sharpenFaces } from './button-faces.js';

/** The context a button's face is drawn from (its first child, the Graphics under its words). */
const face = (b: Button): GraphicsContext => {
  const g = b.children[0];
  assert.ok(g instanceof Graphics);
  return g.context;
};
const noop = () => undefined;

describe('a button face (issue 31: the JS heap of a screen full of buttons)', () => {
  it('is one geometry for every button of the same size and look, not one each', () => {
    const a = new Button('a', 300, 108, noop);
    const b = new Button('b', 300, 108, noop);
    const wide = new Button('wide', 600, 108, noop);
    assert.equal(face(a), face(b));
    assert.notEqual(face(a), face(wide));
    assert.ok(face(a).instructions.length > 0, 'the face is drawn');
    for (const x of [a, b, wide]) x.destroy(DISPOSE);
  });

  it('follows the button highlighted and back, and tells chips of another colour apart', () => {
    const a = new Button('a', 300, 108, noop);
    const b = new Button('b', 300, 108, noop);
    a.setActive(true);
    assert.notEqual(face(a), face(b), 'a highlighted button has a face of its own');
    a.setActive(false);
    assert.equal(face(a), face(b));
    const red = new Button('chip-red', 120, 120, noop, { chip: 0xd8283c });
    const blue = new Button('chip-blue', 120, 120, noop, { chip: 0x1f5fd6 });
    assert.notEqual(face(red), face(blue));
    for (const x of [a, b, red, blue]) x.destroy(DISPOSE);
  });

  it('outlives a button destroyed with its contexts, and goes with the last one', () => {
    releaseUnusedFaces();
    const before = liveFaces();
    const a = new Button('a', 310, 108, noop);
    const b = new Button('b', 310, 108, noop);
    const shared = face(a);
    assert.equal(liveFaces(), before + 1);
    a.destroy(DISPOSE);
    assert.equal(shared.destroyed, false, "the other button's face is still drawn");
    assert.equal(face(b), shared);
    a.destroy(DISPOSE);
    assert.equal(shared.destroyed, false, 'a button destroyed twice gives its face back once');
    b.destroy(DISPOSE);
    assert.equal(shared.destroyed, false, 'no button left: kept until the screen is idle (a rebuild makes the same looks)');
    releaseUnusedFaces();
    assert.equal(shared.destroyed, true, 'idle, no button left: the geometry is let go');
    assert.equal(liveFaces(), before);
  });
});

describe('a button face where the screen bakes (issue 31: no geometry kept in the heap)', () => {
  /** A bake that records what it drew and at what resolution, its art 4 units up and left of the box. */
  const bakes: { target: Container; resolution: number; texture: Texture }[] = [];
  const fakeBake = (target: Container, resolution: number): Sprite => {
    const texture = new Texture();
    bakes.push({ target, resolution, texture });
    const s = new Sprite(texture);
    s.position.set(-4, -4);
    return s;
  };
  const sprite = (b: Button): Sprite => {
    const s = b.children[0];
    assert.ok(s instanceof Sprite, 'the face is a sprite of its texture, not a Graphics');
    return s;
  };

  it('draws each look once into a texture, lets its Graphics go, and shows it where the art lies', () => {
    installFaceBake(fakeBake, 1.5);
    bakes.length = 0;
    const a = new Button('a', 320, 108, noop);
    const b = new Button('b', 320, 108, noop);
    assert.equal(bakes.length, 1, 'one bake for the look');
    assert.equal(bakes[0]?.resolution, 1.5);
    assert.equal(bakes[0]?.target.destroyed, true, 'the Graphics drawn is destroyed after the bake');
    assert.equal(sprite(a).texture, bakes[0]?.texture);
    assert.equal(sprite(b).texture, bakes[0]?.texture);
    assert.deepEqual([sprite(a).x, sprite(a).y], [-4, -4]);
    a.setActive(true);
    assert.equal(bakes.length, 2, 'the highlighted look is baked once too');
    assert.equal(sprite(a).texture, bakes[1]?.texture);
    a.setActive(false);
    assert.equal(sprite(a).texture, bakes[0]?.texture);
    a.setActive(true);
    assert.equal(bakes.length, 2, 'highlighted again before the screen was idle: nothing drawn again');
    a.setActive(false);
    releaseUnusedFaces();
    assert.equal(bakes[1]?.texture.destroyed, true, 'idle, no button highlighted: its texture is let go');
    assert.equal(bakes[0]?.texture.destroyed, false);
    // A screen rebuilt (new legal actions, another language): its buttons destroyed and made again.
    for (const x of [a, b]) x.destroy(DISPOSE);
    const again = new Button('a', 320, 108, noop);
    assert.equal(bakes.length, 2, 'a rebuild shows the faces it had, not drawn again');
    assert.equal(sprite(again).texture, bakes[0]?.texture);
    again.destroy(DISPOSE);
    releaseUnusedFaces();
    assert.equal(bakes[0]?.texture.destroyed, true, 'idle, the last button of the look gone: its texture is let go');
    installFaceBake(null, 1);
  });

  it('lights and darkens a button in the same sprite: no display object made or destroyed (issue 52)', () => {
    installFaceBake(fakeBake, 1);
    bakes.length = 0;
    const a = new Button('a', 336, 108, noop);
    const face = sprite(a);
    for (let round = 0; round < 3; round++) {
      a.setActive(true);
      assert.equal(sprite(a), face, 'highlighted: the same sprite');
      assert.equal(face.texture, bakes[1]?.texture);
      a.setActive(false);
      assert.equal(sprite(a), face, 'dark again: the same sprite');
      assert.equal(face.texture, bakes[0]?.texture);
    }
    assert.equal(face.destroyed, false);
    assert.equal(a.children.filter((c) => c instanceof Sprite).length, 1, 'one face, not one a swap');
    releaseUnusedFaces();
    assert.equal(bakes[1]?.texture.destroyed, true, 'the highlighted look, shown by no button now, is let go');
    assert.equal(bakes[0]?.texture.destroyed, false, 'the look shown stays');
    a.destroy(DISPOSE);
    releaseUnusedFaces();
    assert.equal(bakes[0]?.texture.destroyed, true);
    installFaceBake(null, 1);
  });

  it('keeps a look no button shows for FACE_KEPT_MS of idle screen, so a spot lit every round is not drawn again every round (issue 52)', () => {
    installFaceBake(fakeBake, 1);
    bakes.length = 0;
    const a = new Button('a', 342, 108, noop);
    const t0 = 5_000_000;
    for (let round = 0; round < 4; round++) {
      a.setActive(true);
      // The round ends: the spot goes dark and the screen is idle for a while.
      a.setActive(false);
      releaseUnusedFaces(t0 + round * 20_000);
      releaseUnusedFaces(t0 + round * 20_000 + 10_000);
    }
    assert.equal(bakes.length, 2, 'the lit look drawn once over four rounds of 20 s');
    assert.equal(bakes[1]?.texture.destroyed, false);
    const last = t0 + 3 * 20_000 + 10_000;
    releaseUnusedFaces(last + FACE_KEPT_MS - 10_001);
    assert.equal(bakes[1]?.texture.destroyed, false, 'not yet: shown less than FACE_KEPT_MS ago');
    releaseUnusedFaces(last + FACE_KEPT_MS + 20_000);
    assert.equal(bakes[1]?.texture.destroyed, true, 'shown by no button for FACE_KEPT_MS: let go');
    assert.equal(bakes[0]?.texture.destroyed, false, 'the look shown stays');
    a.destroy(DISPOSE);
    releaseUnusedFaces();
    assert.equal(bakes[0]?.texture.destroyed, true, 'without a clock: let go at once');
    installFaceBake(null, 1);
  });

  it('draws every face again at a new resolution, in the sprites already shown', () => {
    installFaceBake(fakeBake, 1);
    bakes.length = 0;
    const a = new Button('a', 330, 108, noop);
    const chip = new Button('chip', 120, 120, noop, { chip: 0xd8283c });
    const gone = new Button('gone', 350, 108, noop);
    gone.destroy(DISPOSE);
    const first = bakes.map((x) => x.texture);
    sharpenFaces(1);
    assert.equal(bakes.length, 3, 'the same resolution draws nothing again');
    sharpenFaces(2);
    assert.equal(bakes.length, 5, 'a look no button shows is let go, not drawn again');
    bakes.splice(2, 1);
    assert.deepEqual(
      bakes.slice(2).map((x) => x.resolution),
      [2, 2],
    );
    assert.equal(sprite(a).texture, bakes[2]?.texture);
    assert.equal(sprite(chip).texture, bakes[3]?.texture);
    assert.ok(
      first.every((t) => t.destroyed),
      'the textures at the old resolution are let go',
    );
    // Pressed on its box, not on the margin its texture has for a highlight ring; a box the
    // accessibility layer can place its element over (it reads the hit area's x, y, width, height).
    assert.ok(chip.hitArea instanceof Rectangle);
    assert.deepEqual([chip.hitArea.x, chip.hitArea.y, chip.hitArea.width, chip.hitArea.height], [0, 0, 120, 120]);
    for (const x of [a, chip]) x.destroy(DISPOSE);
    releaseUnusedFaces();
    assert.ok(bakes.slice(2).every((x) => x.texture.destroyed));
    installFaceBake(null, 1);
  });

  it('keeps no half-made look when a bake fails: the next button of that look bakes it', () => {
    let fail = true;
    installFaceBake((target, resolution) => {
      if (fail) throw new Error('context lost');
      return fakeBake(target, resolution);
    }, 1);
    bakes.length = 0;
    assert.throws(() => new Button('a', 340, 108, noop), /context lost/);
    fail = false;
    const b = new Button('b', 340, 108, noop);
    assert.equal(bakes.length, 1);
    assert.equal(sprite(b).texture, bakes[0]?.texture);
    b.destroy(DISPOSE);
    releaseUnusedFaces();
    installFaceBake(null, 1);
  });
});
