import { BitmapText, Text, type Application, type Container } from 'pixi.js';
import type { SteppedClock } from './anim/clock.js';
import { CardView } from './cards/card-view.js';
import { FeltView } from './felt/felt-art.js';
import { Celebration } from './ui/celebration.js';
import { setCardTrace, setFrameTrace, setJackpotTrace } from './trace.js';
import type { FrameLoop } from './pixi/frames.js';
import { Button } from './ui/button.js';
import { TableRound } from './screens/table-round.js';

/**
 * A narrow, read-only window onto the screen for end-to-end tests (Signal's and Excalidraw's
 * habit): named events to wait on instead of sleeping, the strings actually drawn, and where a
 * button is so the test can press it with a real pointer. It exposes nothing the screen itself
 * does not already show.
 */
export interface KioskTestHooks {
  events: string[];
  texts(): string[];
  /** The codes of the cards in play on screen (`XX` for a card face down; burns on the discard pile are not in play). */
  cards(): string[];
  bounds(testId: string): { x: number; y: number; width: number; height: number } | null;
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
  felt(): { cx: number; top: number; rx: number; ry: number } | null;
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

function walk(node: Container, visit: (c: Container) => void): void {
  if (!node.visible) return;
  visit(node);
  for (const child of node.children) walk(child, visit);
}

export function installTestHooks(app: Application, clock: SteppedClock | null, frames: FrameLoop): (event: string) => void {
  const hooks: KioskTestHooks = {
    events: [],
    texts() {
      const out: string[] = [];
      walk(app.stage, (c) => {
        if ((c instanceof Text || c instanceof BitmapText) && c.text !== '') out.push(c.text);
      });
      return out;
    },
    cards() {
      const out: string[] = [];
      const inPlay = (c: Container): void => {
        if (!c.visible || c.label === 'discard-pile') return;
        if (c instanceof CardView) out.push(c.code());
        for (const child of c.children) inPlay(child);
      };
      inPlay(app.stage);
      return out;
    },
    bounds(testId) {
      let found: Button | null = null;
      walk(app.stage, (c) => {
        if (c instanceof Button && c.testId === testId) found = c;
      });
      if (!found) return null;
      const b = (found as Button).getBounds();
      return { x: b.x, y: b.y, width: b.width, height: b.height };
    },
    boxes() {
      const out: ReturnType<KioskTestHooks['boxes']> = [];
      const box = (node: Container) => {
        const b = node.getBounds();
        return { x: b.x, y: b.y, width: b.width, height: b.height };
      };
      const visit = (node: Container, print: boolean, owner: string | undefined) => {
        if (node instanceof Celebration) {
          if (node.placed && node.parent) {
            const e = node.extent();
            const a = node.parent.toGlobal({ x: e.x, y: e.y });
            const b = node.parent.toGlobal({ x: e.x + e.width, y: e.y + e.height });
            out.push({ kind: 'overlay', label: node.words, x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y });
          }
          return;
        }
        if (!node.visible || node.alpha === 0 || node.label === 'overlay') return;
        if (node.label === 'panel') {
          out.push({ kind: 'panel', label: 'panel', ...box(node) });
          return;
        }
        if (node instanceof CardView) {
          out.push({ kind: 'card', label: node.code(), ...box(node) });
          return;
        }
        if (node instanceof Button) {
          out.push({ kind: 'button', label: node.testId, ...box(node) });
          owner = node.testId;
        } else if ((node instanceof Text || node instanceof BitmapText) && node.text !== '') {
          out.push({ kind: print ? 'print' : 'text', label: node.text, ...(owner ? { owner } : {}), ...box(node) });
        }
        for (const child of node.children) visit(child, print || node.label === 'felt-print', owner);
      };
      visit(app.stage, false, undefined);
      return out;
    },
    felt() {
      let found: FeltView | null = null;
      walk(app.stage, (c) => {
        if (c instanceof FeltView) found = c;
      });
      if (!found) return null;
      const f: FeltView = found;
      const centre = f.toGlobal({ x: f.extent.cx, y: f.extent.top });
      const corner = f.toGlobal({ x: f.extent.cx + f.extent.rx, y: f.extent.top + f.extent.ry });
      return { cx: centre.x, top: centre.y, rx: corner.x - centre.x, ry: corner.y - centre.y };
    },
    step(ms) {
      if (!clock) throw new Error('open the screen with ?clock=stepped to step its clock');
      clock.step(ms);
      frames.drawNow();
    },
    highlight() {
      let round: TableRound | null = null;
      walk(app.stage, (c) => {
        if (c instanceof TableRound) round = c;
      });
      const h = (round as TableRound | null)?.highlight() ?? null;
      if (!round || !h) return null;
      const layer: TableRound = round;
      const css = (p: { x: number; y: number; r: number }) => {
        const c = layer.toGlobal({ x: p.x, y: p.y });
        const e = layer.toGlobal({ x: p.x + p.r, y: p.y });
        return { x: c.x, y: c.y, r: e.x - c.x };
      };
      return { ...css(h), seat: h.seat, decision: h.decision, moving: h.moving, spot: h.spot ? css(h.spot) : null };
    },
    framesDrawn() {
      return frames.count;
    },
  };
  if (new URLSearchParams(location.search).get('trace') === '1') {
    // A benchmark deletes the list when it has what it measures: recording stops with it.
    hooks.cardTrace = [];
    setCardTrace((code) => hooks.cardTrace?.push({ code, t: performance.now() }));
    hooks.jackpotTrace = [];
    setJackpotTrace((pools) => hooks.jackpotTrace?.push({ pools, t: performance.now() }));
    const drawn = { at: new Float64Array(1 << 16), n: 0 };
    hooks.frameTrace = drawn;
    setFrameTrace((t) => {
      if (drawn.n < drawn.at.length) drawn.at[drawn.n++] = t;
    });
  }
  window.__kiosk = hooks;
  return (event) => {
    hooks.events.push(event);
  };
}
