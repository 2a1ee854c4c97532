import { Container, Graphics, Text } from 'pixi.js';
import type { TFunction } from 'i18next';
import type { Currency, HandView, Language, RoundView } from '../../../protocol/index.js';
import { HandSprite } from '../cards/hand-view.js';
import { CARD } from '../cards/card-view.js';
import { formatMoney } from '../i18n/money.js';
import { COLORS, textStyle } from '../ui/theme.js';
import { cueText, phaseText } from './round-text.js';
import { FELT, seatPosition } from './table-felt.js';

/** Where a hand sits on the felt: dealer/banker/player under the tray, seats on their spots. */
function handPosition(h: HandView, seats: number): { x: number; y: number } {
  if (h.owner === 'dealer') return { x: FELT.cx, y: FELT.top + 150 };
  if (h.owner === 'player') return { x: FELT.cx - 190, y: FELT.top + 150 };
  if (h.owner === 'banker') return { x: FELT.cx + 190, y: FELT.top + 150 };
  const p = seatPosition(h.seat ?? 1, seats);
  return { x: p.x + (h.hand ?? 0) * (CARD.width + 20), y: p.y - CARD.height / 2 };
}

/** The round drawn over the felt: hands, phase and countdown, dealer guidance, results, hold. */
export class TableRound extends Container {
  private readonly hands: HandSprite[] = [];
  private readonly handLayer = new Container();
  private readonly phase = new Text({ text: '', style: textStyle({ fontSize: 44, fill: COLORS.ivory, fontWeight: '700' }) });
  private readonly cue = new Text({ text: '', style: textStyle({ fontSize: 40, fill: COLORS.goldText, fontWeight: '700' }) });
  private readonly marker = new Graphics();
  private readonly results = new Container();
  private round: RoundView | null = null;
  private t: TFunction | null = null;

  constructor() {
    super();
    this.phase.anchor.set(0.5);
    this.phase.position.set(FELT.cx, 616);
    this.cue.anchor.set(0.5);
    this.cue.position.set(FELT.cx, 668);
    this.addChild(this.marker, this.handLayer, this.results, this.phase, this.cue);
  }

  show(round: RoundView | null, seats: number, t: TFunction, currency: Currency, language: Language, now: number): void {
    this.round = round;
    this.t = t;
    this.visible = round !== null;
    if (!round) return;
    while (this.hands.length < round.hands.length) {
      const h = new HandSprite();
      this.hands.push(h);
      this.handLayer.addChild(h);
    }
    this.hands.forEach((sprite, i) => {
      const h = round.hands[i];
      sprite.visible = h !== undefined;
      if (!h) return;
      sprite.show(h);
      const p = handPosition(h, seats);
      sprite.position.set(p.x, p.y);
    });
    this.tick(now);
    this.cue.text = cueText(t, round.cue);
    this.drawMarker(round, seats);
    this.drawResults(round, seats, currency, language);
  }

  /** The countdown moves every second without a new snapshot. */
  tick(now: number): void {
    if (!this.round || !this.t) return;
    const text = phaseText(this.t, this.round, now);
    if (text !== this.phase.text) this.phase.text = text;
  }

  /** The codes of every card drawn, for test hooks. */
  cardCodes(): string[] {
    return this.hands.filter((h) => h.visible).flatMap((h) => h.codes());
  }

  private drawMarker(round: RoundView, seats: number): void {
    this.marker.clear();
    const cue = round.cue;
    if (!cue || cue.kind === 'shuffle') return;
    let p: { x: number; y: number };
    if (cue.kind === 'decision' || cue.to === 'seat') p = seatPosition(cue.seat ?? 1, seats);
    else if (cue.to === 'burn') p = { x: FELT.cx - 545, y: FELT.top + 74 };
    else p = { x: FELT.cx + (cue.to === 'player' ? -190 : cue.to === 'banker' ? 190 : 0), y: FELT.top + 150 + CARD.height / 2 };
    this.marker.circle(p.x, p.y, 86).stroke({ width: 8, color: COLORS.gold, alpha: 0.95 });
  }

  private drawResults(round: RoundView, seats: number, currency: Currency, language: Language): void {
    this.results.removeChildren().forEach((c) => c.destroy());
    if (!round.results) return;
    const bySeat = new Map<number, number>();
    for (const l of round.results) bySeat.set(l.seat, (bySeat.get(l.seat) ?? 0) + l.net);
    for (const [seat, net] of bySeat) {
      const p = seatPosition(seat, seats);
      const sign = net > 0 ? '+' : net < 0 ? '−' : '±';
      const text = new Text({
        text: `${sign}${formatMoney(Math.abs(net), currency, language)}`,
        style: textStyle({ fontSize: 34, fontWeight: '700', fill: net > 0 ? '#7dff9a' : net < 0 ? '#ff8a8a' : COLORS.ivory }),
      });
      text.anchor.set(0.5, 1);
      text.position.set(p.x, p.y - CARD.height / 2 - 40);
      this.results.addChild(text);
    }
  }
}
