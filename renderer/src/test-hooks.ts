import { Text, type Application, type Container } from 'pixi.js';
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
  /** The codes of the cards drawn on screen (`XX` for a card face down). */
  cards(): string[];
  bounds(testId: string): { x: number; y: number; width: number; height: number } | null;
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

export function installTestHooks(app: Application): (event: string) => void {
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
      walk(app.stage, (c) => {
        if (c instanceof CardView) out.push(c.code());
      });
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
  };
  window.__kiosk = hooks;
  return (event) => {
    hooks.events.push(event);
  };
}
