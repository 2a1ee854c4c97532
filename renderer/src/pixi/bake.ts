import { Rectangle, Sprite, type Container, type Renderer } from 'pixi.js';

/** Draws a container into a texture at a resolution (device pixels per design unit); `ScreenContext.bake`. */
export type Bake = (target: Container, resolution: number) => Sprite;

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
  return (target, resolution) => {
    const b = target.getLocalBounds();
    const x = Math.floor(b.minX);
    const y = Math.floor(b.minY);
    const frame = new Rectangle(x, y, Math.ceil(b.maxX) - x, Math.ceil(b.maxY) - y);
    const sprite = new Sprite(renderer.generateTexture({ target, frame, resolution, antialias: true }));
    sprite.position.set(x, y);
    sprite.label = BAKED;
    return sprite;
  };
}
