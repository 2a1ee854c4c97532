import { Container, Graphics, Text } from 'pixi.js';
import type { TFunction } from 'i18next';
import { DESIGN, textStyle } from './theme.js';

/**
 * A demonstration table's strip along the bottom edge of every screen (issue 51): the table's
 * devices are all simulated, nothing is played live and no authorisation is on record, and every
 * screen says so in its own language. It lies over the screen's edge on purpose (labelled
 * `overlay`, which the layout checks leave out) and lets every touch through.
 */
export class DemoBanner extends Container {
  private readonly text = new Text({ text: '', style: textStyle({ fontSize: 22, fill: '#1a1a1a', fontWeight: '700' }) });
  private shown = '';

  constructor() {
    super();
    this.label = 'overlay';
    this.eventMode = 'none';
    const bg = new Graphics().rect(0, DESIGN.height - 34, DESIGN.width, 34).fill({ color: 0xf2c230, alpha: 0.92 });
    this.text.anchor.set(0.5);
    this.text.position.set(DESIGN.width / 2, DESIGN.height - 17);
    this.addChild(bg, this.text);
    this.visible = false;
  }

  show(demonstration: boolean | undefined, t: TFunction): void {
    this.visible = demonstration === true;
    if (!this.visible) return;
    const text = t('demo.banner');
    if (text === this.shown) return;
    this.shown = text;
    this.text.text = text;
    this.text.scale.set(1);
    if (this.text.width > DESIGN.width - 40) this.text.scale.set((DESIGN.width - 40) / this.text.width);
  }
}
