import { Container, Graphics, Text } from 'pixi.js';
import { DISPOSE } from '../../pixi/dispose.js';
import { NEVER } from '../../anim/wake.js';
import type { RecallRound } from '../../../../protocol/index.js';
import { CARD, CardView } from '../../cards/card-view.js';
import { Button } from '../../ui/button.js';
import { COLORS, textStyle } from '../../ui/theme.js';

/** Time between two cards of a replay: about a dealer's pace, quicker. */
const STEP_MS = 500;
const SCALE = 0.62;

/**
 * Game recall's replay: the round's cards appear one by one in the order the shoe read them, each
 * in the row of where it went (dealer, banker, player, a seat, burn), then the decisions and the
 * settlement lines with their rules. Drawn from the recall record alone.
 */
export class ReplayView extends Container {
  private readonly cardsLayer = new Container();
  private readonly labels = new Container();
  private readonly after = new Text({ text: '', style: textStyle({ fontSize: 24, wordWrap: true, wordWrapWidth: 1500 }) });
  private readonly close: Button;
  private round: RecallRound | null = null;
  private startedAt = 0;
  private shown = 0;

  constructor(w: number, h: number, onClose: () => void) {
    super();
    const bg = new Graphics().rect(0, 0, w, h).fill({ color: 0x0a2219, alpha: 0.97 }).stroke({ width: 3, color: COLORS.gold });
    bg.eventMode = 'static';
    this.close = new Button('replay-close', 200, 72, onClose);
    this.close.position.set(w - 220, 16);
    this.addChild(bg, this.labels, this.cardsLayer, this.after, this.close);
    this.visible = false;
  }

  play(round: RecallRound, nowMs: number, closeLabel: string, afterText: string): void {
    this.round = round;
    this.startedAt = nowMs;
    this.shown = 0;
    this.cardsLayer.removeChildren().forEach((c) => c.destroy(DISPOSE));
    this.labels.removeChildren().forEach((c) => c.destroy());
    this.close.setLabel(closeLabel);
    this.after.text = '';
    this.after.visible = false;
    // One row per destination, in the order each first received a card.
    const rows = [...new Set(round.cards.map((c) => rowOf(c.to)))];
    rows.forEach((row, i) => {
      const label = new Text({ text: row, style: textStyle({ fontSize: 26, fill: COLORS.goldText }) });
      label.position.set(20, 100 + i * (CARD.height * SCALE + 14) + 20);
      this.labels.addChild(label);
    });
    const perRow = new Map<string, number>();
    for (const c of round.cards) {
      const row = rowOf(c.to);
      const n = perRow.get(row) ?? 0;
      perRow.set(row, n + 1);
      const view = new CardView();
      view.show(c.card);
      view.scale.set(SCALE);
      view.position.set(200 + n * (CARD.width * SCALE + 8), 100 + rows.indexOf(row) * (CARD.height * SCALE + 14));
      view.visible = false;
      this.cardsLayer.addChild(view);
    }
    this.after.text = afterText;
    this.after.position.set(20, 110 + rows.length * (CARD.height * SCALE + 14));
    this.visible = true;
    this.tick(nowMs);
  }

  stop(): void {
    this.visible = false;
    this.round = null;
  }

  /** Shows the cards due by `nowMs`; returns when the next is due (anim/wake.ts). */
  tick(nowMs: number): number {
    if (!this.round || !this.visible) return NEVER;
    const count = this.cardsLayer.children.length;
    const due = Math.min(count, Math.floor((nowMs - this.startedAt) / STEP_MS) + 1);
    for (; this.shown < due; this.shown++) {
      const c = this.cardsLayer.children[this.shown];
      if (c) c.visible = true;
    }
    this.after.visible = this.shown >= count;
    return due < count ? this.startedAt + due * STEP_MS : NEVER;
  }
}

/** `seat:3:hand:1` and `seat:3` share the seat's row; a split hand follows on it. */
function rowOf(to: string): string {
  const m = /^seat:(\d+)/.exec(to);
  return m ? `seat ${m[1]}` : to;
}
