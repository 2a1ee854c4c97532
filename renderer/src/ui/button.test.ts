import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Graphics, type GraphicsContext } from 'pixi.js';
import { DISPOSE } from '../pixi/dispose.js';
import { Button } from './button.js';
import { liveFaces } from './button-faces.js';

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
    assert.equal(shared.destroyed, true, 'no button left: the geometry is let go');
    assert.equal(liveFaces(), before);
  });
});
