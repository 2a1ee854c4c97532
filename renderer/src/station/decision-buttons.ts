import { Container } from 'pixi.js';
import type { TFunction } from 'i18next';
import type { CommandBody, DecisionAction, StationState } from '../../../protocol/index.js';
import { actionKey } from '../screens/action-words.js';
import { Button } from '../ui/button.js';

/**
 * A station's decision buttons (hit, stand, double…), one per action, kept for the screen's life: a
 * station is asked a handful of actions, at most DecisionAction's few. A decision whose legal
 * actions differ from the last shows those buttons, placed and sized for their number, and hides the
 * others; once each action has been asked, a decision makes and destroys nothing. Before, every
 * change of the legal actions made the spots, the chips and every action's button anew: some 38
 * pixi objects a decision on a blackjack station (issue 52, `station-play.test.ts`).
 */
export class DecisionButtons extends Container {
  /** The buttons shown now, in the legal actions' order. */
  private shown: Button[] = [];
  /** Every action's button made so far, shown or hidden. */
  private readonly made = new Map<DecisionAction, Button>();
  /** The legal actions the buttons were last laid out for. */
  private laidOut = '';

  constructor(
    private readonly room: number,
    private readonly command: (command: CommandBody) => void,
  ) {
    super();
  }

  /** The decision's buttons and their words (the default named under its button); none without a decision. */
  show(state: Pick<StationState, 'decision' | 'presentation'>, t: TFunction): void {
    const { decision } = state;
    this.visible = decision !== null;
    this.layOut(decision?.legal ?? []);
    this.shown.forEach((b, i) => {
      const a = decision?.legal[i];
      if (a) b.setLabel(t(actionKey(state.presentation?.actionWords, a)), a === decision?.default ? t('desk.default') : '');
    });
  }

  private layOut(legal: readonly DecisionAction[]): void {
    const key = legal.join(' ');
    if (key === this.laidOut) return;
    this.laidOut = key;
    const w = Math.min(360, Math.floor((this.room - 16 * (legal.length - 1)) / Math.max(1, legal.length)));
    this.shown = legal.map((action, i) => {
      const b = this.button(action, w);
      b.setWidth(w);
      b.x = i * (w + 16);
      b.visible = true;
      return b;
    });
    for (const [action, b] of this.made) if (!legal.includes(action)) b.visible = false;
  }

  /** The button of `action`, made `width` wide the first time it is asked. */
  private button(action: DecisionAction, width: number): Button {
    const kept = this.made.get(action);
    if (kept) return kept;
    const colour = action === 'hit' || action === 'war' ? 0x1f6b3a : action === 'stand' ? 0x7a1020 : action.startsWith('decline') ? 0x3a3a3a : undefined;
    const b = new Button(`action-${action}`, width, 160, () => this.command({ name: 'decide', action }), colour === undefined ? {} : { idle: colour });
    this.made.set(action, b);
    this.addChild(b);
    return b;
  }
}
