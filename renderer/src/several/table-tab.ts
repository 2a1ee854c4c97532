import type { TFunction } from 'i18next';
import { Container, Graphics } from 'pixi.js';
import type { StationState } from '../../../protocol/index.js';
import { formatMoney } from '../../../locales/money.js';
import { NEVER, nextSecondAt } from '../anim/wake.js';
import { cueText, phaseText } from '../screens/round-text.js';
import { resultText } from '../screens/result-text.js';
import { Button } from '../ui/button.js';
import { liveText } from '../ui/live-text.js';
import { COLORS, TOUCH } from '../ui/theme.js';

/**
 * A tab's rows, in design units, in the station screen's header (150 high): the tab button,
 * then one line of the round as it goes (its phase and countdown, then its cue or this station's result).
 */
export const TAB = { height: 140, lineY: TOUCH.min + 6, textSize: 26 } as const;

/**
 * One joined table at the top of the screen: a tab that makes it the focus table (its name and
 * game, its credit here as that table's host last said it, and whether it is the station's home),
 * and under it the table's public round as it goes: the phase with its countdown, the dealer's
 * cue, and this station's result there once the round is settled. Every table's tab stays live
 * whichever table has the focus.
 */
export class TableTab extends Container {
  readonly button: Button;
  private readonly frame = new Graphics();
  /** The phase and its countdown (redrawn every second: a live text), then the cue or the result. */
  private readonly line = liveText({ fontSize: TAB.textSize, fill: COLORS.goldText, fontWeight: '700' });
  private state: StationState | null = null;
  private offline = false;

  constructor(
    readonly tableId: string,
    private readonly home: boolean,
    private readonly w: number,
    onFocus: () => void,
  ) {
    super();
    this.button = new Button(`table-${tableId}`, w, TOUCH.min, onFocus);
    this.line.position.set(14, TAB.lineY);
    this.addChild(this.frame, this.button, this.line);
  }

  /** The table's latest view (null before its first), and whether its link is down now. */
  show(state: StationState | null, offline: boolean, focused: boolean, t: TFunction, now: number): void {
    this.state = state;
    this.offline = offline;
    this.frame.clear();
    if (focused) this.frame.roundRect(-4, -4, this.w + 8, TAB.height + 4, 14).stroke({ width: 3, color: COLORS.gold });
    this.button.setActive(focused);
    const game = state ? t(`game.${state.game}`) : '';
    const credit = state ? t(this.home ? 'several.home' : 'several.credit', { amount: formatMoney(state.credit, state.currency, state.language) }) : '';
    const limits = state ? t('table.limits', { min: state.limits.min, max: state.limits.max, currency: state.currency }) : '';
    this.button.setLabel(game ? t('several.tab', { table: this.tableId, game }) : this.tableId, state ? t('several.details', { credit, limits }) : '');
    this.tick(now, t);
  }

  /** The countdown's next second, or never when nothing on the tab counts down. */
  tick(now: number, t: TFunction): number {
    const round = this.state?.round ?? null;
    const settled = this.state && round?.phase === 'results' && this.state.betting.roundNet !== undefined && this.state.betting.bets.length > 0;
    const after =
      !round || !this.state
        ? ''
        : settled
          ? t('station.result', { result: resultText(t, this.state.betting.roundNet ?? 0, this.state.currency, this.state.language) })
          : cueText(t, round.cue);
    this.line.text = this.offline ? t('several.offline') : round ? [phaseText(t, round, now), after].filter(Boolean).join(t('several.then')) : '';
    this.line.scale.set(1);
    if (this.line.width > this.w - 28) this.line.scale.set((this.w - 28) / this.line.width);
    return !this.offline && round?.phase === 'betting' && round.endsAt !== null ? nextSecondAt(round.endsAt, now) : NEVER;
  }
}
