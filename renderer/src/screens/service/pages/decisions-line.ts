import type { TFunction } from 'i18next';
import { DecisionAction, type RecallRound } from '../../../../../protocol/index.js';
import { actionKey } from '../../action-words.js';

/**
 * A round's decisions in the screen's language, as the stations word them: `seat:action`, `*` for
 * a default taken on timeout.
 */
export function decisionsLine(t: TFunction, r: Pick<RecallRound, 'actionWords' | 'decisions'>): string {
  return t('service.field.decisions', {
    decisions: r.decisions
      .map((d) => {
        // A decision the ledger holds under a name this version does not know shows as recorded.
        const action = DecisionAction.safeParse(d.action);
        return `${d.seat}:${action.success ? t(actionKey(r.actionWords, action.data)) : d.action}${d.auto ? '*' : ''}`;
      })
      .join(' '),
  });
}
