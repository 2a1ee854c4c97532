import type { Application } from 'pixi.js';
import { CardAtlas, installCardAtlas } from '../cards/card-art.js';
import { bakeWith, type Bake } from '../pixi/bake.js';
import type { Rebake } from '../pixi/context-loss.js';
import { installFaceBake, redrawFaces, sharpenFaces } from '../ui/button-faces.js';
import { setLiveResolution } from '../ui/live-text.js';

/**
 * What every screen draws once against the renderer and shares: the live texts' resolution, the
 * card atlas, and the buttons' faces, drawn into textures by look (ui/button-faces.ts) and again
 * when the display's resolution changes, before the screen's cached layers are (listened to
 * first). The faces are drawn again after a lost WebGL context (`rebake`, pixi/context-loss.ts);
 * the atlas is backed by a canvas of its pixels, which pixi uploads again by itself.
 * Returns the bake the screens draw their own art with (`ScreenContext.bake`).
 */
export function installSharedArt(app: Application, resolution: () => number, onFit: (listener: () => void) => void, rebake: Rebake): Bake {
  setLiveResolution(resolution());
  const atlas = new CardAtlas(app.renderer, resolution());
  atlas.warm();
  installCardAtlas(atlas);
  const bake = bakeWith(app.renderer);
  installFaceBake(bake, resolution());
  onFit(() => sharpenFaces(resolution()));
  rebake('button-faces', redrawFaces);
  return bake;
}
