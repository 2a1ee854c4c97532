import { Container, Graphics, Text } from 'pixi.js';
import { COLORS, textStyle } from './theme.js';

/** A touch button, at least 96 design px tall (≈15 mm on a 24" station screen). */
export class Button extends Container {
  private readonly bg = new Graphics();
  private readonly caption: Text;
  private active = false;

  constructor(
    readonly testId: string,
    private readonly w: number,
    private readonly h: number,
    onPress: () => void,
  ) {
    super();
    this.caption = new Text({ text: '', style: textStyle({ fontSize: Math.round(h * 0.36), fontWeight: '600' }) });
    this.caption.anchor.set(0.5);
    this.caption.position.set(w / 2, h / 2);
    this.addChild(this.bg, this.caption);
    this.eventMode = 'static';
    this.cursor = 'pointer';
    this.accessible = true;
    this.accessibleType = 'button';
    this.on('pointertap', onPress);
    this.draw();
  }

  setLabel(label: string): void {
    this.caption.text = label;
    this.accessibleTitle = label;
    // Long words (Português) shrink to fit rather than touch the edge.
    this.caption.scale.set(1);
    const room = this.w - 28;
    if (this.caption.width > room) this.caption.scale.set(room / this.caption.width);
  }

  setActive(active: boolean): void {
    if (active === this.active) return;
    this.active = active;
    this.draw();
  }

  private draw(): void {
    this.bg.clear();
    this.bg
      .roundRect(0, 0, this.w, this.h, 18)
      .fill({ color: this.active ? COLORS.buttonActive : COLORS.buttonIdle })
      .stroke({ width: 3, color: COLORS.gold });
    this.caption.style.fill = this.active ? '#1b1205' : COLORS.ivory;
  }
}
