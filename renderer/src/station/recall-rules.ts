import type { TFunction } from 'i18next';
import { citationWords } from '../../../locales/citation.js';
import type { StationRecallRound } from '../../../protocol/index.js';

/**
 * The line of a recalled round that says what rule set it was played under (issue 51): the
 * regulator's authorisation reference and the day it took effect, or a demonstration table;
 * nothing for a round older than the record.
 */
export function rulesLine(t: TFunction, rules: StationRecallRound['rules']): string | null {
  if (!rules) return null;
  if (rules.reference) return t('recall.authorisation', { reference: rules.reference, effective: rules.effective ?? '—' });
  return t(rules.demonstration ? 'recall.demonstration' : 'recall.noAuthorisation');
}

/** A dealing error corrected in the round: what was done, the card, and the article that ordered it, in words. */
export function correctionLine(t: TFunction, c: NonNullable<StationRecallRound['corrections']>[number]): string {
  return t('recall.correction', {
    correction: t(`service.correction.${c.correction}`),
    card: c.card ?? '',
    article: c.article ? citationWords(t, c.article) : '',
  });
}
