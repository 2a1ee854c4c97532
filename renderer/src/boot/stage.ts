import 'pixi.js/unsafe-eval';
// What the screens use of what pixi's browser environment would register (`pixi.js/browser`, loaded
// at `init` unless `manageImports` is false): pointer events (every press) and the accessibility
// layer (the buttons are `accessible`). Not its DOM pipe (no DOMContainer: it adds a div and a
// ResizeObserver to every page) nor its filter systems (no filter is set on anything).
import 'pixi.js/accessibility';
import 'pixi.js/events';
import { Application, Container } from 'pixi.js';
import { COLORS, DESIGN } from '../ui/theme.js';

/**
 * The pixi application with a root container laid out in design units (1920×1080) and scaled
 * to the window, letterboxed, so 16:9 and 16:10 displays both show the whole layout. WebGL is
 * preferred: WebGPU implementations still differ between browsers.
 */
export async function createStage(): Promise<{ app: Application; root: Container; onFit(listener: () => void): void }> {
  const app = new Application();
  await app.init({
    preference: 'webgl',
    manageImports: false,
    background: COLORS.background,
    resizeTo: window,
    antialias: true,
    autoDensity: true,
    resolution: Math.max(1, window.devicePixelRatio || 1),
    // Frames are drawn on demand by the screen's frame loop (frames.ts), not by a ticker every display frame.
    autoStart: false,
    sharedTicker: false,
  });
  app.ticker.stop();
  document.body.appendChild(app.canvas);
  const root = new Container();
  app.stage.addChild(root);
  const fit = () => {
    const scale = Math.min(app.screen.width / DESIGN.width, app.screen.height / DESIGN.height);
    root.scale.set(scale);
    root.position.set((app.screen.width - DESIGN.width * scale) / 2, (app.screen.height - DESIGN.height * scale) / 2);
  };
  const listeners: (() => void)[] = [];
  app.renderer.on('resize', () => {
    fit();
    for (const l of listeners) l();
  });
  fit();
  return { app, root, onFit: (l) => listeners.push(l) };
}
