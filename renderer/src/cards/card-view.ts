import { Container, Graphics, Text } from 'pixi.js';
import { textStyle } from '../ui/theme.js';

export const CARD = { width: 96, height: 136 } as const;

const SUIT: Record<string, { glyph: string; red: boolean }> = {
  S: { glyph: '♠', red: false },
  H: { glyph: '♥', red: true },
  D: { glyph: '♦', red: true },
  C: { glyph: '♣', red: false },
};

/** A card face (or back, for `XX`), reused: `show` redraws only when the card changes. */
export class CardView extends Container {
  private readonly face = new Graphics();
  private readonly rank = new Text({ text: '', style: textStyle({ fontSize: 40, fontWeight: '700' }) });
  private readonly pip = new Text({ text: '', style: textStyle({ fontSize: 56 }) });
  private shown = '';

  constructor() {
    super();
    this.rank.position.set(10, 4);
    this.pip.anchor.set(0.5);
    this.pip.position.set(CARD.width / 2, CARD.height * 0.62);
    this.addChild(this.face, this.rank, this.pip);
  }

  show(code: string): void {
    if (code === this.shown) return;
    this.shown = code;
    this.face.clear();
    if (code === 'XX') {
      this.face.roundRect(0, 0, CARD.width, CARD.height, 10).fill({ color: 0x7a1020 }).stroke({ width: 4, color: 0xf4ecd8 });
      this.face.roundRect(10, 10, CARD.width - 20, CARD.height - 20, 6).stroke({ width: 2, color: 0xd9b45b });
      this.rank.text = '';
      this.pip.text = '';
      return;
    }
    const suit = SUIT[code.slice(-1)] ?? { glyph: '?', red: false };
    const color = suit.red ? '#c8102e' : '#111111';
    this.face.roundRect(0, 0, CARD.width, CARD.height, 10).fill({ color: 0xfffdf7 }).stroke({ width: 2, color: 0x444444 });
    const rank = code.slice(0, -1);
    this.rank.text = rank === 'T' ? '10' : rank;
    this.rank.style.fill = color;
    this.pip.text = suit.glyph;
    this.pip.style.fill = color;
  }

  /** The card code drawn, for test hooks (a screen reader would announce the same). */
  code(): string {
    return this.shown;
  }
}
