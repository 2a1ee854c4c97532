import type { TFunction } from 'i18next';
import { STADIUM_SEAT, type HandView, type StationRecallRound, type StationState } from '../../../protocol/index.js';
import { CARD } from '../cards/card-view.js';
import { HandSprite } from '../cards/hand-view.js';
import type { Rect } from '../felt/felt-layout.js';
import { signedMoney } from '../screens/result-text.js';
import type { ScreenContext } from '../screens/screen.js';
import { Panel } from './panel.js';
import { replayCardCount, replayHands, shownCardIndex } from './recall-model.js';
import { NEVER } from '../anim/wake.js';
import type { HandPlace } from '../felt/hand-room.js';
import { HAND_LABEL, HAND_SCALE, stationHandPlaces } from './station-hands.js';

/** Where a replay's hands and their names go: under the heading, over the result's line (area.y + 470). */
export function replayHandsPart(area: Rect): Rect {
  return { x: area.x + 30, y: area.y + 110, width: area.width - 60, height: 350 };
}

/**
 * The replay's hands (the dealer's or the sides', then the seat's), by their cards, placed as the
 * station's play column places them (station-hands.ts): one row of slots while each hand fits its
 * slot, else a grid as large as the hands' part allows. `y` is the top of the hand's name. Before,
 * the slots only narrowed while each hand kept its full width: a seat of many split hands (Portugal
 * 2001 sets no limit on splitting) drew them on each other.
 */
export function replayHandPlaces(area: Rect, cards: readonly number[]): HandPlace[] {
  const part = replayHandsPart(area);
  return stationHandPlaces(cards, part.width, part.height).map((p) => ({ x: part.x + p.x, y: part.y + p.y, scale: p.scale }));
}

/** Time between two cards of a replay: slower than live, so the player can follow. */
export const REPLAY_STEP_MS = 650;

/**
 * Last-hand replay: the recorded round dealt again card by card on the station (same card
 * flights as the table), then its results. Driven by the screen's clock, so it can be stepped.
 */
export class ReplayPanel extends Panel {
  private readonly hands: HandSprite[] = [];
  private readonly labels: ReturnType<Panel['block']>[] = [];
  private readonly summary: ReturnType<Panel['block']>;
  private round: StationRecallRound | null = null;
  private seat = 0;
  private startedAt = 0;
  /** Which of the recall's rounds plays (0: the newest). */
  private index = 0;
  private shown = -1;
  private total = 0;
  private key = '';
  private state: StationState | null = null;

  constructor(
    area: Rect,
    private readonly ctx: ScreenContext,
    onClose: () => void,
  ) {
    super(area, 'replay-close', onClose);
    this.summary = this.block(area.x + 30, area.y + 470, area.width - 320, 30);
  }

  start(index: number, state: StationState, t: TFunction, now: number): void {
    const r = state.recall?.[index] ?? null;
    this.index = index;
    this.round = r;
    this.state = state;
    this.seat = state.seat ?? STADIUM_SEAT;
    this.startedAt = now;
    this.shown = -1;
    this.total = r ? replayCardCount(r, state.seat ?? STADIUM_SEAT) : 0;
    this.key = `replay:${r?.roundId ?? ''}:${now}`;
    this.visible = true;
    this.summary.text = '';
    this.update(state, t);
    this.tick(now, t);
    this.ctx.emit(`replay:start:${r?.roundId ?? ''}`);
  }

  update(state: StationState, t: TFunction): void {
    // Opened before the recall came from the host (it is asked for when a panel opens): starts once it is here.
    if (this.visible && this.round === null && state.recall?.[this.index]) return this.start(this.index, state, t, this.ctx.clock.now());
    this.state = state;
    this.heading.text = t('replay.title');
    this.closeButton.setLabel(t('recall.close'));
  }

  /** Deals the replay on; returns when it next moves (anim/wake.ts): now while a card flies, else the next card's time. */
  tick(now: number, t: TFunction): number {
    if (!this.visible || !this.round) return NEVER;
    const n = Math.min(this.total, Math.floor((now - this.startedAt) / REPLAY_STEP_MS) + 1);
    let moving = false;
    for (const h of this.hands) if (h.visible && h.update(now)) moving = true;
    const next = moving ? now : n < this.total ? this.startedAt + n * REPLAY_STEP_MS : NEVER;
    if (n === this.shown) return next;
    this.shown = n;
    const r = this.round;
    const hands = replayHands(r, this.seat, shownCardIndex(r, this.seat, n));
    while (this.hands.length < hands.length) {
      const h = new HandSprite();
      this.hands.push(h);
      this.labels.push(this.block(0, 0, 260, 26));
      this.addChild(h);
    }
    const places = replayHandPlaces(
      this.area,
      hands.map((h) => h.cards.length),
    );
    this.hands.forEach((sprite, i) => {
      const h = hands[i];
      const p = places[i];
      const label = this.labels[i]!;
      sprite.visible = label.visible = h !== undefined && p !== undefined;
      if (!h || !p) return;
      sprite.position.set(p.x, p.y + HAND_LABEL * p.scale);
      sprite.scale.set(p.scale);
      label.text =
        h.owner === 'dealer' ? t('table.dealer') : h.owner === 'seat' ? (h.hand ? t('desk.hand', { n: h.hand + 1 }) : t('desk.yourHand')) : t(`bet.${h.owner}`);
      label.scale.set(p.scale / HAND_SCALE);
      label.position.set(p.x - label.width / 2, p.y);
      const view: HandView = { owner: h.owner, ...(h.seat !== undefined ? { seat: h.seat } : {}), hand: h.hand, cards: h.cards, total: null };
      // From the panel's top right corner, in the hand's own (scaled) units.
      const from = { x: this.area.x + this.area.width - 140, y: this.area.y + 20 - CARD.height / 2 };
      sprite.show(view, this.key, now, { x: (from.x - sprite.position.x) / p.scale, y: (from.y - sprite.position.y) / p.scale }, t);
    });
    if (n >= this.total && this.state) {
      const s = this.state;
      const net = r.lines.reduce((a, l) => a + l.net, 0);
      this.summary.text = r.status === 'void' ? t('recall.void') : t('replay.result', { net: signedMoney(net, s.currency, s.language) });
      this.ctx.emit(`replay:done:${r.roundId}`);
    }
    // Cards just put on their way fly from now.
    return now;
  }
}
