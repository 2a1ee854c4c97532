import { Container, Graphics, Text } from 'pixi.js';
import { COLORS, DESIGN, textStyle } from './theme.js';

/** A band across the screen for "connecting…" and "call an attendant" messages. */
export class StatusBanner extends Container {
  private readonly text = new Text({ text: '', style: textStyle({ fontSize: 44, fill: COLORS.warning, fontWeight: '600' }) });

  constructor() {
    super();
    const bg = new Graphics().rect(0, DESIGN.height / 2 - 80, DESIGN.width, 160).fill({ color: 0x000000, alpha: 0.78 });
    this.text.anchor.set(0.5);
    this.text.position.set(DESIGN.width / 2, DESIGN.height / 2);
    this.addChild(bg, this.text);
    this.visible = false;
  }

  show(message: string | null): void {
    this.visible = message !== null;
    if (message !== null) this.text.text = message;
  }
}
