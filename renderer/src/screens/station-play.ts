import { Container, Text } from 'pixi.js';
import type { TFunction } from 'i18next';
import type { StationState } from '../../../protocol/index.js';
import { HandSprite } from '../cards/hand-view.js';
import { formatMoney } from '../i18n/money.js';
import { Button } from '../ui/button.js';
import { COLORS, textStyle } from '../ui/theme.js';
import type { ScreenContext } from './screen.js';
import { phaseText, secondsLeft } from './round-text.js';

/** Chips offered: multiples of the table minimum up to the maximum. */
export function chipValues(min: number, max: number): number[] {
  return [1, 5, 10, 50, 100].map((k) => k * min).filter((v) => v <= max).slice(0, 5);
}

/**
 * The playing part of a station: its bet spots (only the host's list), chips, clear, the
 * decision prompt with its countdown and stated default, the round's hands and its result.
 * Every action is a command to the host; nothing is decided here.
 */
export class StationPlay extends Container {
  private spots: Button[] = [];
  private chips: Button[] = [];
  private actions: Button[] = [];
  private readonly clear: Button;
  private readonly spotLayer = new Container();
  private readonly chipLayer = new Container();
  private readonly actionLayer = new Container();
  private readonly handLayer = new Container();
  private readonly hands: HandSprite[] = [];
  private readonly status = new Text({ text: '', style: textStyle({ fontSize: 40, fill: COLORS.goldText, fontWeight: '700' }) });
  private readonly prompt = new Text({ text: '', style: textStyle({ fontSize: 34, fill: COLORS.ivory }) });
  private readonly result = new Text({ text: '', style: textStyle({ fontSize: 44, fontWeight: '700' }) });
  private chip = 0;
  private state: StationState | null = null;
  private shape = '';

  constructor(private readonly ctx: ScreenContext) {
    super();
    this.clear = new Button('bet-clear', 200, 100, () => ctx.command({ name: 'clear-bets' }));
    this.status.position.set(60, 300);
    this.handLayer.position.set(0, 380);
    this.spotLayer.position.set(60, 560);
    this.chipLayer.position.set(60, 690);
    this.actionLayer.position.set(60, 560);
    this.prompt.position.set(60, 690);
    this.result.position.set(60, 820);
    this.addChild(this.status, this.handLayer, this.spotLayer, this.chipLayer, this.actionLayer, this.prompt, this.result);
  }

  show(state: StationState, t: TFunction, now: number): void {
    this.state = state;
    this.rebuild(state, t);
    const { betting, decision, round } = state;
    this.spots.forEach((b, i) => {
      const spot = betting.spots[i];
      if (!spot) return;
      const amount = betting.bets[spot.bet];
      b.setLabel(amount ? `${t(`bet.${spot.bet}`)} ${formatMoney(amount, state.currency, state.language)}` : t(`bet.${spot.bet}`));
      b.setActive(amount !== undefined);
    });
    this.chips.forEach((b, i) => b.setActive(chipValues(state.limits.min, state.limits.max)[i] === this.chip));
    this.clear.setLabel(t('station.clear'));
    this.spotLayer.visible = this.chipLayer.visible = betting.open;
    this.actionLayer.visible = decision !== null;
    this.actions.forEach((b, i) => {
      const a = decision?.legal[i];
      if (a) b.setLabel(t(actionKey(state, a)));
    });
    const seatHands = round?.hands.filter((h) => h.owner !== 'seat' || h.seat === state.seat) ?? [];
    while (this.hands.length < seatHands.length) {
      const h = new HandSprite();
      this.hands.push(h);
      this.handLayer.addChild(h);
    }
    this.hands.forEach((h, i) => {
      const view = seatHands[i];
      h.visible = view !== undefined;
      if (view) {
        h.show(view);
        h.position.set(200 + i * 320, 0);
      }
    });
    const mine = round?.results?.filter((l) => l.seat === state.seat) ?? [];
    const net = mine.reduce((a, l) => a + l.net, 0);
    this.result.visible = mine.length > 0;
    this.result.text = mine.length ? t('station.result', { net, currency: state.currency }) : '';
    this.result.style.fill = net > 0 ? '#7dff9a' : net < 0 ? '#ff8a8a' : COLORS.ivory;
    this.tick(now, t);
  }

  /** Countdowns move every second without a new snapshot. */
  tick(now: number, t: TFunction): void {
    const s = this.state;
    if (!s) return;
    const status = s.decision
      ? t('station.decide', { seconds: secondsLeft(s.decision.endsAt, now) })
      : s.round
        ? phaseText(t, s.round, now)
        : '';
    if (status !== this.status.text) this.status.text = status;
    const prompt = s.decision ? t('station.default', { action: t(actionKey(s, s.decision.default)) }) : '';
    if (prompt !== this.prompt.text) this.prompt.text = prompt;
  }

  /** Buttons are rebuilt only when the set of spots, chips or actions changes. */
  private rebuild(state: StationState, t: TFunction): void {
    const chipList = chipValues(state.limits.min, state.limits.max);
    const shape = JSON.stringify([state.betting.spots.map((s) => s.bet), chipList, state.decision?.legal ?? []]);
    if (shape === this.shape) return;
    this.shape = shape;
    for (const layer of [this.spotLayer, this.chipLayer, this.actionLayer]) layer.removeChildren().forEach((c) => c !== this.clear && c.destroy({ children: true }));
    this.spots = state.betting.spots.map((spot, i) => {
      const b = new Button(`bet-${spot.bet}`, 300, 110, () => {
        if (this.chip > 0) this.ctx.command({ name: 'place-bet', bet: spot.bet, amount: this.chip });
      });
      b.x = i * 316;
      return b;
    });
    // pixi's addChild() with no argument throws: add only what exists.
    if (this.spots.length) this.spotLayer.addChild(...this.spots);
    if (!chipList.includes(this.chip)) this.chip = chipList[0] ?? 0;
    this.chips = chipList.map((value, i) => {
      const b = new Button(`chip-${value}`, 200, 100, () => {
        this.chip = value;
        this.chips.forEach((c, j) => c.setActive(chipList[j] === value));
      });
      b.setLabel(formatMoney(value, state.currency, state.language));
      b.x = i * 216;
      return b;
    });
    this.clear.x = chipList.length * 216 + 40;
    this.chipLayer.addChild(this.clear, ...this.chips);
    this.actions = (state.decision?.legal ?? []).map((action, i) => {
      const b = new Button(`action-${action}`, 340, 110, () => this.ctx.command({ name: 'decide', action }));
      b.setLabel(t(actionKey(state, action)));
      b.x = i * 356;
      return b;
    });
    if (this.actions.length) this.actionLayer.addChild(...this.actions);
  }
}

/** War's surrender loses half the bet: its own words, not blackjack's «放棄牌局». */
function actionKey(state: StationState, action: string): string {
  return state.game === 'war' && action === 'surrender' ? 'action.warSurrender' : `action.${action}`;
}
