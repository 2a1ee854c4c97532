import type { PixiCounts } from './pixi-counts.js';
import type { TextureSourceRow } from './texture-sources.js';

/**
 * A narrow, read-only window onto the screen for end-to-end tests (Signal's and Excalidraw's
 * habit): named events to wait on instead of sleeping, the strings actually drawn, and where a
 * button is so the test can press it with a real pointer. It exposes nothing the screen itself
 * does not already show.
 */
export interface KioskTestHooks {
  /** The moments the screen passed, recorded only under automation (`navigator.webdriver`; event-log.ts). */
  events: string[];
  /** Records no more events and lets go of them (a bench, once its page is open: it measures the page as a kiosk runs it). */
  quiet(): void;
  texts(): string[];
  /** The codes of the cards in play on screen (`XX` for a card face down; burns on the discard pile are not in play). */
  cards(): string[];
  bounds(testId: string): { x: number; y: number; width: number; height: number } | null;
  /**
   * Whether the stage is fitted to the window as it is now. After a resize pixi fits the stage in
   * an animation frame of its own: until then `bounds` is the other size's layout, and a press
   * looked up now may land after the fit, where the button was at that size.
   */
  fitted(): boolean;
  /**
   * Bounds of everything the overlap check compares, in CSS pixels: texts and buttons (a button's
   * own caption and limits are texts with the button as `owner`), the felt's printed words
   * (`print`), the cards (`card`), the panels beside the felt (`panel`: the road maps, the last
   * rounds) and the room each celebration placed this round takes at its largest (`overlay`, shown
   * or not: it is gone in seconds, its room is not).
   */
  boxes(): {
    kind: 'text' | 'button' | 'print' | 'card' | 'panel' | 'overlay';
    label: string;
    owner?: string;
    x: number;
    y: number;
    width: number;
    height: number;
  }[];
  /** The half-ellipse the table's felt covers, rail included, in CSS pixels (`top` is its straight dealer's edge); null off the table display. */
  felt(): {
    cx: number;
    top: number;
    rx: number;
    ry: number;
    /** Graphics the felt still holds: none once its art is drawn into textures (issue 31: their geometry stays in the heap). */
    graphics: number;
  } | null;
  /**
   * Where each sprite of baked art (`ScreenContext.bake`: the felt, the table's road maps; the buttons' faces) lies in
   * its parent's design units: on whole units, or its texels fall between the pixels of the layer
   * that caches it (1-unit lines drawn 2 px wide at half contrast).
   */
  baked(): { x: number; y: number }[];
  /**
   * Each layer cached as a texture (`CachedLayer`): whether the texture pixi last drew it into is
   * multisampled (null before its first frame), and the Graphics shown in it. A layer of texts and
   * baked art is drawn without multisampling (issue 52: the table's still layer at every coup).
   */
  layers(): { label: string; antialias: boolean | null; graphics: number }[];
  /** The buttons on the stage, and the Graphics they still hold: none once their faces are drawn into textures (issue 31). */
  faces(): { buttons: number; graphics: number };
  /** With `?clock=stepped`: moves the animation clock and draws a frame. */
  step(ms: number): void;
  /**
   * The highlight ring where the next card or decision is due, in CSS pixels (its centre and
   * outer radius), with the seat it names and that seat's main spot (null off a seat); null when
   * none is drawn.
   */
  highlight(): {
    x: number;
    y: number;
    r: number;
    seat: number | null;
    /** A decision awaited (else a card due). */
    decision: boolean;
    /** A card still flying or turning. */
    moving: boolean;
    spot: { x: number; y: number; r: number } | null;
  } | null;
  /** Frames drawn since the page opened: a still screen draws none (render on demand). */
  framesDrawn(): number;
  /** What pixi holds on the GPU: textures, render textures, their bytes, Graphics contexts (the long-run bench, issue 52). */
  pixi(): PixiCounts;
  /** Every texture source pixi holds on the GPU, with its size and what holds it (the long-run bench's BENCH_LONG_TEXTURES). */
  textureSources(): TextureSourceRow[];
  /**
   * With `?trace=1` (benchmarks): each card sprite put on the stage, by face and `performance.now()`,
   * recorded as it happens (no stage walk, no per-frame work); deleting it stops the recording.
   */
  cardTrace?: { code: string; t: number }[];
  /** With `?trace=1`: each time the jackpot panel drew new pools, and when (`performance.now()`). */
  jackpotTrace?: { pools: string; t: number }[];
  /** With `?trace=1`: the animation-frame timestamp of each frame drawn, in a preallocated array (no allocation per frame). */
  frameTrace?: { at: Float64Array; n: number };
}

declare global {
  interface Window {
    __kiosk?: KioskTestHooks;
  }
}
