import type { Text } from 'pixi.js';

/** A text's width in its parent's units at its style's font size now: pixi measures it (tests give their own). */
export type MeasureText = (text: Text) => number;

/** pixi's own measure (a canvas's text metrics): the browser's. */
export const measuredWidth: MeasureText = (text) => text.width;

/**
 * The text's font size from `size` down, a whole size at a time, until the text is no wider than
 * `width` (never below `min`): a line whose numbers grow (a shoe's counts, issue 52) stays inside its
 * box, and so does the texture pixi draws it into. Unfitted, the table's road statistics ran past the
 * panel and off the screen's right edge once a count had two digits; the still layer caching them
 * grew past the screen's width (a second full-screen texture) and the line's own texture to the
 * next power of two. Returns the size set.
 */
export function fitFontSize(text: Text, size: number, width: number, measure: MeasureText = measuredWidth, min = Math.ceil(size / 2)): number {
  let s = size;
  text.style.fontSize = s;
  let w = measure(text);
  // Most lines fit at once; one too wide goes straight to about the size that fits, then down by one.
  if (w > width && s > min) {
    s = Math.max(min, Math.min(s - 1, Math.floor((s * width) / w)));
    text.style.fontSize = s;
    w = measure(text);
  }
  while (w > width && s > min) {
    s -= 1;
    text.style.fontSize = s;
    w = measure(text);
  }
  return s;
}
