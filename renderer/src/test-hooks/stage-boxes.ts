import { BitmapText, Text, type Container } from 'pixi.js';
import { CardView } from '../cards/card-view.js';
import { Celebration } from '../ui/celebration.js';
import { Button } from '../ui/button.js';
import type { KioskTestHooks } from './kiosk-hooks.js';

type Box = ReturnType<KioskTestHooks['boxes']>[number];

function box(node: Container): { x: number; y: number; width: number; height: number } {
  const b = node.getBounds();
  return { x: b.x, y: b.y, width: b.width, height: b.height };
}

/** The room a placed celebration takes at its largest (shown or not: it is gone in seconds, its room is not). */
function overlayBox(node: Celebration): Box | null {
  if (!node.placed || !node.parent) return null;
  const e = node.extent();
  const a = node.parent.toGlobal({ x: e.x, y: e.y });
  const b = node.parent.toGlobal({ x: e.x + e.width, y: e.y + e.height });
  return { kind: 'overlay', label: node.words, x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y };
}

/** Bounds of everything the overlap check compares, in CSS pixels (`KioskTestHooks.boxes`). */
export function stageBoxes(stage: Container): Box[] {
  const out: Box[] = [];
  const visit = (node: Container, print: boolean, owner: string | undefined) => {
    if (node instanceof Celebration) {
      const o = overlayBox(node);
      if (o) out.push(o);
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
  visit(stage, false, undefined);
  return out;
}
