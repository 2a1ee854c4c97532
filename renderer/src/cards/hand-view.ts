import { Container, Text } from 'pixi.js';
import type { TFunction } from 'i18next';
import type { HandView } from '../../../protocol/index.js';
import { cardStep, FLIGHT_MS } from '../anim/motion.js';
import { COLORS, textStyle } from '../ui/theme.js';
import { traceCard } from '../trace.js';
import { CARD, CardView } from './card-view.js';
import { handTotalText } from './hand-total.js';

/**
 * One hand's cards fanned out with its total. Card views are pooled across rounds; a card that
 * was not there in the previous snapshot flies in from `origin` (the shoe, in this hand's
 * coordinates), a hidden card that is now known turns over.
 */
export class HandSprite extends Container {
  private readonly cards: CardView[] = [];
  private count = 0;
  private readonly total = new Text({
    text: '',
    style: textStyle({ fontSize: 30, fill: COLORS.goldText, fontWeight: '700', stroke: { color: '#04100b', width: 5 } }),
  });
  /** The round the cards belong to: a new round starts from an empty hand. */
  private round = '';

  constructor() {
    super();
    this.total.anchor.set(0.5, 0);
    this.addChild(this.total);
  }

  /** The width the hand takes with `n` cards. */
  static width(n: number): number {
    return CARD.width + cardStep(n, CARD.width) * Math.max(0, n - 1);
  }

  show(hand: HandView, roundId: string, now: number, origin: { x: number; y: number } | null, t: TFunction): void {
    if (roundId !== this.round) {
      this.round = roundId;
      this.count = 0;
    }
    const n = hand.cards.length;
    while (this.cards.length < n) {
      const c = new CardView();
      this.cards.push(c);
      this.addChildAt(c, this.cards.length - 1);
    }
    const step = cardStep(n, CARD.width);
    const width = HandSprite.width(n);
    this.cards.forEach((c, i) => {
      c.visible = i < n;
      if (i >= n) return;
      const fresh = i >= this.count;
      c.show(hand.cards[i] ?? 'XX', now, !fresh);
      const x = -width / 2 + i * step;
      if (fresh && origin) c.place(x, 0, now, origin, FLIGHT_MS);
      else c.place(x, 0, now);
      if (fresh) traceCard(hand.cards[i] ?? 'XX');
    });
    this.count = n;
    this.total.text = handTotalText(hand, t);
    this.total.position.set(0, CARD.height + 6);
  }

  /** Moves the cards in flight; true while any is still moving. */
  update(now: number): boolean {
    let busy = false;
    for (let i = 0; i < this.count; i++) busy = (this.cards[i]?.update(now) ?? false) || busy;
    return busy;
  }

  codes(): string[] {
    return this.cards.filter((c) => c.visible).map((c) => c.code());
  }
}
