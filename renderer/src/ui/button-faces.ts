import { Graphics, GraphicsContext, Sprite, type Container, type Texture } from 'pixi.js';
import { DISPOSE } from '../pixi/dispose.js';
import { BAKED, type Bake } from '../pixi/bake.js';
import { COLORS } from './theme.js';

/** What a button's face looks like: its size, its kind, and whether it is highlighted. */
export interface Face {
  width: number;
  height: number;
  /** A round casino chip of this colour instead of a rounded rectangle. */
  chip?: number;
  /** The rectangle's fill when idle. */
  idle?: number;
  active: boolean;
}

interface Baked {
  texture: Texture;
  x: number;
  y: number;
}

interface Held {
  readonly face: Face;
  /** Where the screen cannot bake (no renderer: the Node tests), the drawn geometry itself. */
  context: GraphicsContext | null;
  baked: Baked | null;
  /** The sprites showing the baked face: given the new texture when it is drawn again. */
  readonly shown: Set<Sprite>;
  users: number;
  /** When an idle screen first found no button showing it (`releaseUnusedFaces`); null while shown. */
  unusedSince: number | null;
}

/**
 * How long an idle screen keeps a look no button shows before letting it go (ms): a spot lit by the
 * player's bet is dark from the round's end to the next bet, and drawn again at each bet it was a
 * Graphics, a render texture and a sprite made and destroyed every round (issue 52).
 */
export const FACE_KEPT_MS = 60_000;

/**
 * The faces drawn, one per look, shared by every button that has it. pixi keeps a drawn context's
 * vertices, uvs and indices as plain JS arrays, with a heap number for every coordinate that is
 * not whole (about 11 KB for a rounded button, 30 KB for a chip): a station's row of equal tool
 * buttons, its language buttons and its bet spots each kept their own copy, and its five chips
 * one each (issue 31, `BENCH_HEAP_SNAPSHOT_DIR`). Where the screen can bake, each look is drawn
 * once into a texture and its geometry let go; the face is then a sprite of it. Counted: a look no
 * button shows is let go when the screen is idle (`releaseUnusedFaces`), not at once, since a
 * station rebuilds its buttons with the same looks at every change of the legal actions or the
 * language, and would draw each again.
 */
const held = new Map<string, Held>();
let bakery: { bake: Bake; resolution: number } | null = null;

const keyOf = (f: Face): string => `${f.width}x${f.height}:${f.chip ?? '-'}:${f.idle ?? '-'}:${f.active ? 1 : 0}`;

/**
 * From now on faces are drawn into textures at this resolution (device pixels per design unit).
 * Installed at boot, before the first button: a look drawn before stays geometry until let go.
 * `null` (tests): faces drawn from now on keep their geometry.
 */
export function installFaceBake(bake: Bake | null, resolution: number): void {
  bakery = bake ? { bake, resolution } : null;
}

/** The display's resolution changed: every face is drawn again at it, in the sprites that show it. */
export function sharpenFaces(resolution: number): void {
  if (!bakery || bakery.resolution === resolution) return;
  bakery = { ...bakery, resolution };
  // Looks no button shows are let go rather than drawn again for nobody.
  releaseUnusedFaces();
  for (const h of held.values()) if (h.baked) bake(h);
}

/**
 * Every face drawn again at the resolution it has (a lost WebGL context took the textures' pixels,
 * pixi/context-loss.ts); false when no face is baked.
 */
export function redrawFaces(): boolean {
  let drew = false;
  for (const h of held.values())
    if (h.baked) {
      bake(h);
      drew = true;
    }
  return drew;
}

/**
 * A display object of the face, drawn on the look's first use. Give it back with `releaseFace`.
 * `reuse`: a sprite of another baked look, shown with this one's texture instead of a new sprite
 * (`swapFace`; used only when this look is baked, else a new display object is made).
 */
