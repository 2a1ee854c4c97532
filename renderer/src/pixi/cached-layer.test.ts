import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Container, Graphics, Rectangle, Sprite, Text, Texture, TexturePool } from 'pixi.js';
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

describe("a cached layer's multisampling (issue 52: the table's still layer drawn again at every coup)", () => {
  /** What pixi draws the layer's texture with (RenderGroupSystem takes `antialias` from these options). */
  const antialias = (layer: CachedLayer) => layer.renderGroup?.textureOptions.antialias;

  it('of texts and sprites only (baked art), is drawn into a plain texture, not a multisampled one', () => {
    const layer = new CachedLayer('still', new Rectangle(0, 0, 1920, 1080));
    layer.addChild(new Sprite(Texture.WHITE), new Text({ text: '莊家' }));
    const panel = new Container();
    panel.addChild(new Sprite(Texture.WHITE), new Text({ text: '局數 53' }));
    layer.addChild(panel);
    layer.refresh('coup 1');
    assert.equal(antialias(layer), false);
    assert.equal(layer.antialiased, false);
    // A new resolution keeps it plain.
    layer.sharpen(2);
    assert.equal(antialias(layer), false);
    layer.destroy({ children: true });
  });

  it('with a Graphics shown anywhere in it, is multisampled (its edges smoothed); hidden or gone, plain again', () => {
    const layer = new CachedLayer('still', new Rectangle(0, 0, 1920, 1080));
    const panel = new Container();
    const box = new Graphics().roundRect(0, 0, 420, 1000, 16).fill({ color: 0x0b0f14 });
    panel.addChild(box);
    layer.addChild(new Text({ text: '莊家' }), panel);
    layer.refresh();
    assert.equal(antialias(layer), true);
    panel.visible = false;
    layer.refresh();
    assert.equal(antialias(layer), false, 'a Graphics under a hidden container is not drawn');
    panel.visible = true;
    layer.refresh();
    assert.equal(antialias(layer), true);
    box.destroy();
    layer.refresh();
    assert.equal(antialias(layer), false);
    layer.sharpen(2);
    assert.equal(antialias(layer), false);
    layer.destroy({ children: true });
  });
});
