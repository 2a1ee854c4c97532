import { Container, Graphics, Text } from 'pixi.js';
import type { Rect } from '../felt/felt-layout.js';
import { Button } from '../ui/button.js';
import { COLORS, TOUCH, textStyle } from '../ui/theme.js';
import { cardLabel, cardOf, isCardCode } from '../../../cards/card.js';

/** A panel over the station's play area (recall, replay, help) with a title and a close button. */
export class Panel extends Container {
  protected readonly heading = new Text({ text: '', style: textStyle({ fontSize: 40, fill: COLORS.goldText, fontWeight: '700' }) });
  protected readonly closeButton: Button;

  constructor(
    protected readonly area: Rect,
    closeId: string,
    onClose: () => void,
  ) {
    super();
    const bg = new Graphics()
      .roundRect(area.x, area.y, area.width, area.height, 20)
      .fill({ color: 0x071a12, alpha: 0.97 })
      .stroke({ width: 4, color: COLORS.gold });
    this.heading.position.set(area.x + 30, area.y + 22);
    this.closeButton = new Button(closeId, 220, TOUCH.min, onClose);
    this.closeButton.position.set(area.x + area.width - 250, area.y + area.height - TOUCH.min - 24);
    this.addChild(bg, this.heading, this.closeButton);
    this.visible = false;
  }

  /** A wrapped text block inside the panel. */
  protected block(x: number, y: number, width: number, size = 28): Text {
    const t = new Text({
      text: '',
      style: textStyle({ fontSize: size, fill: COLORS.ivory, wordWrap: true, wordWrapWidth: width, breakWords: true, lineHeight: Math.round(size * 1.35) }),
    });
    t.position.set(x, y);
    this.addChild(t);
    return t;
  }
}

/** `TH` → `10♥` (the cards layer's reading of a card): cards as words for recall lists; the back is a dash. */
export function cardText(code: string): string {
  if (code === 'XX') return '—';
  return isCardCode(code) ? cardLabel(cardOf(code)) : '?';
}
