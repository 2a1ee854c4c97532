import { Container, Graphics, Text } from 'pixi.js';
import { celebrationFrame, fitCelebration, POP_MAX, type Box } from '../anim/celebrate.js';
import { COLORS, textStyle } from './theme.js';

export { CELEBRATE_MS } from '../anim/celebrate.js';

/**
 * A prize or side-bet win announced where it happened (a seat on the table, the station's own
 * play area): gold rays and the prize's name with the amount, for CELEBRATE_MS, driven by the
 * screen's ticker and clock. It is an overlay (label `overlay`): over the felt on purpose, gone
 * in seconds; the layout check holds the room it takes at its largest (`extent()`) off the panels.
 */
export class Celebration extends Container {
  private readonly rays = new Graphics();
  private readonly plate = new Graphics();
  private readonly text: Text;
  private startedAt = -1;
  /** Where it is wanted and what it must keep clear of (`place`); none on a station's play area. */
  private wanted: { at: { x: number; y: number }; clear: readonly Box[]; screen: Box } | null = null;
  private raysRadius = 0;

  constructor(fontSize = 40) {
    super();
    this.label = 'overlay';
    this.text = new Text({ text: '', style: textStyle({ fontSize, fill: '#1b1205', fontWeight: '700', align: 'center' }) });
    this.text.anchor.set(0.5);
    this.addChild(this.rays, this.plate, this.text);
    this.visible = false;
  }

  /**
   * Wanted at `at` (a seat's cards), clear of `clear` (the road maps, the language buttons) and on
   * `screen`: the words move aside and the rays shorten where they would reach those.
   */
  place(at: { x: number; y: number }, clear: readonly Box[], screen: Box): void {
    this.wanted = { at, clear, screen };
    this.draw();
  }

  /** Starts (or restarts) the celebration with these lines at `now`. */
  start(lines: readonly string[], now: number): void {
    this.startedAt = now;
    this.setLines(lines);
    this.tick(now);
  }

  /** New words for a celebration already running (the screen's language changed): its timing stays. */
  setLines(lines: readonly string[]): void {
    const text = lines.join('\n');
    if (text === this.text.text) return;
    this.text.text = text;
    this.draw();
  }

  /** Whether it has been placed over a felt (`place`) and has words: what the layout check holds. */
  get placed(): boolean {
    return this.wanted !== null && this.text.text !== '';
  }

  /** Its words, for the layout check's messages. */
  get words(): string {
    return this.text.text;
  }

  /** The room it takes at the pop's largest, in its parent's coordinates: the rays' circle and the plate. */
  extent(): Box {
    const w = Math.max(this.raysRadius, (this.text.width + 56) / 2) * POP_MAX;
    const h = Math.max(this.raysRadius, (this.text.height + 28) / 2) * POP_MAX;
    return { x: this.x - w, y: this.y - h, width: 2 * w, height: 2 * h };
  }

  private draw(): void {
    const w = this.text.width + 56;
    const h = this.text.height + 28;
    this.plate
      .clear()
      .roundRect(-w / 2, -h / 2, w, h, Math.min(28, h / 2))
      .fill({ color: COLORS.gold })
      .stroke({ width: 4, color: 0xfff4c8 });
    let r = Math.max(w, h) * 0.62;
    if (this.wanted) {
      const fit = fitCelebration(this.wanted.at, { width: w, height: h }, r, this.wanted.clear, this.wanted.screen);
      this.position.set(fit.x, fit.y);
      r = fit.rays;
    }
    this.raysRadius = r;
    this.rays.clear();
    for (let i = 0; i < 16; i++) {
      const a = (i * Math.PI) / 8;
      const b = a + Math.PI / 22;
      this.rays.poly([0, 0, Math.cos(a) * r, Math.sin(a) * r, Math.cos(b) * r, Math.sin(b) * r]).fill({ color: 0xffe27a, alpha: 0.35 });
    }
  }

  /** Per frame; true while it is showing. */
  tick(now: number): boolean {
    if (this.startedAt < 0) return false;
    const f = celebrationFrame(now - this.startedAt);
    this.visible = f.visible;
    if (!f.visible) {
      this.startedAt = -1;
      return false;
    }
    this.scale.set(f.scale);
    this.alpha = f.alpha;
    // A slow turn of the rays, alpha and rotation only: nothing is redrawn per frame.
    this.rays.rotation = (now - this.startedAt) / 2400;
    return true;
  }

  get running(): boolean {
    return this.startedAt >= 0;
  }
}
