import { Matrix, Rectangle, Sprite, type Container, type Renderer, type Texture } from 'pixi.js';

/**
 * Draws a container into a texture at a resolution (device pixels per design unit); `ScreenContext.bake`.
 * `into`: a sprite an earlier bake gave, drawn into again (its texture resized to the art's bounds
 * where they moved) and given back, so art drawn again and again (a road map at every coup) makes no
 * new texture, sprite or render target each time; its owner keeps destroying it with its texture.
 */
export type Bake = (target: Container, resolution: number, into?: Sprite | null) => Sprite;

/** The label of a baked sprite, a bake's or a button face's (the test hooks find baked art by it). */
export const BAKED = 'baked';

/**
 * `ScreenContext.bake` over a renderer: the container drawn into a texture and a sprite of it
 * placed where its art is. The art's bounds are snapped out to whole design units: a stroke's half
 * width puts them on a half unit, and a texture laid from there would fall between the pixels of
 * the still layer (pixi snaps its cached layers to whole units too), blurring 1-unit lines to two
 * at half contrast.
 */
export function bakeWith(renderer: Renderer): Bake {
  /** The textures this bake made: only those are drawn into again (never a texture shared with others). */
  const made = new WeakSet<Texture>();
  return (target, resolution, into) => {
    const b = target.getLocalBounds();
    const x = Math.floor(b.minX);
    const y = Math.floor(b.minY);
    const frame = new Rectangle(x, y, Math.ceil(b.maxX) - x, Math.ceil(b.maxY) - y);
    if (into && !into.destroyed && made.has(into.texture) && !into.texture.destroyed) {
      const texture = into.texture;
      // pixi's generateTexture keeps at least a pixel each way; so does this.
      texture.source.resize(Math.max(frame.width, 1 / resolution) | 0, Math.max(frame.height, 1 / resolution) | 0, resolution);
      renderer.render({ container: target, target: texture, clear: true, clearColor: [0, 0, 0, 0], transform: Matrix.shared.translate(-x, -y) });
      texture.source.updateMipmaps();
      into.position.set(x, y);
      return into;
    }
    const texture = renderer.generateTexture({ target, frame, resolution, antialias: true });
    made.add(texture);
    const sprite = new Sprite(texture);
    sprite.position.set(x, y);
    sprite.label = BAKED;
    return sprite;
  };
}
