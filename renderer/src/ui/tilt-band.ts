import { Container, Graphics, Text } from 'pixi.js';
import type { TFunction } from 'i18next';
import type { TiltNotice } from '../../../protocol/index.js';
import { DESIGN, textStyle } from './theme.js';

/**
 * Current faults across the top of a screen, in the screen's language: the tilt's own message
 * (`tilt.<key>`), or the severity's general wording if this build has no words for it yet.
 * Never an error code.
 */
export class TiltBand extends Container {
  private readonly bg = new Graphics();
  private readonly text = new Text({ text: '', style: textStyle({ fontSize: 34, fill: '#ffffff', fontWeight: '700' }) });
  private shown = '';

  constructor(private readonly top = 0) {
    super();
    this.text.anchor.set(0.5);
    this.text.position.set(DESIGN.width / 2, top + 32);
    this.addChild(this.bg, this.text);
    this.visible = false;
  }

  show(tilts: readonly TiltNotice[], t: TFunction): void {
    this.visible = tilts.length > 0;
    if (!tilts.length) return;
    const worst = tilts.some((x) => x.severity === 'critical') ? 'critical' : tilts.some((x) => x.severity === 'warning') ? 'warning' : 'info';
    const words = tilts.slice(0, 3).map((x) => tiltText(t, x));
    const text = words.join('\u3000·\u3000') + (tilts.length > 3 ? ` (+${tilts.length - 3})` : '');
    if (text + worst === this.shown) return;
    this.shown = text + worst;
    this.text.text = text;
    this.text.scale.set(1);
    if (this.text.width > DESIGN.width - 80) this.text.scale.set((DESIGN.width - 80) / this.text.width);
    this.bg
      .clear()
      .rect(0, this.top, DESIGN.width, 64)
      .fill({ color: worst === 'critical' ? 0xa3121f : worst === 'warning' ? 0xb86a00 : 0x1f4f8a, alpha: 0.95 });
  }
}

export function tiltText(t: TFunction, tilt: TiltNotice): string {
  return t(`tilt.${tilt.kind}`);
}
