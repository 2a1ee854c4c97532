import { Container, FillGradient, Graphics, Text, type DestroyOptions, type Sprite, type Texture } from 'pixi.js';
import type { TFunction } from 'i18next';
import { DISPOSE } from '../pixi/dispose.js';
import { COLORS, textStyle } from '../ui/theme.js';
import { feltExtent, feltOutline, RAIL_WIDTH, type FeltLayout } from './felt-layout.js';

/** The felt's printed words: fixed in both official languages, whatever the screen language. */
export interface FeltPrint {
  zh: TFunction;
  pt: TFunction;
}

/** Felt colours per game, as the casinos print them: green for blackjack, blue baccarat, red war. */
const CLOTH: Record<FeltLayout['game'], { inner: string; outer: string }> = {
  blackjack: { inner: COLORS.feltInner, outer: COLORS.feltOuter },
  baccarat: { inner: '#1d5a8c', outer: '#0b2844' },
  war: { inner: '#8c2a2a', outer: '#3f0f12' },
};

/** The drawn felt, knowing the half-ellipse it covers (rail included) for the layout check. */
export class FeltView extends Container {
  /** The textures its Graphics were drawn into (`bake`): the felt's own, destroyed with it. */
  private readonly baked: Texture[] = [];
  /**
   * The cloth's gradient: pixi draws it into a canvas texture of its own, which neither the
   * Graphics nor its context destroys. Let go with the felt (not at once when baked: pixi still
   * holds it bound to the batch that drew the bake, and warns).
   */
  private readonly gradients: FillGradient[] = [];

  constructor(readonly extent: FeltLayout['felt']) {
    super();
  }

  /**
   * The rail, cloth, holders and spots drawn into textures and shown as sprites in their place;
   * the Graphics are destroyed with their geometry. They change only with the layout or the
   * display's resolution (either draws a new felt), and kept they held their triangulated
   * outlines, gradient and strokes in the JS heap (about 0.3 MB, issue 31). The printed words stay
   * texts: the layout check reads them.
   */
  bake(draw: (target: Container) => Sprite): void {
    for (const g of [...this.children]) {
      if (!(g instanceof Graphics)) continue;
      const sprite = draw(g);
      this.baked.push(sprite.texture);
      this.addChildAt(sprite, this.getChildIndex(g));
      g.destroy(DISPOSE);
    }
  }

  /** A gradient the felt's Graphics fill with, destroyed when no longer drawn. */
  own(gradient: FillGradient): FillGradient {
    this.gradients.push(gradient);
    return gradient;
  }

  override destroy(options?: DestroyOptions): void {
    super.destroy(options);
    for (const t of this.baked.splice(0)) t.destroy(true);
    for (const f of this.gradients.splice(0)) f.destroy();
  }
}

/**
 * Draws a game's felt (rail, cloth, printed lines, spots, shoe and discard holders); it is drawn
 * again only when the game, the seats, the profile's bets or the display's resolution change.
 * Seat labels and everything in the screen language live on the table screen, not here.
 */
