import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Graphics, Rectangle, TexturePool } from 'pixi.js';
import { CachedLayer } from './cached-layer.js';

describe("a cached layer's texture (issue 52: the table page's GPU memory)", () => {
  it('with an area, is the area whatever a child reaches past it: one texture size for good', () => {
    const layer = new CachedLayer('still', new Rectangle(0, 0, 1920, 1080));
    const box = new Graphics().rect(7, 14, 1899, 1052).fill({ color: 0x123456 });
    layer.addChild(box);
    // What pixi sizes the layer's texture by (RenderGroupSystem: the root's local bounds, rounded out).
    const size = () => {
      const b = layer.getLocalBounds();
      return TexturePool.getOptimalSize(Math.ceil(b.maxX) - Math.floor(b.minX), Math.ceil(b.maxY) - Math.floor(b.minY), 1);
    };
    const before = size();
    // A line of text running 30 units past the screen's right edge (the road statistics before they were fitted).
    layer.addChild(new Graphics().rect(1426, 70, 526, 32).fill({ color: 0xffffff }));
    assert.deepEqual(size(), before);
    assert.deepEqual([layer.getLocalBounds().minX, layer.getLocalBounds().maxX], [0, 1920]);
    layer.destroy({ children: true });
  });

  it("without one, is sized by what it holds (so the area above is what keeps the table's one size)", () => {
    const layer = new CachedLayer('bare');
    layer.addChild(new Graphics().rect(7, 14, 1899, 1052).fill({ color: 0x123456 }));
    const narrow = layer.getLocalBounds().width;
    layer.addChild(new Graphics().rect(1426, 70, 526, 32).fill({ color: 0xffffff }));
    assert.ok(layer.getLocalBounds().width > 1920, `${layer.getLocalBounds().width} wide: past the screen, the next power of two`);
    assert.ok(narrow <= 1920);
    layer.destroy({ children: true });
  });
});
