import { BitmapFontManager, BitmapText, type Container } from 'pixi.js';
import { FONT_FAMILY } from './theme.js';

/**
 * Words and numbers that change often (a countdown, the credit meter, the jackpot's pools): a
 * BitmapText whose glyphs are drawn once into a shared atlas per size, weight and resolution
 * (pixi's dynamic bitmap font, with the bundled face, so the zh-Hant subset draws its own
 * glyphs); a new value lays out quads instead of rasterising a canvas and uploading a texture.
 * White glyphs tinted to the text's fill, so one font serves every colour.
 */
export interface LiveStyle {
  fontSize: number;
  fontWeight?: '400' | '600' | '700';
  fill: string | number;
  lineHeight?: number;
}

const installed = new Set<string>();
/** Bitmap text layouts kept between snapshots (pixi's cache would keep 1,000). */
const LAYOUTS_KEPT = 64;
/** Device pixels per design unit the live texts are drawn at (main.ts sets it from the display, with the other texts'). */
let current = 1;

function fontName(size: number, weight: string, resolution: number): string {
  const name = `live-${size}-${weight}-r${resolution}`;
  if (!installed.has(name)) {
    installed.add(name);
    BitmapFontManager.install({
      name,
      style: { fontFamily: FONT_FAMILY, fontSize: size, fontWeight: weight === '400' ? 'normal' : (weight as '600' | '700'), fill: 0xffffff },
      // Digits and the money signs now; any other glyph is added the first time it is shown.
      chars: [['0', '9'], ' .,:+-−$MOP'],
      resolution,
      padding: 4,
    });
  }
  return name;
}

/** Marks a text as live, so `sharpenLiveTexts` knows its size and weight. */
const specs = new WeakMap<BitmapText, { size: number; weight: string }>();

export function liveText(style: LiveStyle): BitmapText {
  const weight = style.fontWeight ?? '400';
  const text = new BitmapText({
    text: '',
    style: {
      fontFamily: fontName(style.fontSize, weight, current),
      fontSize: style.fontSize,
      fill: style.fill,
      ...(style.lineHeight ? { lineHeight: style.lineHeight } : {}),
    },
  });
  specs.set(text, { size: style.fontSize, weight });
  return text;
}

/** Draws every live text under `root` at `resolution` (a font per resolution, made once). */
export function sharpenLiveTexts(root: Container, resolution: number): void {
  current = resolution;
  // pixi keeps the layout of every string a bitmap text showed, up to 1,000: a meter or a countdown
  // shows a new one each time, so the cache would hold a thousand stale layouts on the heap.
  if (BitmapFontManager.measureCache.size > LAYOUTS_KEPT) BitmapFontManager.measureCache.clear();
  const visit = (node: Container) => {
    if (node instanceof BitmapText) {
      const spec = specs.get(node);
      if (spec) {
        const name = fontName(spec.size, spec.weight, resolution);
        if (node.style.fontFamily !== name) node.style.fontFamily = name;
      }
    }
    for (const child of node.children) visit(child);
  };
  visit(root);
}

/** The resolution new live texts are drawn at (before the first snapshot). */
export function setLiveResolution(resolution: number): void {
  current = resolution;
}
