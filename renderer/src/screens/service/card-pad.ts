import { Container, Text } from 'pixi.js';
import { Button } from '../../ui/button.js';
import { COLORS, textStyle } from '../../ui/theme.js';
import type { Labelled } from './keypad.js';
import { RANKS, SUITS, SUIT_SIGNS, isRank, isSuit, rankLabel, type CardCode, type Rank, type Suit } from '../../../../cards/card.js';

const KEY_W = 112;
const KEY_H = 96;

/**
 * The card a supervisor enters by hand on an unreadable-card hold: one touch on a row of ranks,
 * one on a row of suits (or the keyboard's letters), then OK — two presses, not fifty-one.
 * Keys are `card-A` … `card-K` and `card-S` … `card-C`.
 */
export class CardPad extends Container {
  private rank: Rank | null = null;
  private suit: Suit | null = null;
  private readonly chosen = new Text({ text: '', style: textStyle({ fontSize: 44, fill: COLORS.goldText, fontWeight: '700' }) });
  private readonly ranks = new Map<Rank, Button>();
  private readonly suits = new Map<Suit, Button>();
  private readonly ok: Button;
  private caption = '';
  private labelled: Labelled = (_label, value) => value;

  constructor(private readonly onSubmit: (card: CardCode) => void) {
    super();
    this.chosen.position.set(0, 0);
    this.addChild(this.chosen);
    RANKS.forEach((r, i) => {
      const b = new Button(`card-${r}`, KEY_W, KEY_H, () => this.pick(r, null));
      b.setLabel(rankLabel(r));
      b.position.set(i * (KEY_W + 8), 80);
      this.ranks.set(r, b);
      this.addChild(b);
    });
    SUITS.forEach((s, i) => {
      const b = new Button(`card-${s}`, KEY_W * 2, KEY_H, () => this.pick(null, s));
      b.setLabel(SUIT_SIGNS[s]);
      b.position.set(i * (KEY_W * 2 + 8), 80 + KEY_H + 16);
      this.suits.set(s, b);
      this.addChild(b);
    });
    this.ok = new Button('card-ok', KEY_W * 3, KEY_H, () => this.enter());
    this.ok.position.set(4 * (KEY_W * 2 + 8) + 24, 80 + KEY_H + 16);
    this.addChild(this.ok);
    this.draw();
  }

  setLabels(labels: { labelled: Labelled; label: string; submit: string }): void {
    this.caption = labels.label;
    this.labelled = labels.labelled;
    this.ok.setLabel(labels.submit);
    this.draw();
  }

  /** A rank (A 2-9 T J Q K) or a suit (S H D C) from the keyboard, Backspace, Enter. */
  key(key: string): boolean {
    const k = key.toUpperCase();
    if (isRank(k)) this.pick(k, null);
    else if (isSuit(k)) this.pick(null, k);
    else if (key === 'Enter') this.enter();
    else if (key === 'Backspace') this.clear();
    else return false;
    return true;
  }

  clear(): void {
    this.rank = null;
    this.suit = null;
    this.draw();
  }

  private pick(rank: Rank | null, suit: Suit | null): void {
    if (rank) this.rank = rank;
    if (suit) this.suit = suit;
    this.draw();
  }

  private enter(): void {
    if (!this.rank || !this.suit) return;
    const card: CardCode = `${this.rank}${this.suit}`;
    this.clear();
    this.onSubmit(card);
  }

  private draw(): void {
    const rank = this.rank ? rankLabel(this.rank) : '…';
    const suit = this.suit ? SUIT_SIGNS[this.suit] : '…';
    this.chosen.text = this.labelled(this.caption, `${rank} ${suit}`);
    for (const [r, b] of this.ranks) b.setActive(r === this.rank);
    for (const [s, b] of this.suits) b.setActive(s === this.suit);
    this.ok.setEnabled(this.rank !== null && this.suit !== null);
  }
}
