import { GraphicsContext } from 'pixi.js';

/**
 * The few looks a Graphics takes again and again (the table's ring on the seat or hand the next card
 * goes to, the phase's pill), each drawn once into a context of its own and kept: the Graphics is
 * given the look's context (`graphics.context = cache.get(…)`) instead of being cleared and drawn
 * again, which made new paths and shapes and built new geometry at every change, several times a
 * round, for weeks (issue 52). At most `max` looks are kept, the least recently used let go; one
 * Graphics per cache, so the look it shows is the one most recently asked for and never let go.
 */
export class ContextCache {
  private readonly looks = new Map<string, GraphicsContext>();

  constructor(private readonly max = 16) {}

  /** The look `key`, drawn by `draw` the first time it is asked for (or again after it was let go). */
  get(key: string, draw: (context: GraphicsContext) => void): GraphicsContext {
    let context = this.looks.get(key);
    if (context) {
      // Most recently used last: the first is the one to let go.
      this.looks.delete(key);
      this.looks.set(key, context);
      return context;
    }
    context = new GraphicsContext();
    draw(context);
    this.looks.set(key, context);
    if (this.looks.size > this.max) {
      const [oldest, old] = this.looks.entries().next().value!;
      this.looks.delete(oldest);
      old.destroy();
    }
    return context;
  }

  /** How many looks are kept (tests). */
  get size(): number {
    return this.looks.size;
  }

  /** Every look let go (the owner is destroyed; its Graphics no longer shows any of them). */
  destroy(): void {
    for (const context of this.looks.values()) context.destroy();
    this.looks.clear();
  }
}
