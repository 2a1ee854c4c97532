import { BitmapText, Graphics, Sprite, Text, type Container } from 'pixi.js';
import { CardView } from '../cards/card-view.js';
import { FeltView } from '../felt/felt-art.js';
import { Button } from '../ui/button.js';
import { BAKED } from '../pixi/bake.js';
import { CachedLayer } from '../pixi/cached-layer.js';
import { TableRound } from '../screens/table-round.js';
import type { KioskTestHooks } from './kiosk-hooks.js';
import { findLast, walk } from './walk.js';

/** The strings drawn on the stage. */
export function stageTexts(stage: Container): string[] {
  const out: string[] = [];
  walk(stage, (c) => {
    if ((c instanceof Text || c instanceof BitmapText) && c.text !== '') out.push(c.text);
  });
  return out;
}

/** The codes of the cards in play on the stage (burns on the discard pile are not in play). */
export function stageCards(stage: Container): string[] {
  const out: string[] = [];
  const inPlay = (c: Container): void => {
    if (!c.visible || c.label === 'discard-pile') return;
    if (c instanceof CardView) out.push(c.code());
    for (const child of c.children) inPlay(child);
  };
  inPlay(stage);
  return out;
}

/** Where the button with this test id is, in CSS pixels. */
export function buttonBounds(stage: Container, testId: string): ReturnType<KioskTestHooks['bounds']> {
  const found = findLast(stage, (c): c is Button => c instanceof Button && c.testId === testId);
  if (!found) return null;
  const b = found.getBounds();
  return { x: b.x, y: b.y, width: b.width, height: b.height };
}

/** The felt's half-ellipse in CSS pixels. */
export function feltExtent(stage: Container): ReturnType<KioskTestHooks['felt']> {
  const f = findLast(stage, (c): c is FeltView => c instanceof FeltView);
  if (!f) return null;
  const centre = f.toGlobal({ x: f.extent.cx, y: f.extent.top });
  const corner = f.toGlobal({ x: f.extent.cx + f.extent.rx, y: f.extent.top + f.extent.ry });
  let graphics = 0;
  const count = (c: Container) => {
    if (c instanceof Graphics) graphics++;
    for (const child of c.children) count(child);
  };
  count(f);
  return { cx: centre.x, top: centre.y, rx: corner.x - centre.x, ry: corner.y - centre.y, graphics };
}

/** The baked art on the stage, where each lies in its parent's design units. */
export function bakedArt(stage: Container): ReturnType<KioskTestHooks['baked']> {
  const out: ReturnType<KioskTestHooks['baked']> = [];
  walk(stage, (c) => {
    if (c instanceof Sprite && c.label === BAKED) out.push({ x: c.x, y: c.y });
  });
  return out;
}

/** The buttons on the stage and the Graphics under them (their faces, where not baked). */
export function buttonFaces(stage: Container): ReturnType<KioskTestHooks['faces']> {
  let buttons = 0;
  let graphics = 0;
  walk(stage, (c) => {
    if (!(c instanceof Button)) return;
    buttons++;
    walk(c, (g) => {
      if (g instanceof Graphics) graphics++;
    });
  });
  return { buttons, graphics };
}

/** The highlight ring where the next card or decision is due, in CSS pixels. */
export function highlightRing(stage: Container): ReturnType<KioskTestHooks['highlight']> {
  const layer = findLast(stage, (c): c is TableRound => c instanceof TableRound);
  const h = layer?.highlight() ?? null;
  if (!layer || !h) return null;
  const css = (p: { x: number; y: number; r: number }) => {
    const c = layer.toGlobal({ x: p.x, y: p.y });
    const e = layer.toGlobal({ x: p.x + p.r, y: p.y });
    return { x: c.x, y: c.y, r: e.x - c.x };
  };
  return { ...css(h), seat: h.seat, decision: h.decision, moving: h.moving, spot: h.spot ? css(h.spot) : null };
}

/**
 * The layers cached as textures (`CachedLayer`) on the stage: whether the texture pixi last drew each
 * into is multisampled, and the Graphics shown in each (vector art, the one thing multisampling smooths).
 */
export function cachedLayers(stage: Container): ReturnType<KioskTestHooks['layers']> {
  const out: ReturnType<KioskTestHooks['layers']> = [];
  walk(stage, (c) => {
    if (!(c instanceof CachedLayer)) return;
    let graphics = 0;
    const count = (n: Container, shown: boolean) => {
      if (n instanceof Graphics && shown && n.visible) graphics++;
      for (const child of n.children) count(child, shown && n.visible);
    };
    count(c, true);
    const texture = c.renderGroup?.texture;
    out.push({ label: c.label, antialias: texture ? texture.source.antialias : null, graphics });
  });
  return out;
}
