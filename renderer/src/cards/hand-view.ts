import { Container, Text } from 'pixi.js';
import type { HandView } from '../../../protocol/index.js';
import { COLORS, textStyle } from '../ui/theme.js';
import { CARD, CardView } from './card-view.js';

/** One hand's cards fanned out with its total; card views are pooled across rounds. */
export class HandSprite extends Container {
  private readonly cards: CardView[] = [];
  private readonly total = new Text({ text: '', style: textStyle({ fontSize: 30, fill: COLORS.goldText, fontWeight: '700' }) });

  constructor() {
    super();
    this.total.anchor.set(0.5, 0);
    this.addChild(this.total);
  }

  show(hand: HandView): void {
    const n = hand.cards.length;
    while (this.cards.length < n) {
      const c = new CardView();
      this.cards.push(c);
      this.addChildAt(c, this.cards.length - 1);
    }
    const step = CARD.width * 0.42;
    const width = CARD.width + step * Math.max(0, n - 1);
    this.cards.forEach((c, i) => {
      c.visible = i < n;
      if (i < n) {
        c.show(hand.cards[i] ?? 'XX');
        c.position.set(-width / 2 + i * step, 0);
      }
    });
    this.total.text = hand.total === null ? '' : `${hand.soft && hand.total <= 21 ? `${hand.total - 10}/` : ''}${hand.total}`;
    this.total.position.set(0, CARD.height + 6);
  }

  codes(): string[] {
    return this.cards.filter((c) => c.visible).map((c) => c.code());
  }
}
