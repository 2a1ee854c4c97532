import { Container, Graphics, Text } from 'pixi.js';
import { COLORS, textStyle } from './theme.js';

export interface ButtonLook {
  /** `chip`: a round casino chip of this colour instead of a rounded rectangle. */
  chip?: number;
  /** The fill when idle (decision buttons are coloured by what they do). */
  idle?: number;
}

/** A touch button; a player's buttons are at least TOUCH.min design units each way (≥ 15 mm, docs/screens.md). */
export class Button extends Container {
  private readonly bg = new Graphics();
  private readonly caption: Text;
  private readonly sub: Text;
  private active = false;
  private enabled = true;

  constructor(
    readonly testId: string,
    private readonly w: number,
    private readonly h: number,
    onPress: () => void,
    private readonly look: ButtonLook = {},
  ) {
    super();
    this.caption = new Text({ text: '', style: textStyle({ fontSize: Math.round(Math.min(h * 0.36, 46)), fontWeight: '700', align: 'center' }) });
    this.sub = new Text({ text: '', style: textStyle({ fontSize: Math.round(Math.min(h * 0.2, 26)), fill: COLORS.muted, align: 'center' }) });
    this.caption.anchor.set(0.5);
    this.sub.anchor.set(0.5);
    this.caption.position.set(w / 2, h / 2);
    this.sub.position.set(w / 2, h * 0.72);
    this.addChild(this.bg, this.caption, this.sub);
    this.eventMode = 'static';
    this.cursor = 'pointer';
    this.accessible = true;
    this.accessibleType = 'button';
    this.on('pointertap', () => {
      if (this.enabled) onPress();
    });
    this.draw();
  }

  setLabel(label: string, sub = ''): void {
    if (label === this.caption.text && sub === this.sub.text) return;
    this.caption.text = label;
    this.sub.text = sub;
    this.accessibleTitle = sub ? `${label} ${sub}` : label;
    // Long words (Português) shrink to fit rather than touch the edge.
    // A chip's value fits inside its inner ring, clear of the edge inserts.
    const room = this.look.chip !== undefined ? Math.min(this.w, this.h) * 0.6 : this.w - 28;
    for (const t of [this.caption, this.sub]) {
      t.scale.set(1);
      if (t.width > room) t.scale.set(room / t.width);
    }
    if (!sub) {
      this.caption.position.y = this.h / 2;
      return;
    }
    // Caption over the smaller lines, stacked by their measured heights and shrunk together if
    // they would not fit: the two never overlap, however many lines each has.
    const gap = 4;
    const inner = this.h - 16;
    const total = this.caption.height + gap + this.sub.height;
    if (total > inner) {
      const k = (inner - gap) / (total - gap);
      for (const t of [this.caption, this.sub]) t.scale.set(t.scale.x * k);
    }
    const top = (this.h - (this.caption.height + gap + this.sub.height)) / 2;
    this.caption.position.y = top + this.caption.height / 2;
    this.sub.position.y = top + this.caption.height + gap + this.sub.height / 2;
  }

  setActive(active: boolean): void {
    if (active === this.active) return;
    this.active = active;
    this.draw();
  }

  /** A disabled button stays visible (the layout does not jump) but greyed and inert. */
  setEnabled(enabled: boolean): void {
    if (enabled === this.enabled) return;
    this.enabled = enabled;
    this.alpha = enabled ? 1 : 0.4;
    this.cursor = enabled ? 'pointer' : 'default';
  }

  /** Highlighted (a chosen chip, a spot with a bet): drawn in its Graphics, which a cached layer's key does not see. */
  isActive(): boolean {
    return this.active;
  }

  isEnabled(): boolean {
    return this.enabled;
  }

  private draw(): void {
    this.bg.clear();
    if (this.look.chip !== undefined) {
      const r = Math.min(this.w, this.h) / 2;
      const cx = this.w / 2;
      const cy = this.h / 2;
      this.bg.circle(cx, cy, r).fill({ color: this.look.chip });
      // Edge inserts, as on real chips: six white blocks around the rim.
      for (let i = 0; i < 6; i++) {
        const a = (i * Math.PI) / 3;
        this.bg.circle(cx + Math.cos(a) * r * 0.84, cy + Math.sin(a) * r * 0.84, r * 0.13).fill({ color: 0xf4ecd8 });
      }
      this.bg
        .circle(cx, cy, r * 0.66)
        .fill({ color: 0x0b0b0b, alpha: 0.25 })
        .stroke({ width: 3, color: 0xf4ecd8, alpha: 0.9 });
      if (this.active) this.bg.circle(cx, cy, r + 5).stroke({ width: 6, color: COLORS.gold });
      this.caption.style.fill = COLORS.ivory;
      return;
    }
    this.bg
      .roundRect(0, 0, this.w, this.h, 18)
      .fill({ color: this.active ? COLORS.buttonActive : (this.look.idle ?? COLORS.buttonIdle) })
      .stroke({ width: 3, color: COLORS.gold });
    this.caption.style.fill = this.active ? '#1b1205' : COLORS.ivory;
    this.sub.style.fill = this.active ? '#3b2a0a' : COLORS.muted;
  }
}
