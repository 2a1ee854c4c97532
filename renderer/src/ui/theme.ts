import { TextStyle, type TextStyleOptions } from 'pixi.js';

/**
 * The bundled CJK face is named first: fontconfig would otherwise draw zh-MO text with Japanese
 * glyph forms. Latin text uses the same face so both languages on the felt match.
 */
export const FONT_FAMILY = ['Table Sans HK', 'Noto Sans CJK HK', 'Noto Sans CJK TC', 'sans-serif'];

/** The layout is designed at 1920×1080 and scaled to the display (letterboxed). */
export const DESIGN = { width: 1920, height: 1080 } as const;

/**
 * Touch targets on a player's station, in design units. 15 mm must hold on the smallest station
 * screen we support, 13.3″ at 1280×800 (113.5 dpi, 4.47 px/mm): the layout is scaled by
 * min(1280/1920, 800/1080) = 0.667 there, so 15 mm = 67 px = 100.5 units. 104 units give 15.5 mm
 * (docs/screens.md, "Sizes").
 */
export const TOUCH = { min: 104 } as const;

export const COLORS = {
  background: 0x05140e,
  feltInner: '#1f7a55',
  feltOuter: '#0c3f2c',
  rail: 0x3b2414,
  railEdge: 0x8a6a3a,
  gold: 0xd9b45b,
  goldText: '#e8c874',
  ivory: '#f4ecd8',
  muted: '#b9c9bf',
  panel: 0x0e2a1f,
  panelEdge: 0x5d8a6f,
  buttonActive: 0xd9b45b,
  buttonIdle: 0x123a2b,
  warning: '#ffb347',
} as const;

export function textStyle(options: TextStyleOptions): TextStyle {
  return new TextStyle({ fontFamily: FONT_FAMILY, fill: COLORS.ivory, fontSize: 32, ...options });
}
