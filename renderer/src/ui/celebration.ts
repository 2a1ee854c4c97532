import { Container, Graphics, Text } from 'pixi.js';
import { celebrationFrame } from '../anim/celebrate.js';
import { COLORS, textStyle } from './theme.js';

export { CELEBRATE_MS } from '../anim/celebrate.js';

/**
 * A prize or side-bet win announced where it happened (a seat on the table, the station's own
 * play area): gold rays and the prize's name with the amount, for CELEBRATE_MS, driven by the
 * screen's ticker and clock. It is an overlay (label `overlay`): over the felt on purpose, gone
 * in seconds, so the layout check leaves it out.
 */
export class Celebration extends Container {
  private readonly rays = new Graphics();
  private readonly plate = new Graphics();
  private readonly text: Text;
  private startedAt = -1;

  constructor(fontSize = 40) {
    super();
    this.label = 'overlay';
    this.text = new Text({ text: '', style: textStyle({ fontSize, fill: '#1b1205', fontWeight: '700', align: 'center' }) });
    this.text.anchor.set(0.5);
    this.addChild(this.rays, this.plate, this.text);
    this.visible = false;
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
    const w = this.text.width + 56;
    const h = this.text.height + 28;
    this.plate
      .clear()
      .roundRect(-w / 2, -h / 2, w, h, Math.min(28, h / 2))
      .fill({ color: COLORS.gold })
      .stroke({ width: 4, color: 0xfff4c8 });
    this.rays.clear();
    const r = Math.max(w, h) * 0.62;
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
