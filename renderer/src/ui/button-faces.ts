import { GraphicsContext } from 'pixi.js';
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

interface Held {
  context: GraphicsContext;
  users: number;
}

/**
 * The faces drawn, one geometry per look, shared by every button that has it. pixi keeps a drawn
 * context's vertices, uvs and indices as plain JS arrays (about 11 KB for a rounded button, 30 KB
 * for a chip): a station's row of equal tool buttons, its language buttons and its bet spots each
 * kept their own copy (issue 31, `BENCH_HEAP_SNAPSHOT_DIR`). Counted, so that the last button of
 * a look lets its geometry go.
 */
const held = new Map<string, Held>();

const keyOf = (f: Face): string => `${f.width}x${f.height}:${f.chip ?? '-'}:${f.idle ?? '-'}:${f.active ? 1 : 0}`;

/** The shared context for a face, drawn on first use. Give it back with `releaseFace`. */
export function acquireFace(face: Face): GraphicsContext {
  const key = keyOf(face);
  const h = held.get(key) ?? { context: draw(face), users: 0 };
  h.users++;
  held.set(key, h);
  return h.context;
}

export function releaseFace(face: Face): void {
  const key = keyOf(face);
  const h = held.get(key);
  if (!h) return;
  if (--h.users > 0) return;
  held.delete(key);
  h.context.destroy();
}

/** How many faces are drawn now (tests). */
export function liveFaces(): number {
  return held.size;
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
