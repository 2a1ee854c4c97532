import type { MessageKey } from '../../../locales/i18n.js';
import type { DecisionAction, Presentation } from '../../../protocol/index.js';

/**
 * The catalogue key of a decision's words, for the station's buttons and service mode's recall
 * alike: the game's own words where its definition names them (war's surrender loses half the
 * bet: its own words, not blackjack's «放棄牌局»), else the action's.
 */
export function actionKey(words: Presentation['actionWords'], action: DecisionAction): MessageKey {
  return words?.[action] ?? `action.${action}`;
}
