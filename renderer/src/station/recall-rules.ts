import type { TFunction } from 'i18next';
import { citationWords } from '../../../locales/citation.js';
import { choicesWords } from '../../../locales/rule-choice.js';
import type { StationRecallRound, StationState } from '../../../protocol/index.js';

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

/** How many corrections the recall leaves out past its 16 (the round's evidence has them), or null when none. */
export function correctionsOmittedLine(t: TFunction, r: Pick<StationRecallRound, 'correctionsOmitted'>): string | null {
  return r.correctionsOmitted ? t('recall.correctionsOmitted', { count: r.correctionsOmitted }) : null;
}

/** How many of the station's oldest rounds its recall leaves out to fit its one message (protocol 16), or null when none. */
export function roundsOmittedLine(t: TFunction, recalled: StationState['recalled']): string | null {
  return recalled?.omitted ? t('recall.roundsOmitted', { count: recalled.omitted }) : null;
}

/**
 * The rule options other than the text's defaults a line was settled under (the regulator
 * authorised them, or a reading awaits it), each by its name and value in words, with the
 * reference; nothing for a line the defaults decided.
 */
export function choicesLine(t: TFunction, l: { readonly choices?: readonly string[]; readonly authorisation?: string }): string | null {
  if (!l.choices?.length) return null;
  return t('recall.choices', { choices: choicesWords(t, l.choices), authorisation: l.authorisation ?? '—' });
}
