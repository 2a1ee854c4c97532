import { Container, Graphics, Text } from 'pixi.js';
import type { TFunction } from 'i18next';
import type { HistoryEntry } from '../../../protocol/index.js';
import type { Rect } from '../felt/felt-layout.js';
import { COLORS, textStyle } from '../ui/theme.js';

/** Rounds the strip shows; the newest is on the right. */
export const HISTORY_SHOWN = 8;

/**
 * Blackjack's and war's recent rounds: the dealer's total (or the dealer's card at war) and how
 * the seats fared, as a strip of columns. Texts are pooled, redrawn only when a round is added.
 */
export class HistoryStrip extends Container {
  private readonly title = new Text({ text: '', style: textStyle({ fontSize: 24, fill: COLORS.goldText, fontWeight: '700' }) });
  private readonly dots = new Graphics();
  private readonly cells: Text[] = [];
  private shown = '';

  constructor(private readonly area: Rect) {
    super();
    // `panel`: beside the felt, never on it (the layout check).
    this.label = 'panel';
    this.position.set(area.x, area.y);
    const bg = new Graphics().roundRect(0, 0, area.width, area.height, 14).fill({ color: 0x0b0f14, alpha: 0.85 }).stroke({ width: 2, color: COLORS.gold });
    this.title.position.set(14, 8);
    this.addChild(bg, this.dots, this.title);
    for (let i = 0; i < HISTORY_SHOWN; i++) {
      const t = new Text({ text: '', style: textStyle({ fontSize: 30, fontWeight: '700' }) });
      t.anchor.set(0.5);
      this.cells.push(t);
      this.addChild(t);
    }
  }

  /** What the panel shows now, as a key: the table's cached layer is drawn again when it changes. */
  get drawn(): string {
    return this.shown;
  }

  show(history: HistoryEntry[] | undefined, t: TFunction): void {
    this.visible = history !== undefined;
    if (!history) return;
    this.title.text = t('felt.history');
    const key = history.map((h) => h.roundId).join() + t('felt.bust');
    if (key === this.shown) return;
    this.shown = key;
    const recent = history.slice(-HISTORY_SHOWN);
    const colW = (this.area.width - 28) / HISTORY_SHOWN;
    this.dots.clear();
    this.cells.forEach((cell, i) => {
      const h = recent[i];
      cell.visible = h !== undefined;
      if (!h) return;
      const x = 14 + colW * i + colW / 2;
      const bust = h.dealerTotal !== null && h.dealerTotal > 21;
      cell.text = h.dealerTotal === null ? (h.dealer[0] ?? '') : bust ? t('felt.bust') : String(h.dealerTotal);
      cell.style.fill = bust ? '#7dff9a' : COLORS.ivory;
      cell.position.set(x, 74);
      this.dots.roundRect(x - colW / 2 + 4, 50, colW - 8, 48, 8).stroke({ width: 1.5, color: 0x3a4652 });
      // One dot per seat that played: green won, red lost, grey push.
      h.seats.slice(0, 7).forEach((s, k) => {
        const dx = x + ((k % 4) - 1.5) * 11;
        const dy = 116 + Math.floor(k / 4) * 12;
        this.dots.circle(dx, dy, 4.5).fill({ color: s.outcome === 'win' ? 0x3ccf6e : s.outcome === 'lose' ? 0xd8283c : 0x9aa4ad });
      });
    });
  }
}
