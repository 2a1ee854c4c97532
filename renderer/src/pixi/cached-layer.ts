import { Container, Graphics, Text, type Rectangle } from 'pixi.js';

/**
 * A layer of things that stay put between snapshots (a felt, its printed words, names, a
 * screen's backgrounds), drawn once into a texture (`cacheAsTexture`) and drawn again only when
 * something in it changed: a frame then draws it as one quad, whatever it holds. `refresh`
 * compares what it shows (its texts, their colours and places, what is visible, and a key the
 * owner adds for what is not a text, such as a road map's marks) with what it drew.
 *
 * Its texture is multisampled (`antialias`) only while it shows vector art (a `Graphics`): only the
 * edges of paths are smoothed by it. Texts and sprites (baked art, already smoothed when baked) look
 * the same in a plain texture, and a multisampled one costs its samples and a resolve of the whole
 * texture at every redraw: on a software GPU the largest part of a table frame (issue 52: the
 * table's 1920×1080 still layer, drawn again at every coup on the road maps).
 */
export class CachedLayer extends Container {
  private drawnKey = '';
  private resolution = 1;
  /** Whether the texture is multisampled: until the first `refresh` says what the layer holds, as pixi's default. */
  private multisampled = true;

  /**
   * `area`, where the layer is seen (a full-screen layer's: the design's 1920×1080): its texture is
   * that size whatever a child reaches past it. pixi sizes a cached layer's texture to its bounds, and
   * a new size is a new texture from its pool, the old one kept there. The table's still layer
   * reached x 1,923 when its line of road statistics ran off the screen (issue 52); a layer wider than
   * the screen's 1,920 pixels gets the next power of two, 2048×1080, beside the 1920×1080 one kept in
   * the pool: the long-run bench's step of 8.5 MB in the table page's GPU memory.
   */
  constructor(label: string, area?: Rectangle) {
    super({ label });
    if (area) this.boundsArea = area;
    this.cacheAsTexture({ resolution: this.resolution, antialias: this.multisampled });
  }

  /** Whether its texture is drawn multisampled (the last `refresh` found a Graphics shown in it). */
  get antialiased(): boolean {
    return this.multisampled;
  }

  /** Drawn again at the display's new resolution (device pixels per design unit), texts and all. */
  sharpen(resolution: number): void {
    if (resolution === this.resolution) return;
    this.resolution = resolution;
    this.cacheAsTexture({ resolution, antialias: this.multisampled });
  }

  /** After the owner changed its children: drawn again at the next frame if anything differs from what was drawn. */
  refresh(extra = ''): void {
    const parts: (string | number | boolean)[] = [extra];
    let vector = false;
    const visit = (node: Container, shown: boolean) => {
      parts.push(node.visible, node.x, node.y, node.alpha, node.scale.x, node.scale.y, node.children.length);
      if (node instanceof Text) parts.push(node.text, String(node.style.fill), node.style.fontSize, node.resolution);
      if (node instanceof Graphics && shown && node.visible) vector = true;
      for (const child of node.children) visit(child, shown && node.visible);
    };
    for (const child of this.children) visit(child, true);
    if (vector !== this.multisampled) {
      // A new texture from the pool, of the other kind; the layer is drawn into it at the next frame.
      this.multisampled = vector;
      this.cacheAsTexture({ resolution: this.resolution, antialias: vector });
    }
    const key = parts.join('|');
    if (key === this.drawnKey) return;
    this.drawnKey = key;
    this.updateCacheTexture();
  }
}
