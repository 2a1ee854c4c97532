import type { Container } from 'pixi.js';
import type { BakedArt, ReportBody } from '../../../protocol/index.js';

/**
 * Redraws what the screen drew into textures itself; false when it holds nothing drawn now (a
 * table without road maps), so the report names only what was drawn again.
 */
export type Redraw = () => boolean;

/** Registers art a screen baked, drawn again once a lost context is back; returns its unregistration. */
export type Rebake = (art: BakedArt, redraw: Redraw) => () => void;

export interface ContextLossDeps {
  /** The renderer's canvas: the browser fires `webglcontextlost` and `webglcontextrestored` there. */
  readonly canvas: EventTarget;
  /** Every layer under it cached as a texture (`cacheAsTexture`) is drawn again. */
  readonly stage: Container;
  /** Draws a frame at once (the frame loop's `drawNow`). */
  drawNow(): void;
  /** Wall-clock ms (`performance.now`), for the time from the restore to the frame drawn. */
  now(): number;
  /** Names a moment for the tests (`gpu:gpu-context-lost`, `gpu:gpu-context-restored`). */
  emit(event: string): void;
}

/**
 * A lost WebGL context survived (issue 52). A GPU reset or a driver update takes every texture,
 * buffer and shader off the GPU. pixi v8 listens to the canvas itself: it calls `preventDefault`
 * on the loss (without it the browser never restores the context) and, on the restore, makes its
 * GL objects anew and uploads again what it still has the pixels of: images and canvases (the
 * live texts' bitmap fonts among them), Graphics' geometry, and the canvas texts it regenerates.
 * What was drawn on the GPU into a render texture has no copy anywhere: the buttons' faces, the
 * felt's art and the road maps (`generateTexture`), and every layer cached as a texture. (The card
 * atlas is read back into a canvas once drawn, so pixi restores it itself: cards/card-art.ts.) Those would come back blank, a dead screen. pixi's maintainers say so: the app must
 * draw them again (pixijs/pixijs#10497).
 *
 * So one mechanism for every screen: each registers what it baked with a way to draw it again;
 * on the restore (after pixi's own handler, which was registered first, at the renderer's start)
 * each is drawn again, every cached layer under the stage is marked to be, a frame is drawn at
 * once, and the screen says so (`report`: a line in the host's log). While the context is lost the
 * screen draws nothing (`lost`): pixi's GL calls would fail against a dead context.
 */
export class ContextLoss {
  private readonly bakers = new Map<BakedArt, Set<Redraw>>();
  /** Whether the context is lost now: no frame is drawn meanwhile. */
  lost = false;
  /** Where reports go (the host's log, through the screen's link): set once the link exists; none before. */
  private send: ((body: ReportBody) => void) | null = null;

  constructor(private readonly d: ContextLossDeps) {
    d.canvas.addEventListener('webglcontextlost', () => this.onLost());
    d.canvas.addEventListener('webglcontextrestored', () => this.onRestored());
  }

  /** Art a screen baked, drawn again by `redraw` after a lost context; the returned function forgets it. */
  readonly add: Rebake = (art, redraw) => {
    let set = this.bakers.get(art);
    if (!set) this.bakers.set(art, (set = new Set()));
    set.add(redraw);
    return () => void set.delete(redraw);
  };

  /** From now on reports go to `send` (the screen's link to its host). */
  readonly reportTo = (send: (body: ReportBody) => void): void => {
    this.send = send;
  };

  private report(body: ReportBody): void {
    this.d.emit(`gpu:${body.event}`);
    this.send?.(body);
  }

  private onLost(): void {
    this.lost = true;
    this.report({ event: 'gpu-context-lost' });
  }

  private onRestored(): void {
    const start = this.d.now();
    this.lost = false;
    const redrawn: BakedArt[] = [];
    const failed: BakedArt[] = [];
    for (const [art, redraws] of this.bakers) {
      let drew = false;
      try {
        for (const redraw of redraws) drew = redraw() || drew;
      } catch (e) {
        // One art that cannot be drawn must not leave the others blank; the log says which.
        console.error(`could not draw ${art} again after a lost WebGL context`, e);
        failed.push(art);
        continue;
      }
      if (drew) redrawn.push(art);
    }
    // After the bakes: a cached layer holding a baked sprite is drawn with its new texture.
    const cachedLayers = markCachedLayers(this.d.stage);
    this.d.drawNow();
    this.report({ event: 'gpu-context-restored', redrawn, failed, cachedLayers, ms: Math.round(this.d.now() - start) });
  }
}

/** Every layer cached as a texture under `root` marked to be drawn again at the next frame; their count. */
function markCachedLayers(root: Container): number {
  let n = 0;
  const visit = (node: Container) => {
    if (node.isCachedAsTexture) {
      node.updateCacheTexture();
      n++;
    }
    for (const child of node.children) visit(child);
  };
  visit(root);
  return n;
}
