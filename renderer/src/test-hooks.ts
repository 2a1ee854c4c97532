import { Text, type Application, type Container } from 'pixi.js';
import type { SteppedClock } from './anim/clock.js';
import { CardView } from './cards/card-view.js';
import { Button } from './ui/button.js';

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
  /** Bounds of every visible text and button, in CSS pixels, for the overlap check. */
  boxes(): { kind: 'text' | 'button'; label: string; x: number; y: number; width: number; height: number }[];
  /** With `?clock=stepped`: moves the animation clock and draws a frame. */
  step(ms: number): void;
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

export function installTestHooks(app: Application, clock: SteppedClock | null): (event: string) => void {
  const hooks: KioskTestHooks = {
    events: [],
    texts() {
      const out: string[] = [];
      walk(app.stage, (c) => {
        if (c instanceof Text && c.text !== '') out.push(c.text);
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
      const visit = (node: Container) => {
        if (!node.visible || node.alpha === 0 || node.label === 'felt-print') return;
        if (node instanceof Button) {
          const b = node.getBounds();
          out.push({ kind: 'button', label: node.testId, x: b.x, y: b.y, width: b.width, height: b.height });
          return;
        }
        if (node instanceof Text && node.text !== '') {
          const b = node.getBounds();
          out.push({ kind: 'text', label: node.text, x: b.x, y: b.y, width: b.width, height: b.height });
        }
        for (const child of node.children) visit(child);
      };
      visit(app.stage);
      return out;
    },
    step(ms) {
      if (!clock) throw new Error('open the screen with ?clock=stepped to step its clock');
      clock.step(ms);
      app.ticker.update();
    },
  };
  window.__kiosk = hooks;
  return (event) => {
    hooks.events.push(event);
  };
}
