import { DOMAdapter, type Adapter, type ICanvas } from 'pixi.js';

/**
 * For the Node tests of screens (never imported by a page): a canvas whose 2D context measures a
 * string as 0.55 em a character and draws nothing, installed as pixi's DOM adapter. pixi measures a
 * Text's words (its width, to fit a button) and draws a bitmap font's glyphs on a canvas, which Node
 * has none of; the tests count and place pixi objects, none reads a pixel.
 */
export function installNodeCanvas(): void {
  class Context2D {
    canvas: ICanvas;
    font = '10px sans-serif';
    constructor(canvas: ICanvas) {
      this.canvas = canvas;
    }
    measureText(text: string): TextMetrics {
      const size = Number(/(\d+(?:\.\d+)?)px/.exec(this.font)?.[1] ?? 10);
      const width = text.length * size * 0.55;
      return {
        width,
        actualBoundingBoxLeft: 0,
        actualBoundingBoxRight: width,
        actualBoundingBoxAscent: size * 0.8,
        actualBoundingBoxDescent: size * 0.2,
        fontBoundingBoxAscent: size * 0.8,
        fontBoundingBoxDescent: size * 0.2,
      } as TextMetrics;
    }
    getImageData(_x: number, _y: number, w: number, h: number): { width: number; height: number; data: Uint8ClampedArray } {
      return { width: w, height: h, data: new Uint8ClampedArray(Math.max(0, w * h * 4)) };
    }
  }
  /** Every other call a 2D context answers (fillText, save, setTransform…) does nothing here. */
  const context = (canvas: ICanvas) =>
    new Proxy(new Context2D(canvas), {
      get: (target, key, receiver) => (key in target ? Reflect.get(target, key, receiver) : typeof key === 'string' ? () => undefined : undefined),
      set: (target, key, value) => Reflect.set(target, key, value),
    });
  const createCanvas = (width = 1, height = 1): ICanvas => {
    const canvas = { width, height, style: {} } as unknown as ICanvas;
    let ctx: unknown = null;
    canvas.getContext = ((kind: string) => (kind === '2d' ? (ctx ??= context(canvas)) : null)) as ICanvas['getContext'];
    return canvas;
  };
  const adapter: Adapter = {
    createCanvas,
    createImage: () => ({}) as ReturnType<Adapter['createImage']>,
    getCanvasRenderingContext2D: () => Context2D as unknown as ReturnType<Adapter['getCanvasRenderingContext2D']>,
    getWebGLRenderingContext: () => class {} as unknown as typeof WebGLRenderingContext,
    getNavigator: () => ({ userAgent: 'node', gpu: null }),
    getBaseUrl: () => 'http://localhost/',
    getFontFaceSet: () => null,
    fetch: () => Promise.reject(new Error('no fetch in the Node tests of screens')),
    parseXML: () => {
      throw new Error('no XML in the Node tests of screens');
    },
  };
  DOMAdapter.set(adapter);
}
