import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Container, Graphics, GraphicsContext, Sprite, Text } from 'pixi.js';
import { pixiMade } from './pixi-made.js';

describe('pixiMade: the pixi objects made since the page started', () => {
  it('counts each container, sprite, text and Graphics made, and reading twice adds nothing', () => {
    const before = pixiMade();
    assert.deepEqual(pixiMade(), before, 'a read alone makes nothing');
    const made = [new Container(), new Sprite(), new Graphics(), new Text({ text: 'x' })];
    const after = pixiMade();
    assert.equal(after.containers - before.containers, 4);
    // A Graphics makes its own context; a Text its style.
    assert.equal(after.graphicsContexts - before.graphicsContexts, 1);
    assert.ok(after.textStyles - before.textStyles >= 1, 'a Text made a style');
    for (const c of made) c.destroy();
    assert.equal(pixiMade().containers, after.containers, 'destroying makes nothing');
    new GraphicsContext();
    assert.equal(pixiMade().graphicsContexts, after.graphicsContexts + 1);
  });
});
