import { Container, Graphics, Text, type DestroyOptions, type Sprite } from 'pixi.js';
import type { TFunction } from 'i18next';
import type { HistoryEntry } from '../../../protocol/index.js';
import type { Rect } from '../felt/felt-layout.js';
import { COLORS, textStyle } from '../ui/theme.js';

/** Rounds the strip shows; the newest is on the right. */
export const HISTORY_SHOWN = 8;

/**
 * Blackjack's and war's recent rounds: the dealer's total (or the dealer's card at war) and how
 * the seats fared, as a strip of columns. Texts are pooled, redrawn only when a round is added.
 * The box, the columns' frames and the seats' dots are one Graphics; where the screen bakes, they
 * are drawn into a texture when a round is added (and at a new resolution or after a lost context:
 * `sharpen`) and shown as its sprite, so the layer that caches the strip holds no vector art and is
 * drawn without multisampling (CachedLayer).
 */
export class HistoryStrip extends Container {
  private readonly title = new Text({ text: '', style: textStyle({ fontSize: 24, fill: COLORS.goldText, fontWeight: '700' }) });
  /** The box, frames and dots; where the screen bakes, drawn only into their texture and never shown themselves. */
  private readonly dots = new Graphics();
  /** The dots drawn into a texture (`bake`), in their place; null while they are drawn as Graphics. */
  private dotsArt: Sprite | null = null;
  private readonly cells: Text[] = [];
  private shown = '';
  /** The rounds shown, drawn again at a new resolution (`sharpen`). */
  private recent: HistoryEntry[] = [];

  constructor(
    private readonly area: Rect,
    private readonly bake?: (target: Container, into: Sprite | null) => Sprite,
  ) {
    super();
    // `panel`: beside the felt, never on it (the layout check).
    this.label = 'panel';
    this.position.set(area.x, area.y);
    this.title.position.set(14, 8);
    this.addChild(this.title);
    if (!bake) this.addChildAt(this.dots, 0);
    for (let i = 0; i < HISTORY_SHOWN; i++) {
      const t = new Text({ text: '', style: textStyle({ fontSize: 30, fontWeight: '700' }) });
      t.anchor.set(0.5);
      this.cells.push(t);
      this.addChild(t);
    }
    this.draw();
  }

  /** What the panel shows now, as a key: the table's cached layer is drawn again when it changes. */
  get drawn(): string {
    return this.shown;
  }

  show(history: HistoryEntry[] | undefined, t: TFunction): void {
    this.visible = history !== undefined;
    if (!history) return;
    this.title.text = t('felt.history');
    // The language is in the key (its title): the table's cached layer is drawn again when it changes.
    const key = history.map((h) => h.roundId).join() + this.title.text;
    if (key === this.shown) return;
    this.shown = key;
    this.recent = history.slice(-HISTORY_SHOWN);
    const colW = this.columnWidth();
    this.cells.forEach((cell, i) => {
      const h = this.recent[i];
      cell.visible = h !== undefined;
      if (!h) return;
      const x = 14 + colW * i + colW / 2;
      const bust = h.dealerTotal !== null && h.dealerTotal > 21;
      // A bust is its total, over twenty-one, in its colour: the regulation's word (超過二十一點, 2009 Art. 7) fits no column.
      cell.text = h.dealerTotal === null ? (h.dealer[0] ?? '') : String(h.dealerTotal);
      cell.style.fill = bust ? '#7dff9a' : COLORS.ivory;
      cell.position.set(x, 74);
    });
    this.draw();
  }

  /** The box and dots drawn again (their texture at the display's new resolution, or after a lost context); false when none are baked. */
  sharpen(): boolean {
    if (!this.bake) return false;
    this.draw();
    return true;
  }

  override destroy(options?: DestroyOptions): void {
    // The dots' texture is the strip's own: it goes with it, and so do the dots (not a child when baked).
    const texture = this.dotsArt?.texture;
    this.dotsArt = null;
    super.destroy(options);
    texture?.destroy(true);
    if (!this.dots.destroyed) this.dots.destroy({ context: true });
  }

  private columnWidth(): number {
    return (this.area.width - 28) / HISTORY_SHOWN;
  }

  private draw(): void {
    const g = this.dots;
    const colW = this.columnWidth();
    g.clear();
    g.roundRect(0, 0, this.area.width, this.area.height, 14).fill({ color: 0x0b0f14, alpha: 0.85 }).stroke({ width: 2, color: COLORS.gold });
    this.recent.forEach((h, i) => {
      const x = 14 + colW * i + colW / 2;
      g.roundRect(x - colW / 2 + 4, 50, colW - 8, 48, 8).stroke({ width: 1.5, color: 0x3a4652 });
      // One dot per seat that played: green won, red lost, grey push.
      h.seats.slice(0, 7).forEach((s, k) => {
        const dx = x + ((k % 4) - 1.5) * 11;
        const dy = 116 + Math.floor(k / 4) * 12;
        g.circle(dx, dy, 4.5).fill({ color: s.outcome === 'win' ? 0x3ccf6e : s.outcome === 'lose' ? 0xd8283c : 0x9aa4ad });
      });
    });
    if (!this.bake) return;
    const art = this.bake(g, this.dotsArt);
    if (art !== this.dotsArt) {
      this.dotsArt?.destroy({ texture: true, textureSource: true });
      this.dotsArt = art;
      this.addChildAt(art, 0);
    }
    // Drawn: its shapes and their triangulated geometry let go until the next round.
    g.clear();
    g.context.unload();
  }
}