export function acquireFace(face: Face, reuse?: Sprite): Container {
  const key = keyOf(face);
  let h = held.get(key);
  if (!h) {
    h = { face, context: null, baked: null, shown: new Set(), users: 0, unusedSince: null };
    if (bakery) bake(h);
    else h.context = draw(face);
    // Only once drawn: a bake that threw leaves no look half made for the next button to show.
    held.set(key, h);
  }
  h.users++;
  h.unusedSince = null;
  if (!h.baked) return new Graphics(h.context ?? undefined);
  const sprite = reuse ?? new Sprite(h.baked.texture);
  sprite.texture = h.baked.texture;
  sprite.position.set(h.baked.x, h.baked.y);
  sprite.label = BAKED;
  h.shown.add(sprite);
  return sprite;
}

/**
 * `shown` (what `acquireFace(from)` gave) made to show the look `to` instead, and given back: where
 * both looks are baked, the same sprite with the other texture (a spot lit by a bet and dark again
 * next round, a chip chosen: no sprite made and destroyed each time). Else a new one acquired:
 * the caller puts it in the old one's place and gives the old one back (`releaseFace`).
 */
export function swapFace(from: Face, shown: Container, to: Face): Container {
  if (keyOf(from) === keyOf(to)) return shown;
  const old = held.get(keyOf(from));
  const reuse = shown instanceof Sprite && old?.shown.has(shown) ? shown : undefined;
  const next = acquireFace(to, reuse);
  if (next === reuse && old) {
    old.shown.delete(reuse);
    old.users--;
  }
  return next;
}

/** Gives back what `acquireFace` returned (destroyed here); a look no button shows waits for `releaseUnusedFaces`. */
export function releaseFace(face: Face, shown: Container): void {
  const h = held.get(keyOf(face));
  if (shown instanceof Sprite) h?.shown.delete(shown);
  // The shared texture or context is not the display object's to destroy.
  shown.destroy();
  if (h) h.users--;
}

/**
 * The screen is idle (its next frame a second or more away): the looks no button shows are let go,
 * those no button has shown for FACE_KEPT_MS when given the screen's clock (`now`), all at once
 * without it (a new resolution, the tests).
 */
export function releaseUnusedFaces(now?: number): void {
  for (const [key, h] of held) {
    if (h.users > 0) {
      h.unusedSince = null;
      continue;
    }
    if (now !== undefined) {
      h.unusedSince ??= now;
      if (now - h.unusedSince < FACE_KEPT_MS) continue;
    }
    held.delete(key);
    h.context?.destroy();
    h.baked?.texture.destroy(true);
  }
}

/** How many faces are drawn now (tests). */
export function liveFaces(): number {
  return held.size;
}

/** The face drawn (again) into a texture, its geometry let go; the sprites showing it follow. */
function bake(h: Held): void {
  if (!bakery) return;
  const g = new Graphics(draw(h.face));
  const sprite = bakery.bake(g, bakery.resolution);
  g.destroy(DISPOSE);
  const old = h.baked;
  h.baked = { texture: sprite.texture, x: sprite.x, y: sprite.y };
  sprite.destroy();
  for (const s of h.shown) {
    s.texture = h.baked.texture;
    s.position.set(h.baked.x, h.baked.y);
  }
  old?.texture.destroy(true);
}

function draw(f: Face): GraphicsContext {
  const g = new GraphicsContext();
  if (f.chip !== undefined) {
    const r = Math.min(f.width, f.height) / 2;
    const cx = f.width / 2;
    const cy = f.height / 2;
    g.circle(cx, cy, r).fill({ color: f.chip });
    // Edge inserts, as on real chips: six white blocks around the rim.
    for (let i = 0; i < 6; i++) {
      const a = (i * Math.PI) / 3;
      g.circle(cx + Math.cos(a) * r * 0.84, cy + Math.sin(a) * r * 0.84, r * 0.13).fill({ color: 0xf4ecd8 });
    }
    g.circle(cx, cy, r * 0.66)
      .fill({ color: 0x0b0b0b, alpha: 0.25 })
      .stroke({ width: 3, color: 0xf4ecd8, alpha: 0.9 });
    if (f.active) g.circle(cx, cy, r + 5).stroke({ width: 6, color: COLORS.gold });
    return g;
  }
  return g
    .roundRect(0, 0, f.width, f.height, 18)
    .fill({ color: f.active ? COLORS.buttonActive : (f.idle ?? COLORS.buttonIdle) })
    .stroke({ width: 3, color: COLORS.gold });
}
