import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
let bundled: Promise<string> | null = null;

/**
 * pixi.js bundled for a bare page (the baselines of the screens benches), as one script that sets
 * `globalThis.PIXI`: the same library the screens use, with nothing of the kiosk's. Built once a process.
 */
export function barePixiScript(): Promise<string> {
  bundled ??= build({
    stdin: { contents: "import * as PIXI from 'pixi.js'; globalThis.PIXI = PIXI;", resolveDir: root, loader: 'js' },
    bundle: true,
    format: 'iife',
    minify: true,
    write: false,
    logLevel: 'error',
  }).then((r) => r.outputFiles[0]!.text);
  return bundled;
}

/** The bare scene's size and motion: the same in every bench that measures against it. */
export interface BareSceneOptions {
  width: number;
  height: number;
  /** Card-sized rounded rectangles moving every frame. */
  cards: number;
  /** pixi's own ticker draws every display frame; without it only `__bareStep` draws. */
  autoStart: boolean;
}

/** pixi's Application, typed as far as the bare scenes use it (the benches run in Node, without pixi's or the DOM's types). */
export type BareApplication = new () => {
  init(options: Record<string, unknown>): Promise<void>;
  canvas: unknown;
  stage: { addChild(child: unknown): void };
  ticker: { add(fn: () => void): void };
  render(): void;
};
/** The page's globals the bare scene uses. */
interface BareGlobals {
  PIXI?: { Application: BareApplication; Graphics: new () => BareGraphics };
  document: { body: { appendChild(node: unknown): void } };
  __bareStep?: () => void;
}
interface BareGraphics {
  rect(x: number, y: number, w: number, h: number): BareGraphics;
  roundRect(x: number, y: number, w: number, h: number, r: number): BareGraphics;
  fill(color: number): BareGraphics;
  stroke(style: { width: number; color: number }): BareGraphics;
  x: number;
  y: number;
}

/**
 * The bare scene, built in the page on `globalThis.PIXI` (`barePixiScript` first): a full-screen
 * felt-coloured rectangle and `cards` rounded rectangles moving every frame, no text, no textures,
 * with the stage options of renderer/src/boot/stage.ts (WebGL, antialias). Passed to
 * `page.evaluate`, so it uses nothing from outside itself. Leaves `globalThis.__bareStep`: one
 * tick of motion and a draw.
 */
export async function mountBareScene({ width, height, cards, autoStart }: BareSceneOptions): Promise<void> {
  const g = globalThis as unknown as BareGlobals;
  const PIXI = g.PIXI;
  if (!PIXI) throw new Error('pixi.js is not on the page: add barePixiScript() first');
  const app = new PIXI.Application();
  await app.init({ preference: 'webgl', background: 0x05140e, width, height, antialias: true, autoDensity: true, resolution: 1, autoStart });
  g.document.body.appendChild(app.canvas);
  app.stage.addChild(
    new PIXI.Graphics()
      .rect(40, 40, width - 80, height - 80)
      .fill(0x0b4d33)
      .stroke({ width: 4, color: 0xc9a64b }),
  );
  const moving: BareGraphics[] = [];
  for (let i = 0; i < cards; i++) {
    const card = new PIXI.Graphics().roundRect(0, 0, 150, 210, 12).fill(0xfafafa).stroke({ width: 2, color: 0x222222 });
    app.stage.addChild(card);
    moving.push(card);
  }
  let tick = 0;
  const move = () => {
    tick++;
    moving.forEach((c, i) => {
      c.x = 200 + i * 240 + 40 * Math.sin((tick + i * 10) / 20);
      c.y = 420 + 60 * Math.cos((tick + i * 7) / 25);
    });
  };
  if (autoStart) app.ticker.add(move);
  g.__bareStep = () => {
    move();
    app.render();
  };
}