export function drawFelt(layout: FeltLayout, print: FeltPrint): FeltView {
  const root = new FeltView(feltExtent(layout.felt));
  // Printed words (`felt-print`): the overlap check keeps what the round draws off them.
  root.label = 'felt-print';
  const g = new Graphics();
  const f = layout.felt;
  g.poly(feltOutline(f, RAIL_WIDTH)).fill({ color: COLORS.rail }).stroke({ width: 4, color: COLORS.railEdge });
  g.poly(feltOutline(f, 12)).stroke({ width: 2, color: 0x5a3a1e });
  const cloth = CLOTH[layout.game];
  const gradient = root.own(
    new FillGradient({
      type: 'radial',
      center: { x: 0.5, y: 0.1 },
      innerRadius: 0,
      outerCenter: { x: 0.5, y: 0.1 },
      outerRadius: 0.95,
      colorStops: [
        { offset: 0, color: cloth.inner },
        { offset: 1, color: cloth.outer },
      ],
      textureSpace: 'local',
    }),
  );
  g.poly(feltOutline(f)).fill(gradient);
  // The dealer's tray and the card holders.
  g.roundRect(f.cx - 260, f.top + 2, 520, 60, 12)
    .fill({ color: 0x111111, alpha: 0.5 })
    .stroke({ width: 3, color: COLORS.gold });
  for (const r of [layout.shoe, layout.discard])
    g.roundRect(r.x, r.y, r.width, r.height, 12).fill({ color: 0x1a120b, alpha: 0.85 }).stroke({ width: 3, color: COLORS.railEdge });
  root.addChild(g);

  const spots = new Graphics();
  const printed: Text[] = [];
  const label = (text: string, x: number, y: number, size: number, fill: string = COLORS.goldText) => {
    const t = new Text({ text, style: textStyle({ fontSize: size, fill, fontWeight: '700' }) });
    t.anchor.set(0.5);
    t.position.set(x, y);
    printed.push(t);
  };
  for (const seat of layout.seats) {
    for (const s of seat.spots) {
      if (s.shape === 'circle') {
        spots
          .circle(s.x, s.y, s.r)
          .fill({ color: 0x000000, alpha: 0.14 })
          .stroke({ width: s.bet === 'main' ? 4 : 3, color: COLORS.gold });
        if (s.bet !== 'main') label(print.zh(`bet.${s.bet}`), s.x, s.y, s.r * 0.55);
      } else {
        const colour = s.bet.startsWith('banker') ? 0xc8102e : s.bet.startsWith('player') ? 0x2f6fd6 : 0x1f9a55;
        spots
          .roundRect(s.x - s.width / 2, s.y - s.height / 2, s.width, s.height, s.r)
          .fill({ color: colour, alpha: 0.28 })
          .stroke({ width: 2.5, color: COLORS.gold });
        label(print.zh(`bet.${s.bet}`), s.x, s.y, s.bet === 'lucky6' ? 15 : s.bet.endsWith('Pair') ? 18 : 24, COLORS.ivory);
      }
    }
  }
  root.addChild(spots);

  if (layout.game === 'baccarat') {
    // The two card boxes of the dealer's area, named in both languages.
    for (const side of ['player', 'banker'] as const) {
      const b = layout.cardBoxes![side];
      spots.roundRect(b.box.x, b.box.y, b.box.width, b.box.height, 14).stroke({ width: 3, color: side === 'banker' ? 0xe0606e : 0x6f9ef0, alpha: 0.9 });
      label(`${print.zh(`bet.${side}`)} ${print.pt(`bet.${side}`)}`, b.label.x, b.label.y, 24, side === 'banker' ? '#ff9aa5' : '#a9c6ff');
    }
  } else {
    // The printed arc line: blackjack's insurance, war's tie rule.
    arcText(root, layout, `${print.zh(`felt.arc.${layout.game}`)}\u3000·\u3000${print.pt(`felt.arc.${layout.game}`)}`);
  }
  root.addChild(...printed);
  return root;
}

/** Letters set one by one along an arc under the dealer's area, as printed on real felts. */
function arcText(root: Container, layout: FeltLayout, text: string): void {
  const f = layout.felt;
  const radius = layout.arcRadius;
  const chars = [...text];
  const style = textStyle({ fontSize: 24, fill: COLORS.goldText, fontWeight: '600' });
  // Measure each glyph once to space them by their own widths; a long line is set smaller so it
  // spans at most 110° of the arc.
  const glyphs = chars.map((ch) => new Text({ text: ch, style }));
  let total = glyphs.reduce((a, t) => a + t.width + 1, 0);
  const fit = Math.min(1, (1.9 * radius) / total);
  if (fit < 1) {
    for (const t of glyphs) t.scale.set(fit);
    total *= fit;
  }
  let angle = Math.PI / 2 + total / 2 / radius;
  for (const t of glyphs) {
    const w = t.width + fit;
    const a = angle - w / 2 / radius;
    t.anchor.set(0.5);
    t.position.set(f.cx + radius * Math.cos(a), f.top + radius * Math.sin(a));
    t.rotation = a - Math.PI / 2;
    angle -= w / radius;
    root.addChild(t);
  }
}
