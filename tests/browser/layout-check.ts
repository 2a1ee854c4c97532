import { feltMeetsRect } from '../../renderer/src/felt/felt-layout.js';
import type {} from './kiosk-fixture.js';

// The layout checks the browser tests run on what a screen drew (its test hook's boxes).

export type Box = Awaited<ReturnType<NonNullable<Window['__kiosk']>['boxes']>>[number];

/**
 * Pairs that overlap by more than a pixel each way: any two texts or buttons (a button's own
 * caption and limits against each other, not against their button), a card on a text, a button
 * or a printed word, and anything drawn on the felt's printed words. Cards of one hand overlap
 * by design, and printed words are artwork among themselves.
 */
export function overlapping(boxes: Box[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i]!;
      const b = boxes[j]!;
      // Panels hold their own words; a celebration's room is held to the felt below.
      if (a.kind === 'panel' || b.kind === 'panel' || a.kind === 'overlay' || b.kind === 'overlay') continue;
      if (a.kind === 'card' && b.kind === 'card') continue;
      if (a.kind === 'print' && b.kind === 'print') continue;
      if ((a.kind === 'button' && b.owner === a.label) || (b.kind === 'button' && a.owner === b.label)) continue;
      const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
      const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
      if (w > 1 && h > 1) out.push(`${a.kind} "${a.label}" × ${b.kind} "${b.label}"`);
    }
  return out;
}

export type Felt = NonNullable<Awaited<ReturnType<NonNullable<Window['__kiosk']>['felt']>>>;

/**
 * Nothing beside the felt lies on it: the panels (road maps, last rounds) and the language
 * buttons stay off its half-ellipse, rail included; and a celebration, drawn over the felt on
 * purpose, keeps its words and rays off the panels and the buttons. A pixel of antialiasing is
 * allowed, as above.
 */
export function offTheFelt(felt: Felt | null, boxes: Box[]): string[] {
  const out: string[] = [];
  const shrunk = (b: Box) => ({ x: b.x + 1, y: b.y + 1, width: b.width - 2, height: b.height - 2 });
  const beside = boxes.filter((b) => b.kind === 'panel' || b.kind === 'button');
  if (felt) for (const b of beside) if (feltMeetsRect(felt, shrunk(b))) out.push(`${b.kind} "${b.label}" on the felt`);
  for (const o of boxes.filter((b) => b.kind === 'overlay'))
    for (const b of beside) {
      const w = Math.min(o.x + o.width, b.x + b.width) - Math.max(o.x, b.x);
      const h = Math.min(o.y + o.height, b.y + b.height) - Math.max(o.y, b.y);
      if (w > 1 && h > 1) out.push(`celebration "${o.label}" × ${b.kind} "${b.label}"`);
    }
  return out;
}
